#pragma once
/// \file
/// HEATMAP_MAX_KEYPOINT (56): location and score of the maximum of each keypoint heatmap,
/// refined by a quadratic fit and mapped into the box.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

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

/// What the declared shapes and constants already show (the reference checks them at
/// execution): heatmaps of rank 4, boxes [boxes, 4] with the heatmaps' count, a square map of
/// size >= 2 when the layout is a constant, 16-bit boxes of scale 0.125 and zero point 0.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_box_quant(op, 1, "boxes"));
  NNHAL_TRY(rules::check_shape(op, 1, "boxes", {0, 4}));
  const auto& h = op.input(0).dimensions;
  if (h.empty()) return {};
  if (h.size() != 4) return NNHAL_INVALID("input 0 (heatmaps) has rank %zu, it must be 4", h.size());
  if (auto n = rules::known_dim(op, 1, 0); n && h[0] != 0 && *n != h[0])
    return NNHAL_INVALID("input 1 (boxes) has %" PRIu32 " boxes, the heatmaps %" PRIu32, *n, h[0]);
  if (auto nchw = op.constant_scalar<OperandType::BOOL>(2)) {
    const std::uint32_t a = *nchw ? h[2] : h[1], b = *nchw ? h[3] : h[2];
    if ((a != 0 && a < 2) || (b != 0 && b < 2))
      return NNHAL_INVALID(
          "input 0 (heatmaps) has size %" PRIu32 " x %" PRIu32 ", at least 2 x 2 needed", a, b);
    if (a != 0 && b != 0 && a != b)
      return NNHAL_INVALID("input 0 (heatmaps) is not square (%" PRIu32 " x %" PRIu32 ")", a, b);
  }
  return {};
}
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
      .validate = &ops::heatmap_max_keypoint::validate,
  });
};

}  // namespace nnhal
