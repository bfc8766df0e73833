#pragma once
/// \file
/// TRANSPOSE (37): permutes the dimensions, `out.dim[i] = in.dim[perm[i]]` (reversed when the
/// permutation is omitted); the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace transpose {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"perm", Role::Parameter, kSlotOmittable},  // NO_VALUE: reverse the dimensions
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures =
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace transpose

}  // namespace nnhal::ops

namespace nnhal {

/// TRANSPOSE in the operation table.
template <>
struct Row<OperationType::TRANSPOSE> {
  static constexpr OperationInfo info = make_row(OperationType::TRANSPOSE, {
      .inputs = ops::transpose::kInputs,
      .outputs = ops::transpose::kOutputs,
      .signatures = ops::transpose::kSignatures,
      .validate = &ops::transpose::validate,
      .flags = kOpAllowsZeroSized | kOpAllowsOmitted,
  });
};

}  // namespace nnhal
