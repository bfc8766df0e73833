// The kernel sets of the random-graph families (families.hpp): each family's operations, the
// control-flow helpers, IF and WHILE. This file compiles those kernels once more, apart from the
// default set the program links, so that a model can be prepared with its family's set alone.
// Built with NNHAL_RANDOM_GRAPHS_FAMILY_SETS=0 (the sanitizer stage of tools/test.sh, where this
// file alone would take two minutes to compile) the families have no sets and that check is off.

#include "families.hpp"

#include <array>
#include <utility>

#ifndef NNHAL_RANDOM_GRAPHS_FAMILY_SETS
#define NNHAL_RANDOM_GRAPHS_FAMILY_SETS 1
#endif
#if NNHAL_RANDOM_GRAPHS_FAMILY_SETS
#include "nnhal/kernels/all.hpp"
#endif

namespace nnhal::random_graphs {
namespace {

using O = OperationType;

constexpr std::array kElementwise{O::SUB,  O::MUL,     O::DIV,      O::MAXIMUM, O::MINIMUM,  O::POW,        O::PRELU,
                                  O::ABS,  O::NEG,     O::EXP,      O::LOG,     O::SIN,      O::SQRT,       O::RSQRT,
                                  O::FLOOR, O::RELU,   O::RELU1,    O::RELU6,   O::LOGISTIC, O::TANH,       O::ELU,
                                  O::HARD_SWISH, O::CAST, O::QUANTIZE, O::DEQUANTIZE};
constexpr std::array kLogicReduce{O::EQUAL,      O::NOT_EQUAL,   O::GREATER,    O::GREATER_EQUAL, O::LESS_EQUAL,
                                  O::LOGICAL_AND, O::LOGICAL_OR, O::LOGICAL_NOT, O::SELECT,       O::ARGMAX,
                                  O::ARGMIN,     O::MEAN,        O::REDUCE_ALL, O::REDUCE_ANY,    O::REDUCE_MAX,
                                  O::REDUCE_MIN, O::REDUCE_PROD, O::REDUCE_SUM, O::RANK,          O::FILL,
                                  O::TOPK_V2};
constexpr std::array kConvPool{O::CONV_2D,         O::DEPTHWISE_CONV_2D,
                               O::GROUPED_CONV_2D, O::TRANSPOSE_CONV_2D,
                               O::FULLY_CONNECTED, O::AVERAGE_POOL_2D,
                               O::MAX_POOL_2D,     O::L2_POOL_2D,
                               O::L2_NORMALIZATION, O::LOCAL_RESPONSE_NORMALIZATION,
                               O::INSTANCE_NORMALIZATION, O::SOFTMAX,
                               O::LOG_SOFTMAX,     O::RESIZE_BILINEAR,
                               O::RESIZE_NEAREST_NEIGHBOR, O::CHANNEL_SHUFFLE};
constexpr std::array kShape{O::RESHAPE,           O::SQUEEZE,          O::EXPAND_DIMS,    O::TRANSPOSE,
                            O::SPLIT,             O::PAD,              O::PAD_V2,         O::SLICE,
                            O::STRIDED_SLICE,     O::GATHER,           O::TILE,           O::BATCH_TO_SPACE_ND,
                            O::SPACE_TO_BATCH_ND, O::DEPTH_TO_SPACE,   O::SPACE_TO_DEPTH, O::EMBEDDING_LOOKUP,
                            O::HASHTABLE_LOOKUP};
constexpr std::array kSequenceDetection{O::LSTM,
                                        O::RNN,
                                        O::SVDF,
                                        O::BIDIRECTIONAL_SEQUENCE_LSTM,
                                        O::BIDIRECTIONAL_SEQUENCE_RNN,
                                        O::UNIDIRECTIONAL_SEQUENCE_LSTM,
                                        O::UNIDIRECTIONAL_SEQUENCE_RNN,
                                        O::QUANTIZED_16BIT_LSTM,
                                        O::QUANTIZED_LSTM,
                                        O::LSH_PROJECTION,
                                        O::RANDOM_MULTINOMIAL,
                                        O::ROI_ALIGN,
                                        O::ROI_POOLING,
                                        O::HEATMAP_MAX_KEYPOINT,
                                        O::AXIS_ALIGNED_BBOX_TRANSFORM,
                                        O::BOX_WITH_NMS_LIMIT,
                                        O::DETECTION_POSTPROCESSING,
                                        O::GENERATE_PROPOSALS};

#if NNHAL_RANDOM_GRAPHS_FAMILY_SETS
/// The set of `Ops` plus the helpers, IF and WHILE.
template <const auto& Ops, std::size_t... I>
OpSet<Ops[I]..., O::ADD, O::LESS, O::CONCATENATION, O::IF, O::WHILE> set_of(std::index_sequence<I...>);
template <const auto& Ops>
using FamilySet = decltype(set_of<Ops>(std::make_index_sequence<Ops.size()>{}));

template <const auto& Ops>
Expected<PreparedModel> prepare_with(const Model& model, const PrepareOptions& options) {
  return PreparedModel::prepare<FamilySet<Ops>>(model, options);
}

#define NNHAL_FAMILY_SET(ops) &prepare_with<ops>
#else
#define NNHAL_FAMILY_SET(ops) nullptr
#endif

constexpr Family kFamilies[] = {
    {"elementwise", kElementwise, NNHAL_FAMILY_SET(kElementwise)},
    {"logic-reduce", kLogicReduce, NNHAL_FAMILY_SET(kLogicReduce)},
    {"conv-pool", kConvPool, NNHAL_FAMILY_SET(kConvPool)},
    {"shape", kShape, NNHAL_FAMILY_SET(kShape)},
    {"sequence-detection", kSequenceDetection, NNHAL_FAMILY_SET(kSequenceDetection)},
};

}  // namespace

std::span<const Family> families() { return kFamilies; }

}  // namespace nnhal::random_graphs
