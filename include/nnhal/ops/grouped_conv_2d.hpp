#pragma once
/// \file
/// GROUPED_CONV_2D (55): convolution with the input channels split into `num_groups`
/// independent groups, each with its own slice of the filters.

#include "nnhal/ops/common/conv_v12_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace grouped_conv_2d {
/// Explicit-padding form (12 inputs); `kImplicitInputs` lists the implicit form (9 inputs).
inline constexpr std::array<Slot, 12> kInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},  // [depth_out, fh, fw, depth_group]
    {"bias", Role::Bias},       // [depth_out]
    {"pad_left", Role::Parameter},
    {"pad_right", Role::Parameter},
    {"pad_top", Role::Parameter},
    {"pad_bottom", Role::Parameter},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"num_groups", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout},  // mandatory in both forms
}};
/// Implicit-padding form (9 inputs).
inline constexpr std::array<Slot, 9> kImplicitInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"padding_scheme", Role::Padding},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"num_groups", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// Implicit padding (scheme, stride_w, stride_h, num_groups, activation, layout) and explicit
/// padding (four paddings instead of the scheme), for every filter configuration.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  return join(conv_v12::signatures({INT32, INT32, INT32, INT32, INT32, BOOL}),
              conv_v12::signatures({INT32, INT32, INT32, INT32, INT32, INT32, INT32, INT32, BOOL}));
}();

/// A per-channel filter must be quantized along dimension 0 (GroupedConv2D.cpp validate).
inline Status validate(const OperationView& op, HalVersion&) {
  return conv_v12::check_per_channel_filter(op, 1, 0);
}
}  // namespace grouped_conv_2d

}  // namespace nnhal::ops

namespace nnhal {

/// GROUPED_CONV_2D in the operation table.
template <>
struct Row<OperationType::GROUPED_CONV_2D> {
  static constexpr OperationInfo info = make_row(OperationType::GROUPED_CONV_2D, {
      .inputs = ops::grouped_conv_2d::kInputs,
      .outputs = ops::grouped_conv_2d::kOutputs,
      .signatures = ops::grouped_conv_2d::kSignatures,
      .validate = &ops::grouped_conv_2d::validate,
      .implicit_inputs = ops::grouped_conv_2d::kImplicitInputs,
  });
};

}  // namespace nnhal
