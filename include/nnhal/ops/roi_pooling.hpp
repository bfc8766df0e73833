#pragma once
/// \file
/// ROI_POOLING (82): max pooling of each ROI of a 4-D feature map to a fixed size; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace roi_pooling {
inline constexpr std::array<Slot, 8> kInputs{{
    {"input", Role::Data},               // 4-D feature map
    {"rois", Role::Data},                // [num_rois, 4]
    {"batch_index", Role::Data},         // TENSOR_INT32 [num_rois]
    {"output_height", Role::Parameter},  // INT32
    {"output_width", Role::Parameter},   // INT32
    {"height_ratio", Role::Parameter},   // fT
    {"width_ratio", Role::Parameter},    // fT
    {"layout", Role::Layout},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;

/// ROIs and ratio scalars as ROI_ALIGN. F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures = for_each_type(lists::kFloatQuant, [](OperandType t,
                                                                         HalVersion v) {
  const OperandType f = float_scalar_for(t);
  constexpr OperandType i32 = OperandType::INT32;
  return sig(
      v, {t, lists::box_type_for(t), OperandType::TENSOR_INT32, i32, i32, f, f, OperandType::BOOL},
      {t});
});
}  // namespace roi_pooling

}  // namespace nnhal::ops

namespace nnhal {

/// ROI_POOLING in the operation table.
template <>
struct Row<OperationType::ROI_POOLING> {
  static constexpr OperationInfo info = make_row(OperationType::ROI_POOLING, {
      .inputs = ops::roi_pooling::kInputs,
      .outputs = ops::roi_pooling::kOutputs,
      .signatures = ops::roi_pooling::kSignatures,
  });
};

}  // namespace nnhal
