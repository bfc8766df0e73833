#pragma once
/// \file
/// AXIS_ALIGNED_BBOX_TRANSFORM (41): applies per-class box deltas (dx, dy, dw, dh) to ROIs
/// (x1, y1, x2, y2), clipped to the image. Zero ROIs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace axis_aligned_bbox_transform {
inline constexpr std::array<Slot, 4> kInputs{{
    {"rois", Role::Data},         // [num_rois, 4]
    {"deltas", Role::Data},       // [num_rois, num_classes * 4]
    {"batch_index", Role::Data},  // TENSOR_INT32 [num_rois]
    {"image_info", Role::Data},   // [batches, 2] (height, width)
}};
/// [num_rois, num_classes * 4], type of the ROIs.
inline constexpr std::array<Slot, 1> kOutputs{{{"boxes", Role::Data}}};

/// Float: every float tensor of the same type (1.2). Quantized: QUANT16_ASYMM ROIs and image info
/// (ROI scale 0.125, zeroPoint 0, checked at execution) with QA8 deltas (1.2) or QAS8 deltas (1.3;
/// the reference validator says 1.2, the QAS8 operand makes the model 1.3).
inline constexpr auto kSignatures = [] {
  constexpr OperandType I32 = OperandType::TENSOR_INT32, Q16 = OperandType::TENSOR_QUANT16_ASYMM;
  return join(
      for_each_type(lists::kFloat,
                    [](OperandType t, HalVersion v) {
                      return sig(v, {t, t, OperandType::TENSOR_INT32, t}, {t});
                    }),
      std::array<Signature, 2>{{
          sig(HalVersion::V1_2, {Q16, OperandType::TENSOR_QUANT8_ASYMM, I32, Q16}, {Q16}),
          sig(HalVersion::V1_3, {Q16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, I32, Q16}, {Q16}),
      }});
}();
}  // namespace axis_aligned_bbox_transform

}  // namespace nnhal::ops

namespace nnhal {

/// AXIS_ALIGNED_BBOX_TRANSFORM in the operation table.
template <>
struct Row<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM> {
  static constexpr OperationInfo info = make_row(OperationType::AXIS_ALIGNED_BBOX_TRANSFORM, {
      .inputs = ops::axis_aligned_bbox_transform::kInputs,
      .outputs = ops::axis_aligned_bbox_transform::kOutputs,
      .signatures = ops::axis_aligned_bbox_transform::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
