#pragma once
/// \file
/// GENERATE_PROPOSALS (52): turns anchor scores and box deltas into NMS-filtered region
/// proposals per image.

#include <cmath>

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace generate_proposals {
inline constexpr std::array<Slot, 11> kInputs{{
    // The output size depends on the values of the first four inputs: shape inference reads them.
    {"scores", Role::Data, kSlotValueRead},       // [b, h, w, anchors] (NHWC)
    {"bbox_deltas", Role::Data, kSlotValueRead},  // [b, h, w, anchors * 4]
    {"anchors", Role::Data, kSlotValueRead},      // [anchors, 4]
    {"image_info", Role::Data, kSlotValueRead},   // [b, 2]
    {"height_stride", Role::Parameter},  // fT
    {"width_stride", Role::Parameter},   // fT
    {"pre_nms_max", Role::Parameter},    // INT32
    {"post_nms_max", Role::Parameter},   // INT32
    {"iou_threshold", Role::Parameter},  // fT
    {"min_size", Role::Parameter},       // fT
    {"layout", Role::Layout},
}};
inline constexpr std::array<Slot, 3> kOutputs{{
    {"scores", Role::Data},       // [n], T
    {"rois", Role::Data},         // [n, 4]
    {"batch_index", Role::Data},  // TENSOR_INT32 [n]
}};

/// Float: every tensor T, scalars fT. Quantized (QA8 1.2, QAS8 1.3): anchors QUANT16_SYMM
/// (scale 0.125), image info and output ROIs QUANT16_ASYMM, scalars FLOAT32. The operation's
/// documentation gives QUANT16_SYMM for the image info but the reference validator requires
/// QUANT16_ASYMM; the validator is followed.
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      const bool q = lists::is_quant8(t);
      const OperandType anchors = q ? OperandType::TENSOR_QUANT16_SYMM : t;
      const OperandType box = lists::box_type_for(t), f = float_scalar_for(t);
      constexpr OperandType i32 = OperandType::INT32;
      return sig(v, {t, t, anchors, box, f, f, i32, i32, f, f, OperandType::BOOL},
                 {t, box, OperandType::TENSOR_INT32});
  });

/// What the declared shapes and constants already show: scores and deltas of rank 4, anchors
/// [anchors, 4], image info [b, 2], 16-bit anchors and image info of scale 0.125 and zero point
/// 0, constant strides finite and >= 0, constant IoU threshold and minimum size finite (nnhal's
/// checks; the reference accepts any value and computes with it).
inline Status validate(const OperationView& op, HalVersion&) {
  for (std::size_t i : {std::size_t{0}, std::size_t{1}})
    if (auto r = op.input_rank(i); r && *r != 4) return NNHAL_INVALID("input %zu has rank %zu, it must be 4", i, *r);
  NNHAL_TRY(rules::check_shape(op, 2, "anchors", {0, 4}));
  NNHAL_TRY(rules::check_shape(op, 3, "image_info", {0, 2}));
  NNHAL_TRY(rules::check_box_quant(op, 2, "anchors"));
  NNHAL_TRY(rules::check_box_quant(op, 3, "image_info"));
  for (std::size_t i : {std::size_t{4}, std::size_t{5}})
    if (auto v = rules::const_float(op, i); v && !(std::isfinite(*v) && *v >= 0))
      return NNHAL_INVALID("input %zu (%.*s) is %g, it must be finite and >= 0", i,
                           static_cast<int>(kInputs[i].name.size()), kInputs[i].name.data(), static_cast<double>(*v));
  for (std::size_t i : {std::size_t{8}, std::size_t{9}})
    if (auto v = rules::const_float(op, i); v && !std::isfinite(*v))
      return NNHAL_INVALID("input %zu (%.*s) is %g, it must be finite", i,
                           static_cast<int>(kInputs[i].name.size()), kInputs[i].name.data(), static_cast<double>(*v));
  return {};
}
}  // namespace generate_proposals

}  // namespace nnhal::ops

namespace nnhal {

/// GENERATE_PROPOSALS in the operation table.
template <>
struct Row<OperationType::GENERATE_PROPOSALS> {
  static constexpr OperationInfo info = make_row(OperationType::GENERATE_PROPOSALS, {
      .inputs = ops::generate_proposals::kInputs,
      .outputs = ops::generate_proposals::kOutputs,
      .signatures = ops::generate_proposals::kSignatures,
      .validate = &ops::generate_proposals::validate,
  });
};

}  // namespace nnhal
