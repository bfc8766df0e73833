#pragma once
/// \file
/// EXPAND_DIMS (50): inserts a dimension of size 1 at `axis`; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace expand_dims {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},  // INT32 in [-(rank + 1), rank + 1), checked at execution
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32}, {t});
    });
}  // namespace expand_dims

/// EXPAND_DIMS in the operation table.
struct ExpandDims : OperationDescriptor<OperationType::EXPAND_DIMS> {
  static constexpr OperationInfo info{OperationType::EXPAND_DIMS, "EXPAND_DIMS",
                                      HalVersion::V1_2,           expand_dims::kInputs,
                                      expand_dims::kOutputs,      expand_dims::kSignatures};
};

}  // namespace nnhal::ops
