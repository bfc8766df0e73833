#pragma once
/// \file
/// ROI_ALIGN (81): bilinear-sampled average pooling of each ROI of a 4-D feature map to a fixed
/// size. The output's quantization may differ from the input's. Zero ROIs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace roi_align {
inline constexpr std::array<Slot, 10> kInputs{{
    {"input", Role::Data},                // 4-D feature map
    {"rois", Role::Data},                 // [num_rois, 4]
    {"batch_index", Role::Data},          // TENSOR_INT32 [num_rois]
    {"output_height", Role::Parameter},   // INT32
    {"output_width", Role::Parameter},    // INT32
    {"height_ratio", Role::Parameter},    // fT
    {"width_ratio", Role::Parameter},     // fT
    {"height_samples", Role::Parameter},  // INT32, 0 = adaptive
    {"width_samples", Role::Parameter},   // INT32, 0 = adaptive
    {"layout", Role::Layout},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;

/// ROIs are T for F16/F32, QUANT16_ASYMM (scale 0.125, zeroPoint 0) for QA8/QAS8. The ratio
/// scalars are FLOAT16 for F16 although the documentation says FLOAT32: the validator wins.
/// F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      const OperandType f = float_scalar_for(t);
      constexpr OperandType i32 = OperandType::INT32;
      return sig(v,
                 {t, lists::box_type_for(t), OperandType::TENSOR_INT32, i32, i32, f, f, i32, i32,
                  OperandType::BOOL},
                 {t});
  });
}  // namespace roi_align

}  // namespace nnhal::ops

namespace nnhal {

/// ROI_ALIGN in the operation table.
template <>
struct Row<OperationType::ROI_ALIGN> {
  static constexpr OperationInfo info = make_row(OperationType::ROI_ALIGN, {
      .inputs = ops::roi_align::kInputs,
      .outputs = ops::roi_align::kOutputs,
      .signatures = ops::roi_align::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
