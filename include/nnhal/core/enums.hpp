#pragma once
/// \file
/// The HAL 1.3 enumerations with their exact numeric values (spec/HAL13.md section a).

#include <cstdint>
#include <string_view>

namespace nnhal {

/// Operand types of NN HAL 1.3 (`android.hardware.neuralnetworks@1.3::OperandType`).
enum class OperandType : std::int32_t {
  FLOAT32 = 0,
  INT32 = 1,
  UINT32 = 2,
  TENSOR_FLOAT32 = 3,
  TENSOR_INT32 = 4,
  TENSOR_QUANT8_ASYMM = 5,
  BOOL = 6,
  TENSOR_QUANT16_SYMM = 7,
  TENSOR_FLOAT16 = 8,
  TENSOR_BOOL8 = 9,
  FLOAT16 = 10,
  TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
  TENSOR_QUANT16_ASYMM = 12,
  TENSOR_QUANT8_SYMM = 13,
  TENSOR_QUANT8_ASYMM_SIGNED = 14,
  SUBGRAPH = 15,
  OEM = 10000,
  TENSOR_OEM_BYTE = 10001,
};

/// Number of fundamental operand types (codes 0..15).
inline constexpr std::int32_t kOperandTypeCount = 16;

/// Where an operand's value lives (`OperandLifeTime`).
enum class OperandLifeTime : std::int32_t {
  TEMPORARY_VARIABLE = 0,
  SUBGRAPH_INPUT = 1,
  SUBGRAPH_OUTPUT = 2,
  CONSTANT_COPY = 3,
  CONSTANT_REFERENCE = 4,
  NO_VALUE = 5,
  SUBGRAPH = 6,
};

/// Operation codes of NN HAL 1.3 (0..101).
enum class OperationType : std::int32_t {
  ADD = 0,
  AVERAGE_POOL_2D = 1,
  CONCATENATION = 2,
  CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4,
  DEPTH_TO_SPACE = 5,
  DEQUANTIZE = 6,
  EMBEDDING_LOOKUP = 7,
  FLOOR = 8,
  FULLY_CONNECTED = 9,
  HASHTABLE_LOOKUP = 10,
  L2_NORMALIZATION = 11,
  L2_POOL_2D = 12,
  LOCAL_RESPONSE_NORMALIZATION = 13,
  LOGISTIC = 14,
  LSH_PROJECTION = 15,
  LSTM = 16,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU1 = 20,
  RELU6 = 21,
  RESHAPE = 22,
  RESIZE_BILINEAR = 23,
  RNN = 24,
  SOFTMAX = 25,
  SPACE_TO_DEPTH = 26,
  SVDF = 27,
  TANH = 28,
  BATCH_TO_SPACE_ND = 29,
  DIV = 30,
  MEAN = 31,
  PAD = 32,
  SPACE_TO_BATCH_ND = 33,
  SQUEEZE = 34,
  STRIDED_SLICE = 35,
  SUB = 36,
  TRANSPOSE = 37,
  ABS = 38,
  ARGMAX = 39,
  ARGMIN = 40,
  AXIS_ALIGNED_BBOX_TRANSFORM = 41,
  BIDIRECTIONAL_SEQUENCE_LSTM = 42,
  BIDIRECTIONAL_SEQUENCE_RNN = 43,
  BOX_WITH_NMS_LIMIT = 44,
  CAST = 45,
  CHANNEL_SHUFFLE = 46,
  DETECTION_POSTPROCESSING = 47,
  EQUAL = 48,
  EXP = 49,
  EXPAND_DIMS = 50,
  GATHER = 51,
  GENERATE_PROPOSALS = 52,
  GREATER = 53,
  GREATER_EQUAL = 54,
  GROUPED_CONV_2D = 55,
  HEATMAP_MAX_KEYPOINT = 56,
  INSTANCE_NORMALIZATION = 57,
  LESS = 58,
  LESS_EQUAL = 59,
  LOG = 60,
  LOGICAL_AND = 61,
  LOGICAL_NOT = 62,
  LOGICAL_OR = 63,
  LOG_SOFTMAX = 64,
  MAXIMUM = 65,
  MINIMUM = 66,
  NEG = 67,
  NOT_EQUAL = 68,
  PAD_V2 = 69,
  POW = 70,
  PRELU = 71,
  QUANTIZE = 72,
  QUANTIZED_16BIT_LSTM = 73,
  RANDOM_MULTINOMIAL = 74,
  REDUCE_ALL = 75,
  REDUCE_ANY = 76,
  REDUCE_MAX = 77,
  REDUCE_MIN = 78,
  REDUCE_PROD = 79,
  REDUCE_SUM = 80,
  ROI_ALIGN = 81,
  ROI_POOLING = 82,
  RSQRT = 83,
  SELECT = 84,
  SIN = 85,
  SLICE = 86,
  SPLIT = 87,
  SQRT = 88,
  TILE = 89,
  TOPK_V2 = 90,
  TRANSPOSE_CONV_2D = 91,
  UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
  UNIDIRECTIONAL_SEQUENCE_RNN = 93,
  RESIZE_NEAREST_NEIGHBOR = 94,
  QUANTIZED_LSTM = 95,
  IF = 96,
  WHILE = 97,
  ELU = 98,
  HARD_SWISH = 99,
  FILL = 100,
  RANK = 101,
  OEM_OPERATION = 10000,
};

/// Number of HAL 1.3 operation codes (0..101).
inline constexpr std::int32_t kOperationTypeCount = 102;

/// Result codes of the HAL (`@1.3::ErrorStatus`).
enum class ErrorStatus : std::int32_t {
  NONE = 0,
  DEVICE_UNAVAILABLE = 1,
  GENERAL_FAILURE = 2,
  OUTPUT_INSUFFICIENT_SIZE = 3,
  INVALID_ARGUMENT = 4,
  MISSED_DEADLINE_TRANSIENT = 5,
  MISSED_DEADLINE_PERSISTENT = 6,
  RESOURCE_EXHAUSTED_TRANSIENT = 7,
  RESOURCE_EXHAUSTED_PERSISTENT = 8,
};

/// Fused activation applied to an operation's result.
enum class FusedActivationFunc : std::int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3 };

/// Relative priority of a prepared model (HAL 1.3).
enum class Priority : std::int32_t { LOW = 0, MEDIUM = 1, HIGH = 2 };

/// What a prepared model should optimise for (HAL 1.1).
enum class ExecutionPreference : std::int32_t {
  LOW_POWER = 0,
  FAST_SINGLE_ANSWER = 1,
  SUSTAINED_SPEED = 2,
};

/// Whether an execution reports its duration (HAL 1.2).
enum class MeasureTiming : std::int32_t { NO = 0, YES = 1 };

/// Kind of device (HAL 1.2).
enum class DeviceType : std::int32_t { OTHER = 1, CPU = 2, GPU = 3, ACCELERATOR = 4 };

/// Device status returned by getStatus (HAL 1.0).
enum class DeviceStatus : std::int32_t { AVAILABLE = 0, BUSY = 1, OFFLINE = 2, UNKNOWN = 3 };

/// HAL interface versions, ordered. Anything newer than V1_3 is outside HAL 1.3 and is
/// rejected by validation.
enum class HalVersion : std::uint8_t { V1_0 = 0, V1_1 = 1, V1_2 = 2, V1_3 = 3, UNSUPPORTED = 4 };

/// The larger of two versions.
constexpr HalVersion max_version(HalVersion a, HalVersion b) noexcept { return a < b ? b : a; }

/// Printable name of a HAL version ("1.0" ... "1.3").
constexpr std::string_view to_string(HalVersion v) noexcept {
  switch (v) {
    case HalVersion::V1_0: return "1.0";
    case HalVersion::V1_1: return "1.1";
    case HalVersion::V1_2: return "1.2";
    case HalVersion::V1_3: return "1.3";
    case HalVersion::UNSUPPORTED: break;
  }
  return "unsupported";
}

/// Printable name of an ErrorStatus.
constexpr std::string_view to_string(ErrorStatus s) noexcept {
  switch (s) {
    case ErrorStatus::NONE: return "NONE";
    case ErrorStatus::DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
    case ErrorStatus::GENERAL_FAILURE: return "GENERAL_FAILURE";
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ErrorStatus::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
  }
  return "UNKNOWN_ERROR_STATUS";
}

/// Printable name of an operand lifetime.
constexpr std::string_view to_string(OperandLifeTime l) noexcept {
  switch (l) {
    case OperandLifeTime::TEMPORARY_VARIABLE: return "TEMPORARY_VARIABLE";
    case OperandLifeTime::SUBGRAPH_INPUT: return "SUBGRAPH_INPUT";
    case OperandLifeTime::SUBGRAPH_OUTPUT: return "SUBGRAPH_OUTPUT";
    case OperandLifeTime::CONSTANT_COPY: return "CONSTANT_COPY";
    case OperandLifeTime::CONSTANT_REFERENCE: return "CONSTANT_REFERENCE";
    case OperandLifeTime::NO_VALUE: return "NO_VALUE";
    case OperandLifeTime::SUBGRAPH: return "SUBGRAPH";
  }
  return "UNKNOWN_LIFETIME";
}

}  // namespace nnhal
