#pragma once
/// \file
/// GREATER (53): elementwise `a > b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace greater {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::Greater>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace greater

/// GREATER in the operation table.
struct Greater : OperationDescriptor<OperationType::GREATER> {
  static constexpr OperationInfo info{OperationType::GREATER,
                                      "GREATER",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      greater::kSignatures,
                                      nullptr,
                                      &greater::kImpl};
};

}  // namespace nnhal::ops
