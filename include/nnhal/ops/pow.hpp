#pragma once
/// \file
/// POW (70): elementwise `base ^ exponent` with broadcasting.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

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

}  // namespace nnhal::ops

namespace nnhal {

/// POW in the operation table.
template <>
struct Row<OperationType::POW> {
  static constexpr OperationInfo info = make_row(OperationType::POW, {
      .inputs = ops::pow::kInputs,
      .outputs = ops::pow::kOutputs,
      .signatures = ops::pow::kSignatures,
  });
};

}  // namespace nnhal
