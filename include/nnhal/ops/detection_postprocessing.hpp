#pragma once
/// \file
/// DETECTION_POSTPROCESSING (47): SSD-style box decoding of anchors plus (regular or fast)
/// non-max suppression, padded to a fixed number of detections per batch.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace detection_postprocessing {
inline constexpr std::array<Slot, 14> kInputs{{
    {"scores", Role::Data},                          // [b, anchors, classes]
    {"box_deltas", Role::Data},                      // [b, anchors, len >= 4] (dy, dx, dh, dw)
    {"anchors", Role::Data},                         // [anchors, 4] (ctr_y, ctr_x, h, w)
    {"scale_y", Role::Parameter},                    // fT
    {"scale_x", Role::Parameter},                    // fT
    {"scale_h", Role::Parameter},                    // fT
    {"scale_w", Role::Parameter},                    // fT
    {"use_regular_nms", Role::Parameter},            // BOOL
    {"max_num_detections", Role::Parameter},         // INT32
    {"max_classes_per_detection", Role::Parameter},  // INT32
    {"max_detections_per_class", Role::Parameter},   // INT32
    {"score_threshold", Role::Parameter},            // fT
    {"iou_threshold", Role::Parameter},              // fT
    {"include_background", Role::Parameter},         // BOOL
}};
inline constexpr std::array<Slot, 4> kOutputs{{
    {"scores", Role::Data},          // [b, max_det], T
    {"boxes", Role::Data},           // [b, max_det, 4], T (y1, x1, y2, x2)
    {"classes", Role::Data},         // TENSOR_INT32 [b, max_det]
    {"num_detections", Role::Data},  // TENSOR_INT32 [b]
}};

/// F16, F32 (1.2); scalars fT.
inline constexpr auto kSignatures = for_each_type(lists::kFloat, [](OperandType t, HalVersion v) {
  const OperandType f = float_scalar_for(t);
  constexpr OperandType i32 = OperandType::INT32, b = OperandType::BOOL;
  constexpr OperandType I32 = OperandType::TENSOR_INT32;
  return sig(v, {t, t, t, f, f, f, f, b, i32, i32, i32, f, f, b}, {t, t, I32, I32});
});
}  // namespace detection_postprocessing

}  // namespace nnhal::ops

namespace nnhal {

/// DETECTION_POSTPROCESSING in the operation table.
template <>
struct Row<OperationType::DETECTION_POSTPROCESSING> {
  static constexpr OperationInfo info = make_row(OperationType::DETECTION_POSTPROCESSING, {
      .inputs = ops::detection_postprocessing::kInputs,
      .outputs = ops::detection_postprocessing::kOutputs,
      .signatures = ops::detection_postprocessing::kSignatures,
  });
};

}  // namespace nnhal
