#pragma once
/// \file
/// DEPTHWISE_CONV_2D (4): depthwise 2-D convolution of a 4-D tensor with a `[1, fh, fw,
/// depth_out]` filter (depth_out = depth_in * multiplier) and a bias, explicit or implicit
/// padding, optional layout flag and dilation, fused activation.

#include <array>

#include "nnhal/ops/common/conv_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace depthwise_conv_2d {
/// Inputs of the explicit-padding form (11, 12 or 14 inputs: 11 = layout, 12-13 = dilation).
inline constexpr std::array<Slot, 14> kInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"pad_left", Role::Parameter},
    {"pad_right", Role::Parameter},
    {"pad_top", Role::Parameter},
    {"pad_bottom", Role::Parameter},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"depth_multiplier", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
    {"dilation_w", Role::Parameter, kSlotTrailing},
    {"dilation_h", Role::Parameter, kSlotTrailing},
}};
/// Inputs of the implicit-padding form (8, 9 or 11 inputs).
inline constexpr std::array<Slot, 11> kImplicitInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"padding_scheme", Role::Padding},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"depth_multiplier", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
    {"dilation_w", Role::Parameter, kSlotTrailing},
    {"dilation_h", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;

/// Implicit form: padding scheme, stride_w, stride_h, depth_multiplier, activation.
inline constexpr auto kSignatures = conv::signatures(5);

/// Per-channel filters are quantized along dimension 3 (depth_out).
inline Status validate(const OperationView& op, HalVersion& version) {
  return conv::validate(op, version, 3);
}
}  // namespace depthwise_conv_2d

}  // namespace nnhal::ops

namespace nnhal {

/// DEPTHWISE_CONV_2D in the operation table.
template <>
struct Row<OperationType::DEPTHWISE_CONV_2D> {
  static constexpr OperationInfo info = make_row(OperationType::DEPTHWISE_CONV_2D, {
      .inputs = ops::depthwise_conv_2d::kInputs,
      .outputs = ops::depthwise_conv_2d::kOutputs,
      .signatures = ops::depthwise_conv_2d::kSignatures,
      .validate = &ops::depthwise_conv_2d::validate,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::depthwise_conv_2d::kImplicitInputs,
  });
};

}  // namespace nnhal
