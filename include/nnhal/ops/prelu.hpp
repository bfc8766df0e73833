#pragma once
/// \file
/// PRELU (71): `x >= 0 ? x : alpha * x` with alpha broadcast against the input; the output's
/// quantization parameters may differ.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace prelu {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"alpha", Role::Weights},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, T} -> {T}: F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures = lists::binary(lists::kFloatQuant);
}  // namespace prelu

}  // namespace nnhal::ops

namespace nnhal {

/// PRELU in the operation table.
template <>
struct Row<OperationType::PRELU> {
  static constexpr OperationInfo info = make_row(OperationType::PRELU, {
      .inputs = ops::prelu::kInputs,
      .outputs = ops::prelu::kOutputs,
      .signatures = ops::prelu::kSignatures,
  });
};

}  // namespace nnhal
