#pragma once
/// \file
/// DETECTION_POSTPROCESSING (47): SSD-style box decoding of anchors plus (regular or fast)
/// non-max suppression, padded to a fixed number of detections per batch.

#include <cmath>

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

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

/// What the declared shapes and constants already show (the reference's runtime checks):
/// scores and deltas of rank 3, anchors [anchors, 4], more than one class, at least 4 deltas
/// per anchor, constant scales > 0, constant thresholds >= 0 (NaN fails), max_num_detections
/// > 0, and max_detections_per_class > 0 (regular NMS) or max_classes_per_detection > 0 (fast)
/// when use_regular_nms is a constant.
inline Status validate(const OperationView& op, HalVersion&) {
  for (std::size_t i : {std::size_t{0}, std::size_t{1}})
    if (auto r = op.input_rank(i); r && *r != 3) return NNHAL_INVALID("input %zu has rank %zu, it must be 3", i, *r);
  NNHAL_TRY(rules::check_shape(op, 2, "anchors", {0, 4}));
  if (auto c = rules::known_dim(op, 0, 2); c && *c <= 1)
    return NNHAL_INVALID("input 0 (scores) has %" PRIu32 " class, more than one needed", *c);
  if (auto l = rules::known_dim(op, 1, 2); l && *l < 4)
    return NNHAL_INVALID(
        "input 1 (box_deltas) has %" PRIu32 " values per anchor, at least 4 needed", *l);
  for (std::size_t i = 3; i <= 6; ++i)
    if (auto v = rules::const_float(op, i); v && !(*v > 0))
      return NNHAL_INVALID("input %zu (%.*s) is %g, it must be > 0", i,
                           static_cast<int>(kInputs[i].name.size()), kInputs[i].name.data(), static_cast<double>(*v));
  for (std::size_t i : {std::size_t{11}, std::size_t{12}})
    if (auto v = rules::const_float(op, i); v && !(*v >= 0))
      return NNHAL_INVALID("input %zu (%.*s) is %g, it must be >= 0", i,
                           static_cast<int>(kInputs[i].name.size()), kInputs[i].name.data(), static_cast<double>(*v));
  NNHAL_TRY(rules::check_scalar_range(op, 8, "max_num_detections", 1, INT32_MAX));
  if (auto regular = op.constant_scalar<OperandType::BOOL>(7)) {
    if (*regular) return rules::check_scalar_range(op, 10, "max_detections_per_class", 1, INT32_MAX);
    return rules::check_scalar_range(op, 9, "max_classes_per_detection", 1, INT32_MAX);
  }
  return {};
}
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
      .validate = &ops::detection_postprocessing::validate,
  });
};

}  // namespace nnhal
