#pragma once
/// \file
/// POW (70): elementwise `base ^ exponent` with broadcasting.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace pow {
inline constexpr std::array<Slot, 2> kInputs{{
    {"base", Role::Data},
    {"exponent", Role::Data},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, T} -> {T}: F16, F32 (1.2).
inline constexpr auto kSignatures = lists::binary(lists::kFloat);
}  // namespace pow

/// POW in the operation table.
struct Pow : OperationDescriptor<OperationType::POW> {
  static constexpr OperationInfo info{OperationType::POW, "POW",         HalVersion::V1_2,
                                      pow::kInputs,       pow::kOutputs, pow::kSignatures};
};

}  // namespace nnhal::ops
