#pragma once
/// \file
/// The HAL 1.3 enumerations with their exact numeric values (spec/HAL13.md section a).

#include <array>
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

/// THE list of NN HAL 1.3 operations, X(NAME, code) in code order 0..101. Everything that
/// needs every operation (the enum, names, the operation table, the default kernel set) expands
/// it, so no other hand-kept list of operations exists.
#define NNHAL_OPERATION_TYPES(X) \
  X(ADD, 0) \
  X(AVERAGE_POOL_2D, 1) \
  X(CONCATENATION, 2) \
  X(CONV_2D, 3) \
  X(DEPTHWISE_CONV_2D, 4) \
  X(DEPTH_TO_SPACE, 5) \
  X(DEQUANTIZE, 6) \
  X(EMBEDDING_LOOKUP, 7) \
  X(FLOOR, 8) \
  X(FULLY_CONNECTED, 9) \
  X(HASHTABLE_LOOKUP, 10) \
  X(L2_NORMALIZATION, 11) \
  X(L2_POOL_2D, 12) \
  X(LOCAL_RESPONSE_NORMALIZATION, 13) \
  X(LOGISTIC, 14) \
  X(LSH_PROJECTION, 15) \
  X(LSTM, 16) \
  X(MAX_POOL_2D, 17) \
  X(MUL, 18) \
  X(RELU, 19) \
  X(RELU1, 20) \
  X(RELU6, 21) \
  X(RESHAPE, 22) \
  X(RESIZE_BILINEAR, 23) \
  X(RNN, 24) \
  X(SOFTMAX, 25) \
  X(SPACE_TO_DEPTH, 26) \
  X(SVDF, 27) \
  X(TANH, 28) \
  X(BATCH_TO_SPACE_ND, 29) \
  X(DIV, 30) \
  X(MEAN, 31) \
  X(PAD, 32) \
  X(SPACE_TO_BATCH_ND, 33) \
  X(SQUEEZE, 34) \
  X(STRIDED_SLICE, 35) \
  X(SUB, 36) \
  X(TRANSPOSE, 37) \
  X(ABS, 38) \
  X(ARGMAX, 39) \
  X(ARGMIN, 40) \
  X(AXIS_ALIGNED_BBOX_TRANSFORM, 41) \
  X(BIDIRECTIONAL_SEQUENCE_LSTM, 42) \
  X(BIDIRECTIONAL_SEQUENCE_RNN, 43) \
  X(BOX_WITH_NMS_LIMIT, 44) \
  X(CAST, 45) \
  X(CHANNEL_SHUFFLE, 46) \
  X(DETECTION_POSTPROCESSING, 47) \
  X(EQUAL, 48) \
  X(EXP, 49) \
  X(EXPAND_DIMS, 50) \
  X(GATHER, 51) \
  X(GENERATE_PROPOSALS, 52) \
  X(GREATER, 53) \
  X(GREATER_EQUAL, 54) \
  X(GROUPED_CONV_2D, 55) \
  X(HEATMAP_MAX_KEYPOINT, 56) \
  X(INSTANCE_NORMALIZATION, 57) \
  X(LESS, 58) \
  X(LESS_EQUAL, 59) \
  X(LOG, 60) \
  X(LOGICAL_AND, 61) \
  X(LOGICAL_NOT, 62) \
  X(LOGICAL_OR, 63) \
  X(LOG_SOFTMAX, 64) \
  X(MAXIMUM, 65) \
  X(MINIMUM, 66) \
  X(NEG, 67) \
  X(NOT_EQUAL, 68) \
  X(PAD_V2, 69) \
  X(POW, 70) \
  X(PRELU, 71) \
  X(QUANTIZE, 72) \
  X(QUANTIZED_16BIT_LSTM, 73) \
  X(RANDOM_MULTINOMIAL, 74) \
  X(REDUCE_ALL, 75) \
  X(REDUCE_ANY, 76) \
  X(REDUCE_MAX, 77) \
  X(REDUCE_MIN, 78) \
  X(REDUCE_PROD, 79) \
  X(REDUCE_SUM, 80) \
  X(ROI_ALIGN, 81) \
  X(ROI_POOLING, 82) \
  X(RSQRT, 83) \
  X(SELECT, 84) \
  X(SIN, 85) \
  X(SLICE, 86) \
  X(SPLIT, 87) \
  X(SQRT, 88) \
  X(TILE, 89) \
  X(TOPK_V2, 90) \
  X(TRANSPOSE_CONV_2D, 91) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, 92) \
  X(UNIDIRECTIONAL_SEQUENCE_RNN, 93) \
  X(RESIZE_NEAREST_NEIGHBOR, 94) \
  X(QUANTIZED_LSTM, 95) \
  X(IF, 96) \
  X(WHILE, 97) \
  X(ELU, 98) \
  X(HARD_SWISH, 99) \
  X(FILL, 100) \
  X(RANK, 101)

/// Operation codes of NN HAL 1.3 (0..101).
enum class OperationType : std::int32_t {
#define NNHAL_OPERATION_ENUMERATOR(name, code) name = code,
  NNHAL_OPERATION_TYPES(NNHAL_OPERATION_ENUMERATOR)
#undef NNHAL_OPERATION_ENUMERATOR
  OEM_OPERATION = 10000,
};

/// Number of HAL 1.3 operation codes (0..101).
inline constexpr std::int32_t kOperationTypeCount = 102;

namespace detail {
/// Operation names indexed by code.
inline constexpr std::array<std::string_view, kOperationTypeCount> kOperationNames{
#define NNHAL_OPERATION_NAME(name, code) #name,
    NNHAL_OPERATION_TYPES(NNHAL_OPERATION_NAME)
#undef NNHAL_OPERATION_NAME
};
constexpr bool operation_list_in_code_order() {
  std::int32_t expected = 0;
#define NNHAL_OPERATION_CODE_CHECK(name, code) \
  if (static_cast<std::int32_t>(OperationType::name) != expected++) return false;
  NNHAL_OPERATION_TYPES(NNHAL_OPERATION_CODE_CHECK)
#undef NNHAL_OPERATION_CODE_CHECK
  return expected == kOperationTypeCount;
}
static_assert(operation_list_in_code_order(), "NNHAL_OPERATION_TYPES must list codes 0..101 in order");
}  // namespace detail

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

/// Name of an operation code ("ADD", ...), or "UNKNOWN_OPERATION" outside 0..101.
constexpr std::string_view to_string(OperationType t) noexcept {
  const auto code = static_cast<std::int32_t>(t);
  if (code < 0 || code >= kOperationTypeCount) return "UNKNOWN_OPERATION";
  return detail::kOperationNames[static_cast<std::size_t>(code)];
}

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
