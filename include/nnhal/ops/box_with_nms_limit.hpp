#pragma once
/// \file
/// BOX_WITH_NMS_LIMIT (44): per-class score filtering and (hard, linear or gaussian) non-max
/// suppression, keeping at most a given number of detections per image. Zero ROIs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace box_with_nms_limit {
inline constexpr std::array<Slot, 9> kInputs{{
    // The output size depends on the values of the first three inputs: shape inference reads them.
    {"scores", Role::Data, kSlotValueRead},       // [num_rois, num_classes]
    {"boxes", Role::Data, kSlotValueRead},        // [num_rois, num_classes * 4]
    {"batch_index", Role::Data, kSlotValueRead},  // TENSOR_INT32 [num_rois]
    {"score_threshold", Role::Parameter},      // fT
    {"max_detections", Role::Parameter},       // INT32, < 0 = unlimited
    {"nms_kernel", Role::Parameter, kSlotRequired, value_set({0, 1, 2})},  // 0 hard, 1 linear, 2 gaussian
    {"iou_threshold", Role::Parameter},        // fT
    {"sigma", Role::Parameter},                // fT
    {"nms_score_threshold", Role::Parameter},  // fT
}};
inline constexpr std::array<Slot, 4> kOutputs{{
    {"scores", Role::Data},       // [n], T
    {"boxes", Role::Data},        // [n, 4], type of input 1
    {"classes", Role::Data},      // TENSOR_INT32 [n]
    {"batch_index", Role::Data},  // TENSOR_INT32 [n]
}};

/// Boxes are T for F16/F32 and QUANT16_ASYMM (scale 0.125) for QA8/QAS8; the float scalars are
/// FLOAT16 for F16 and FLOAT32 otherwise. F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      const OperandType box = lists::box_type_for(t), f = float_scalar_for(t);
      constexpr OperandType I32 = OperandType::TENSOR_INT32, i32 = OperandType::INT32;
      return sig(v, {t, box, I32, f, i32, i32, f, f, f}, {t, box, I32, I32});
  });
}  // namespace box_with_nms_limit

}  // namespace nnhal::ops

namespace nnhal {

/// BOX_WITH_NMS_LIMIT in the operation table.
template <>
struct Row<OperationType::BOX_WITH_NMS_LIMIT> {
  static constexpr OperationInfo info = make_row(OperationType::BOX_WITH_NMS_LIMIT, {
      .inputs = ops::box_with_nms_limit::kInputs,
      .outputs = ops::box_with_nms_limit::kOutputs,
      .signatures = ops::box_with_nms_limit::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
