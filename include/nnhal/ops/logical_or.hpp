#pragma once
/// \file
/// LOGICAL_OR (63): elementwise OR of two TENSOR_BOOL8 with broadcasting (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace logical_or {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalBinarySignatures;

inline Expected<KernelFn> select(const NodeIO&, std::span<std::byte, kNodeParamBytes>) {
  return &boolean_ops::kernel_logical<boolean_ops::Or>;
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace logical_or

/// LOGICAL_OR in the operation table.
struct LogicalOr : OperationDescriptor<OperationType::LOGICAL_OR> {
  static constexpr OperationInfo info{OperationType::LOGICAL_OR,
                                      "LOGICAL_OR",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      logical_or::kSignatures,
                                      nullptr,
                                      &logical_or::kImpl};
};

}  // namespace nnhal::ops
