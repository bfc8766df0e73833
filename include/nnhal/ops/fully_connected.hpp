#pragma once
/// \file
/// FULLY_CONNECTED (9): out[b, u] = act(bias[u] + sum_k in[b, k] * weights[u, k]), the input
/// (rank 2..4) flattened to [batch, input_size] with input_size = weights.dim(1).

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace fully_connected {

inline constexpr std::array<Slot, 4> kInputs{{
    {"input", Role::Data},
    {"weights", Role::Weights},
    {"bias", Role::Bias},
    {"activation", Role::Activation},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// {T, T, B, INT32} -> {T}; B = T for floats, TENSOR_INT32 for quantized T. QA8 is listed at
/// 1.0: validate raises it to 1.2 when the output scale rule of 1.0 does not hold.
inline constexpr std::array<Signature, 4> kSignatures = [] {
  constexpr auto I32 = OperandType::TENSOR_INT32;
  constexpr auto F32 = OperandType::TENSOR_FLOAT32, F16 = OperandType::TENSOR_FLOAT16;
  constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
  constexpr auto QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  return std::array<Signature, 4>{{
      sig(HalVersion::V1_0, {F32, F32, F32, OperandType::INT32}, {F32}),
      sig(HalVersion::V1_0, {QA8, QA8, I32, OperandType::INT32}, {QA8}),
      sig(HalVersion::V1_2, {F16, F16, F16, OperandType::INT32}, {F16}),
      sig(HalVersion::V1_3, {QAS8, QAS8, I32, OperandType::INT32}, {QAS8}),
  }};
}();

/// Product of declared dimensions (0 when one is unknown), as the reference computes it.
inline std::uint64_t declared_elements(const Operand& op) noexcept {
  std::uint64_t n = 1;
  for (std::uint32_t d : op.dimensions) n *= d;
  return n;
}

/// QA8: `output_scale > input_scale * weights_scale` (product in float, as the reference) is
/// required before 1.2. When input, weights and bias ranks are all known: input rank 2..4,
/// weights rank 2, bias rank 1, element count divisible by input_size, bias length ==
/// num_units (checks on unknown (0) sizes are skipped).
inline Status validate(const OperationView& op, HalVersion& version) {
  if (op.input(0).type == OperandType::TENSOR_QUANT8_ASYMM) {
    const float product = op.input(0).scale * op.input(1).scale;
    if (!(op.output(0).scale > product)) version = max_version(version, HalVersion::V1_2);
  }
  const auto in_rank = op.input_rank(0), w_rank = op.input_rank(1), b_rank = op.input_rank(2);
  if (!in_rank || !w_rank || !b_rank) return {};
  if (*in_rank < 2 || *in_rank > 4)
    return NNHAL_INVALID("input 0 has rank %zu, FULLY_CONNECTED needs rank 2..4", *in_rank);
  if (*w_rank != 2) return NNHAL_INVALID("input 1 (weights) has rank %zu, expected 2", *w_rank);
  if (*b_rank != 1) return NNHAL_INVALID("input 2 (bias) has rank %zu, expected 1", *b_rank);
  const std::uint32_t num_units = op.input(1).dimensions[0];
  const std::uint32_t input_size = op.input(1).dimensions[1];
  const std::uint32_t bias_len = op.input(2).dimensions[0];
  if (input_size != 0 && declared_elements(op.input(0)) % input_size != 0)
    return NNHAL_INVALID("input 0 element count is not a multiple of input_size %" PRIu32,
                         input_size);
  if (num_units != 0 && bias_len != 0 && bias_len != num_units)
    return NNHAL_INVALID("input 2 (bias) has length %" PRIu32 ", expected num_units %" PRIu32,
                         bias_len, num_units);
  return {};
}

}  // namespace fully_connected

}  // namespace nnhal::ops

namespace nnhal {

/// FULLY_CONNECTED in the operation table.
template <>
struct Row<OperationType::FULLY_CONNECTED> {
  static constexpr OperationInfo info = make_row(OperationType::FULLY_CONNECTED, {
      .inputs = ops::fully_connected::kInputs,
      .outputs = ops::fully_connected::kOutputs,
      .signatures = ops::fully_connected::kSignatures,
      .validate = &ops::fully_connected::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
