// Whole-row checks of the table rows for operation codes 1..37 described in this family (every
// row except ADD, SUB, MUL, DIV, FULLY_CONNECTED and RESHAPE): signatures present, versions
// within [since, 1.3], input counts within the slot list, flags consistent with the slots, and
// the zero-sized flag exactly where operations.md's summary table has "Z".
#include <doctest/doctest.h>

#include <algorithm>

#include "ops/table_test_util.hpp"

using namespace nnhal;

namespace {
constexpr OperationType kRows[] = {
    OperationType::AVERAGE_POOL_2D, OperationType::CONCATENATION, OperationType::CONV_2D,
    OperationType::DEPTHWISE_CONV_2D, OperationType::DEPTH_TO_SPACE, OperationType::DEQUANTIZE,
    OperationType::EMBEDDING_LOOKUP, OperationType::FLOOR, OperationType::HASHTABLE_LOOKUP,
    OperationType::L2_NORMALIZATION, OperationType::L2_POOL_2D,
    OperationType::LOCAL_RESPONSE_NORMALIZATION, OperationType::LOGISTIC,
    OperationType::LSH_PROJECTION, OperationType::LSTM, OperationType::MAX_POOL_2D,
    OperationType::RELU, OperationType::RELU1, OperationType::RELU6, OperationType::RESIZE_BILINEAR,
    OperationType::RNN, OperationType::SOFTMAX, OperationType::SPACE_TO_DEPTH, OperationType::SVDF,
    OperationType::TANH, OperationType::BATCH_TO_SPACE_ND, OperationType::MEAN, OperationType::PAD,
    OperationType::SPACE_TO_BATCH_ND, OperationType::SQUEEZE, OperationType::STRIDED_SLICE,
    OperationType::TRANSPOSE,
};

constexpr OperationType kZeroSized[] = {
    OperationType::AVERAGE_POOL_2D, OperationType::CONCATENATION, OperationType::CONV_2D,
    OperationType::DEPTHWISE_CONV_2D, OperationType::DEQUANTIZE, OperationType::L2_POOL_2D,
    OperationType::LOGISTIC, OperationType::MAX_POOL_2D, OperationType::RELU, OperationType::RELU1,
    OperationType::RELU6, OperationType::RESIZE_BILINEAR, OperationType::SOFTMAX,
    OperationType::TANH, OperationType::TRANSPOSE,
};
}  // namespace

TEST_CASE("rows 1..37: complete and consistent") {
  for (OperationType op : kRows) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CAPTURE(info->name);
    CHECK(info->type == op);
    CHECK_FALSE(info->signatures.empty());
    CHECK_FALSE(info->inputs.empty());
    CHECK_FALSE(info->outputs.empty());
    CHECK_FALSE(info->has(kOpControlFlow));
    HalVersion lowest = HalVersion::V1_3;
    for (const Signature& s : info->signatures) {
      CHECK(s.version >= info->since);
      CHECK(s.version <= HalVersion::V1_3);
      lowest = std::min(lowest, s.version);
      if (s.inputs.repeat < 0) CHECK(s.inputs.size <= info->inputs.size());
      CHECK(s.outputs.size == info->outputs.size());
    }
    CHECK(lowest == info->since);
    const bool omittable = std::any_of(info->inputs.begin(), info->inputs.end(),
                                       [](const Slot& s) { return (s.flags & kSlotOmittable) != 0; });
    CHECK(info->has(kOpAllowsOmitted) == omittable);
    const bool zero = std::find(std::begin(kZeroSized), std::end(kZeroSized), op) != std::end(kZeroSized);
    CHECK(info->has(kOpAllowsZeroSized) == zero);
  }
}
