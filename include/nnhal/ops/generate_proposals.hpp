#pragma once
/// \file
/// GENERATE_PROPOSALS (52): turns anchor scores and box deltas into NMS-filtered region
/// proposals per image.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

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
  });
};

}  // namespace nnhal
