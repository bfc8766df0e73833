#pragma once
/// \file
/// GATHER (51): picks slices of the input along `axis` at the given indices; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace gather {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},  // INT32 in [-rank, rank), checked at execution
    {"indices", Role::Data},    // TENSOR_INT32 of any rank; values in bounds at execution
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32, OperandType::TENSOR_INT32}, {t});
  });
}  // namespace gather

}  // namespace nnhal::ops

namespace nnhal {

/// GATHER in the operation table.
template <>
struct Row<OperationType::GATHER> {
  static constexpr OperationInfo info = make_row(OperationType::GATHER, {
      .inputs = ops::gather::kInputs,
      .outputs = ops::gather::kOutputs,
      .signatures = ops::gather::kSignatures,
  });
};

}  // namespace nnhal
