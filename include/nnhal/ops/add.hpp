#pragma once
/// \file
/// ADD (0): elementwise sum with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace add {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

inline Status validate(const OperationView& op, HalVersion&) { return arithmetic::validate_ranks(op); }

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes> params) {
  using namespace arithmetic;
  switch (io.input(0).type) {
    case OperandType::TENSOR_FLOAT32: return &kernel_f32<Add>;
    case OperandType::TENSOR_FLOAT16: return &kernel_f16<Add>;
    case OperandType::TENSOR_INT32: return &kernel_i32<Add>;
    case OperandType::TENSOR_QUANT8_ASYMM:
      store_params(params, make_add_params(io.input(0), io.input(1), io.output(0), false));
      return &kernel_add_quant<OperandType::TENSOR_QUANT8_ASYMM>;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      store_params(params, make_add_params(io.input(0), io.input(1), io.output(0), false));
      return &kernel_add_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
    default: break;
  }
  return NNHAL_FAILURE("ADD has no kernel for this operand type");
}

inline constexpr OpImpl kImpl{&arithmetic::infer_broadcast, &select};
}  // namespace add

/// ADD in the operation table.
struct Add : OperationDescriptor<OperationType::ADD> {
  static constexpr OperationInfo info{OperationType::ADD,    "ADD",          HalVersion::V1_0,
                                      arithmetic::kInputs,   arithmetic::kOutputs, add::kSignatures,
                                      &add::validate,        &add::kImpl,    kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
