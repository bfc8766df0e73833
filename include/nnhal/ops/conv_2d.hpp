#pragma once
/// \file
/// CONV_2D (3): 2-D convolution of a 4-D tensor with a `[depth_out, fh, fw, depth_in]` filter and
/// a bias, explicit or implicit padding, optional layout flag and dilation, fused activation.

#include <array>

#include "nnhal/ops/common/conv_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace conv_2d {
/// Inputs of the explicit-padding form (10, 11 or 13 inputs: 10 = layout, 11-12 = dilation).
inline constexpr std::array<Slot, 13> kInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"pad_left", Role::Parameter},
    {"pad_right", Role::Parameter},
    {"pad_top", Role::Parameter},
    {"pad_bottom", Role::Parameter},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
    {"dilation_w", Role::Parameter, kSlotTrailing},
    {"dilation_h", Role::Parameter, kSlotTrailing},
}};
/// Inputs of the implicit-padding form (7, 8 or 10 inputs).
inline constexpr std::array<Slot, 10> kImplicitInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"padding_scheme", Role::Padding},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
    {"dilation_w", Role::Parameter, kSlotTrailing},
    {"dilation_h", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;

/// Implicit form: padding scheme, stride_w, stride_h, activation.
inline constexpr auto kSignatures = conv::signatures(4);

/// Per-channel filters are quantized along dimension 0 (depth_out).
inline Status validate(const OperationView& op, HalVersion& version) {
  return conv::validate(op, version, 0);
}
}  // namespace conv_2d

}  // namespace nnhal::ops

namespace nnhal {

/// CONV_2D in the operation table.
template <>
struct Row<OperationType::CONV_2D> {
  static constexpr OperationInfo info = make_row(OperationType::CONV_2D, {
      .inputs = ops::conv_2d::kInputs,
      .outputs = ops::conv_2d::kOutputs,
      .signatures = ops::conv_2d::kSignatures,
      .validate = &ops::conv_2d::validate,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::conv_2d::kImplicitInputs,
  });
};

}  // namespace nnhal
