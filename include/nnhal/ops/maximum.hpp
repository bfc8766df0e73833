#pragma once
/// \file
/// MAXIMUM (65): elementwise maximum with broadcasting; the inputs' and the output's
/// quantization parameters may all differ.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace maximum {
inline constexpr auto& kInputs = lists::kBinaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, T} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures = lists::binary(lists::kFloatIntQuant);
}  // namespace maximum

}  // namespace nnhal::ops

namespace nnhal {

/// MAXIMUM in the operation table.
template <>
struct Row<OperationType::MAXIMUM> {
  static constexpr OperationInfo info = make_row(OperationType::MAXIMUM, {
      .inputs = ops::maximum::kInputs,
      .outputs = ops::maximum::kOutputs,
      .signatures = ops::maximum::kSignatures,
  });
};

}  // namespace nnhal
