#pragma once
/// \file
/// MAXIMUM (65): elementwise maximum with broadcasting; the inputs' and the output's
/// quantization parameters may all differ.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace maximum {
inline constexpr auto& kInputs = lists::kBinaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, T} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures = lists::binary(lists::kFloatIntQuant);
}  // namespace maximum

/// MAXIMUM in the operation table.
struct Maximum : OperationDescriptor<OperationType::MAXIMUM> {
  static constexpr OperationInfo info{OperationType::MAXIMUM, "MAXIMUM",
                                      HalVersion::V1_2,       maximum::kInputs,
                                      maximum::kOutputs,      maximum::kSignatures};
};

}  // namespace nnhal::ops
