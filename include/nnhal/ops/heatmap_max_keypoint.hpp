#pragma once
/// \file
/// HEATMAP_MAX_KEYPOINT (56): location and score of the maximum of each keypoint heatmap,
/// refined by a quadratic fit and mapped into the box.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace heatmap_max_keypoint {
inline constexpr std::array<Slot, 3> kInputs{{
    {"heatmaps", Role::Data},  // [boxes, size, size, keypoints], size >= 2
    {"boxes", Role::Data},     // [boxes, 4]
    {"layout", Role::Layout},
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"scores", Role::Data},     // [boxes, keypoints], T
    {"keypoints", Role::Data},  // [boxes, keypoints, 2], type of the boxes
}};

/// Boxes (and keypoints) are T for F16/F32, QUANT16_ASYMM (scale 0.125) for QA8/QAS8.
/// F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      const OperandType box = lists::box_type_for(t);
      return sig(v, {t, box, OperandType::BOOL}, {t, box});
  });
}  // namespace heatmap_max_keypoint

}  // namespace nnhal::ops

namespace nnhal {

/// HEATMAP_MAX_KEYPOINT in the operation table.
template <>
struct Row<OperationType::HEATMAP_MAX_KEYPOINT> {
  static constexpr OperationInfo info = make_row(OperationType::HEATMAP_MAX_KEYPOINT, {
      .inputs = ops::heatmap_max_keypoint::kInputs,
      .outputs = ops::heatmap_max_keypoint::kOutputs,
      .signatures = ops::heatmap_max_keypoint::kSignatures,
  });
};

}  // namespace nnhal
