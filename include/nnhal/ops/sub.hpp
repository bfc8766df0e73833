#pragma once
/// \file
/// SUB (36): elementwise difference with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace sub {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_1},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

inline Status validate(const OperationView& op, HalVersion&) { return arithmetic::validate_ranks(op); }

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes> params) {
  using namespace arithmetic;
  switch (io.input(0).type) {
    case OperandType::TENSOR_FLOAT32: return &kernel_f32<Sub>;
    case OperandType::TENSOR_FLOAT16: return &kernel_f16<Sub>;
    case OperandType::TENSOR_INT32: return &kernel_i32<Sub>;
    case OperandType::TENSOR_QUANT8_ASYMM:
      store_params(params, make_add_params(io.input(0), io.input(1), io.output(0), true));
      return &kernel_add_quant<OperandType::TENSOR_QUANT8_ASYMM>;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      store_params(params, make_add_params(io.input(0), io.input(1), io.output(0), true));
      return &kernel_add_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
    default: break;
  }
  return NNHAL_FAILURE("SUB has no kernel for this operand type");
}

inline constexpr OpImpl kImpl{&arithmetic::infer_broadcast, &select};
}  // namespace sub

/// SUB in the operation table.
struct Sub : OperationDescriptor<OperationType::SUB> {
  static constexpr OperationInfo info{OperationType::SUB,    "SUB",          HalVersion::V1_1,
                                      arithmetic::kInputs,   arithmetic::kOutputs, sub::kSignatures,
                                      &sub::validate,        &sub::kImpl,    kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
