#pragma once
/// \file
/// MINIMUM (66): elementwise minimum with broadcasting; the inputs' and the output's
/// quantization parameters may all differ.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace minimum {
inline constexpr auto& kInputs = lists::kBinaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, T} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures = lists::binary(lists::kFloatIntQuant);
}  // namespace minimum

}  // namespace nnhal::ops

namespace nnhal {

/// MINIMUM in the operation table.
template <>
struct Row<OperationType::MINIMUM> {
  static constexpr OperationInfo info = make_row(OperationType::MINIMUM, {
      .inputs = ops::minimum::kInputs,
      .outputs = ops::minimum::kOutputs,
      .signatures = ops::minimum::kSignatures,
  });
};

}  // namespace nnhal
