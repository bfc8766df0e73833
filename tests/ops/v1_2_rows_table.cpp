// Whole-row checks of the table rows for operation codes 38..101 described in this family
// (every row except CAST, the comparisons, LOGICAL_*, IF and WHILE): signatures present,
// versions within [since, 1.3], input/output counts within the slot lists, the omitted-operand
// flag consistent with the slots, and the zero-sized flag exactly where operations.md's summary
// table has "Z".
#include <doctest/doctest.h>

#include <algorithm>

#include "ops/table_test_util.hpp"

using namespace nnhal;

namespace {
using enum OperationType;
constexpr OperationType kRows38To101[] = {
    ABS,
    ARGMAX,
    ARGMIN,
    AXIS_ALIGNED_BBOX_TRANSFORM,
    BIDIRECTIONAL_SEQUENCE_LSTM,
    BIDIRECTIONAL_SEQUENCE_RNN,
    BOX_WITH_NMS_LIMIT,
    CHANNEL_SHUFFLE,
    DETECTION_POSTPROCESSING,
    EXP,
    EXPAND_DIMS,
    GATHER,
    GENERATE_PROPOSALS,
    GROUPED_CONV_2D,
    HEATMAP_MAX_KEYPOINT,
    INSTANCE_NORMALIZATION,
    LOG,
    LOG_SOFTMAX,
    MAXIMUM,
    MINIMUM,
    NEG,
    PAD_V2,
    POW,
    PRELU,
    QUANTIZE,
    QUANTIZED_16BIT_LSTM,
    RANDOM_MULTINOMIAL,
    REDUCE_ALL,
    REDUCE_ANY,
    REDUCE_MAX,
    REDUCE_MIN,
    REDUCE_PROD,
    REDUCE_SUM,
    ROI_ALIGN,
    ROI_POOLING,
    RSQRT,
    SELECT,
    SIN,
    SLICE,
    SPLIT,
    SQRT,
    TILE,
    TOPK_V2,
    TRANSPOSE_CONV_2D,
    UNIDIRECTIONAL_SEQUENCE_LSTM,
    UNIDIRECTIONAL_SEQUENCE_RNN,
    RESIZE_NEAREST_NEIGHBOR,
    QUANTIZED_LSTM,
    ELU,
    HARD_SWISH,
    FILL,
    RANK,
};

constexpr OperationType kZeroSized38To101[] = {
    AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT,      QUANTIZE,   ROI_ALIGN, SLICE,
    TRANSPOSE_CONV_2D,           RESIZE_NEAREST_NEIGHBOR, HARD_SWISH,
};

constexpr OperationType kSince13Rows[] = {QUANTIZED_LSTM, ELU, HARD_SWISH, FILL, RANK};
}  // namespace

TEST_CASE("rows 38..101 (this family): complete and consistent") {
  for (OperationType op : kRows38To101) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CAPTURE(info->name);
    CHECK(info->type == op);
    CHECK_FALSE(info->signatures.empty());
    CHECK_FALSE(info->inputs.empty());
    CHECK_FALSE(info->outputs.empty());
    CHECK_FALSE(info->has(kOpControlFlow));
    const bool since13 =
        std::find(std::begin(kSince13Rows), std::end(kSince13Rows), op) != std::end(kSince13Rows);
    CHECK(info->since == (since13 ? HalVersion::V1_3 : HalVersion::V1_2));
    HalVersion lowest = HalVersion::V1_3;
    for (const Signature& s : info->signatures) {
      CHECK(s.version >= info->since);
      CHECK(s.version <= HalVersion::V1_3);
      lowest = std::min(lowest, s.version);
      CHECK(s.inputs.repeat < 0);
      CHECK(s.inputs.size <= info->inputs.size());
      CHECK(s.outputs.size <= info->outputs.size());
    }
    CHECK(lowest == info->since);
    const bool omittable = std::any_of(info->inputs.begin(), info->inputs.end(), [](const Slot& s) {
      return (s.flags & kSlotOmittable) != 0;
    });
    CHECK(info->has(kOpAllowsOmitted) == omittable);
    const bool zero =
        std::find(std::begin(kZeroSized38To101), std::end(kZeroSized38To101), op) != std::end(kZeroSized38To101);
    CHECK(info->has(kOpAllowsZeroSized) == zero);
  }
}
