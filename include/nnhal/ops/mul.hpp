#pragma once
/// \file
/// MUL (18): elementwise product with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace mul {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

/// Ranks <= 4; quantized outputs need output_scale > input1_scale * input2_scale.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(arithmetic::validate_ranks(op));
  const Operand& out = op.output(0);
  if (is_quantized(out.type)) {
    const float product = op.input(0).scale * op.input(1).scale;
    if (!(out.scale > product))
      return NNHAL_INVALID("quantized output scale %g must exceed input0 scale * input1 scale (%g)",
                           static_cast<double>(out.scale), static_cast<double>(product));
  }
  return {};
}

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes> params) {
  using namespace arithmetic;
  const OperandType t = io.input(0).type;
  if (t == OperandType::TENSOR_FLOAT32) return &kernel_f32<Mul>;
  if (t == OperandType::TENSOR_FLOAT16) return &kernel_f16<Mul>;
  if (t == OperandType::TENSOR_INT32) return &kernel_i32<Mul>;
  if (t != OperandType::TENSOR_QUANT8_ASYMM && t != OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    return NNHAL_FAILURE("MUL has no kernel for this operand type");
  const RtOperand &a = io.input(0), &b = io.input(1), &o = io.output(0);
  MulQuantParams p{};
  p.input1_offset = -a.zero_point;
  p.input2_offset = -b.zero_point;
  p.output_offset = o.zero_point;
  p.output = quant::quantize_multiplier(static_cast<double>(a.scale) * static_cast<double>(b.scale) /
                                        static_cast<double>(o.scale));
  store_params(params, p);
  if (t == OperandType::TENSOR_QUANT8_ASYMM) return &kernel_mul_quant<OperandType::TENSOR_QUANT8_ASYMM>;
  return &kernel_mul_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
}

inline constexpr OpImpl kImpl{&arithmetic::infer_broadcast, &select};
}  // namespace mul

/// MUL in the operation table.
struct Mul : OperationDescriptor<OperationType::MUL> {
  static constexpr OperationInfo info{OperationType::MUL,    "MUL",          HalVersion::V1_0,
                                      arithmetic::kInputs,   arithmetic::kOutputs, mul::kSignatures,
                                      &mul::validate,        &mul::kImpl,    kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
