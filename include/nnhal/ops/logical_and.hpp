#pragma once
/// \file
/// LOGICAL_AND (61): elementwise AND of two TENSOR_BOOL8 with broadcasting (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace logical_and {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalBinarySignatures;

inline Expected<KernelFn> select(const NodeIO&, std::span<std::byte, kNodeParamBytes>) {
  return &boolean_ops::kernel_logical<boolean_ops::And>;
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace logical_and

/// LOGICAL_AND in the operation table.
struct LogicalAnd : OperationDescriptor<OperationType::LOGICAL_AND> {
  static constexpr OperationInfo info{OperationType::LOGICAL_AND,
                                      "LOGICAL_AND",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      logical_and::kSignatures,
                                      nullptr,
                                      &logical_and::kImpl};
};

}  // namespace nnhal::ops
