// Table rows of the detection operations (operations.md 41, 44, 47, 52, 56, 81, 82): float forms
// with fT scalars, quantized forms with QUANT16 box tensors, versions, and the zero-sized flags.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using enum nnhal::OperandType;

TEST_CASE("AXIS_ALIGNED_BBOX_TRANSFORM: float, or QA16 ROIs with QA8 (1.2) / QAS8 (1.3) deltas") {
  const auto op = OperationType::AXIS_ALIGNED_BBOX_TRANSFORM;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  for (OperandType t : {TENSOR_FLOAT16, TENSOR_FLOAT32})
    CHECK(lowest_version(op, {t, t, TENSOR_INT32, t}, {t}) == HalVersion::V1_2);
  CHECK(lowest_version(
            op, {TENSOR_QUANT16_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_INT32, TENSOR_QUANT16_ASYMM},
            {TENSOR_QUANT16_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(
            op,
            {TENSOR_QUANT16_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, TENSOR_QUANT16_ASYMM},
            {TENSOR_QUANT16_ASYMM}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32, TENSOR_FLOAT32},
                             {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(
      op, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_INT32, TENSOR_QUANT16_ASYMM},
      {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("BOX_WITH_NMS_LIMIT: nine inputs, four outputs") {
  const auto op = OperationType::BOX_WITH_NMS_LIMIT;
  CHECK(find_operation(op)->inputs.size() == 9);
  CHECK(find_operation(op)->outputs.size() == 4);
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op,
                       {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, FLOAT16, INT32, INT32,
                        FLOAT16, FLOAT16, FLOAT16},
                       {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, TENSOR_INT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op,
                       {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_ASYMM, TENSOR_INT32, FLOAT32, INT32,
                        INT32, FLOAT32, FLOAT32, FLOAT32},
                       {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_ASYMM, TENSOR_INT32, TENSOR_INT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op,
                       {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_ASYMM, TENSOR_INT32, FLOAT32,
                        INT32, INT32, FLOAT32, FLOAT32, FLOAT32},
                       {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_ASYMM, TENSOR_INT32,
                        TENSOR_INT32}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op,
                             {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, FLOAT32, INT32, INT32,
                              FLOAT32, FLOAT32, FLOAT32},
                             {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, TENSOR_INT32}));
}

TEST_CASE("GENERATE_PROPOSALS: quantized anchors QS16, image info QA16 (validator, not the doc)") {
  const auto op = OperationType::GENERATE_PROPOSALS;
  CHECK(lowest_version(op,
                       {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, FLOAT32,
                        FLOAT32, INT32, INT32, FLOAT32, FLOAT32, BOOL},
                       {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_INT32}) == HalVersion::V1_2);
  const std::vector<OperandType> quant_tail{FLOAT32, FLOAT32, INT32, INT32, FLOAT32, FLOAT32, BOOL};
  for (auto [t, v] : {std::pair{TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
                      std::pair{TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3}}) {
    auto ins = test::concat({{t, t, TENSOR_QUANT16_SYMM, TENSOR_QUANT16_ASYMM}, quant_tail});
    CHECK(lowest_version(op, ins, {t, TENSOR_QUANT16_ASYMM, TENSOR_INT32}) == v);
    ins[3] = TENSOR_QUANT16_SYMM;  // the documented image-info type the validator rejects
    CHECK_FALSE(lowest_version(op, ins, {t, TENSOR_QUANT16_ASYMM, TENSOR_INT32}));
  }
}

TEST_CASE("DETECTION_POSTPROCESSING: 14 inputs, F16 / F32 only") {
  const auto op = OperationType::DETECTION_POSTPROCESSING;
  CHECK(find_operation(op)->inputs.size() == 14);
  for (auto [t, f] : {std::pair{TENSOR_FLOAT16, FLOAT16}, std::pair{TENSOR_FLOAT32, FLOAT32}}) {
    const std::vector<OperandType> ins{t, t, t, f, f, f, f, BOOL, INT32, INT32, INT32, f, f, BOOL};
    CHECK(lowest_version(op, ins, {t, t, TENSOR_INT32, TENSOR_INT32}) == HalVersion::V1_2);
    CHECK_FALSE(lowest_version(op, ins, {t, t, TENSOR_INT32}));
  }
  CHECK_FALSE(
      lowest_version(op,
                     {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, FLOAT32,
                      FLOAT32, FLOAT32, FLOAT32, BOOL, INT32, INT32, INT32, FLOAT32, FLOAT32, BOOL},
                     {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_INT32, TENSOR_INT32}));
}

TEST_CASE("HEATMAP_MAX_KEYPOINT: quantized heatmaps with QA16 boxes") {
  const auto op = OperationType::HEATMAP_MAX_KEYPOINT;
  CHECK(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32, BOOL},
                       {TENSOR_FLOAT32, TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_ASYMM, BOOL},
                       {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_ASYMM, BOOL},
                       {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_ASYMM}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, BOOL},
                             {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("ROI_ALIGN / ROI_POOLING: FLOAT16 ratios for F16 (validator, not the doc)") {
  const auto align = OperationType::ROI_ALIGN;
  CHECK(find_operation(align)->has(kOpAllowsZeroSized));
  CHECK_FALSE(find_operation(OperationType::ROI_POOLING)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(align,
                       {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, INT32, INT32, FLOAT16,
                        FLOAT16, INT32, INT32, BOOL},
                       {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(align,
                             {TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_INT32, INT32, INT32, FLOAT32,
                              FLOAT32, INT32, INT32, BOOL},
                             {TENSOR_FLOAT16}));
  CHECK(lowest_version(align,
                       {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_ASYMM, TENSOR_INT32, INT32,
                        INT32, FLOAT32, FLOAT32, INT32, INT32, BOOL},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  const auto pool = OperationType::ROI_POOLING;
  CHECK(lowest_version(pool,
                       {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_ASYMM, TENSOR_INT32, INT32, INT32,
                        FLOAT32, FLOAT32, BOOL},
                       {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(
            pool,
            {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_INT32, INT32, INT32, FLOAT32, FLOAT32, BOOL},
            {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(pool,
                             {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_INT32, INT32, INT32, FLOAT32,
                              FLOAT32, INT32, INT32, BOOL},
                             {TENSOR_FLOAT32}));
}
