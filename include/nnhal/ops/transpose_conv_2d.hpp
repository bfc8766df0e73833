#pragma once
/// \file
/// TRANSPOSE_CONV_2D (91): transposed ("deconvolution") 2-D convolution. Zero batches allowed.

#include "nnhal/ops/common/conv_v12_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace transpose_conv_2d {
/// Explicit-padding form (11 inputs); `kImplicitInputs` lists the implicit form (9 inputs).
inline constexpr std::array<Slot, 11> kInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},  // [depth_out, fh, fw, depth_in]
    {"bias", Role::Bias},       // [depth_out]
    {"pad_left", Role::Parameter},
    {"pad_right", Role::Parameter},
    {"pad_top", Role::Parameter},
    {"pad_bottom", Role::Parameter},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout},  // mandatory in both forms
}};
/// Implicit-padding form (9 inputs).
inline constexpr std::array<Slot, 9> kImplicitInputs{{
    {"input", Role::Data},
    {"filter", Role::Weights},
    {"bias", Role::Bias},
    {"output_shape", Role::Parameter},  // TENSOR_INT32 [4]
    {"padding_scheme", Role::Padding},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// Implicit padding (output shape tensor, scheme, strides, activation, layout) and explicit
/// padding (four paddings, strides, activation, layout), for every filter configuration.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  return join(conv_v12::signatures({TENSOR_INT32, INT32, INT32, INT32, INT32, BOOL}),
              conv_v12::signatures({INT32, INT32, INT32, INT32, INT32, INT32, INT32, BOOL}));
}();

/// A per-channel filter must be quantized along dimension 0 (TransposeConv2D.cpp validate).
inline Status validate(const OperationView& op, HalVersion&) {
  return conv_v12::check_per_channel_filter(op, 1, 0);
}
}  // namespace transpose_conv_2d

}  // namespace nnhal::ops

namespace nnhal {

/// TRANSPOSE_CONV_2D in the operation table.
template <>
struct Row<OperationType::TRANSPOSE_CONV_2D> {
  static constexpr OperationInfo info = make_row(OperationType::TRANSPOSE_CONV_2D, {
      .inputs = ops::transpose_conv_2d::kInputs,
      .outputs = ops::transpose_conv_2d::kOutputs,
      .signatures = ops::transpose_conv_2d::kSignatures,
      .validate = &ops::transpose_conv_2d::validate,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::transpose_conv_2d::kImplicitInputs,
  });
};

}  // namespace nnhal
