#pragma once
/// \file
/// CAST (45): converts every element to the output type (same shape). Quantization parameters
/// are ignored: TENSOR_QUANT8_ASYMM is treated as raw uint8.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace cast {

inline constexpr std::array<Slot, 1> kInputs{{{"input", Role::Data}}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// The four types CAST converts between (1.2).
inline constexpr std::array<OperandType, 4> kConvertible{{
    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
    OperandType::TENSOR_QUANT8_ASYMM}};
/// Types CAST accepts only as identity casts (1.3).
inline constexpr std::array<OperandType, 5> kIdentityOnly{{
    OperandType::TENSOR_BOOL8, OperandType::TENSOR_QUANT16_ASYMM, OperandType::TENSOR_QUANT16_SYMM,
    OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_SYMM}};

/// Every T -> U of kConvertible at 1.2, then T -> T of kIdentityOnly at 1.3.
inline constexpr auto kSignatures = [] {
  std::array<Signature, kConvertible.size() * kConvertible.size() + kIdentityOnly.size()> out{};
  std::size_t at = 0;
  for (OperandType t : kConvertible)
    for (OperandType u : kConvertible) out[at++] = sig(HalVersion::V1_2, {t}, {u});
  for (OperandType t : kIdentityOnly) out[at++] = sig(HalVersion::V1_3, {t}, {t});
  return out;
}();

/// When both ranks are known and every output dimension is known, the declared dimensions must be
/// equal. Reference quirk: an unknown (0) input dimension against a known output dimension is
/// rejected too, since the reference compares the declared lists as they are.
inline Status validate(const OperationView& op, HalVersion&) {
  const auto& in = op.input(0).dimensions;
  const auto& out = op.output(0).dimensions;
  if (in.empty() || out.empty()) return {};
  for (std::uint32_t d : out)
    if (d == 0) return {};
  if (in != out) return NNHAL_INVALID("CAST output 0 must have the shape of input 0");
  return {};
}

}  // namespace cast

}  // namespace nnhal::ops

namespace nnhal {

/// CAST in the operation table.
template <>
struct Row<OperationType::CAST> {
  static constexpr OperationInfo info = make_row(OperationType::CAST, {
      .inputs = ops::cast::kInputs,
      .outputs = ops::cast::kOutputs,
      .signatures = ops::cast::kSignatures,
      .validate = &ops::cast::validate,
  });
};

}  // namespace nnhal
