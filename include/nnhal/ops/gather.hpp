#pragma once
/// \file
/// GATHER (51): picks slices of the input along `axis` at the given indices; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

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

/// GATHER in the operation table.
struct Gather : OperationDescriptor<OperationType::GATHER> {
  static constexpr OperationInfo info{OperationType::GATHER, "GATHER",         HalVersion::V1_2,
                                      gather::kInputs,       gather::kOutputs, gather::kSignatures};
};

}  // namespace nnhal::ops
