#pragma once
/// \file
/// LOGICAL_NOT (62): elementwise NOT of a TENSOR_BOOL8 (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace logical_not {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalNotSignatures;

inline Expected<KernelFn> select(const NodeIO&, std::span<std::byte, kNodeParamBytes>) {
  return &boolean_ops::kernel_logical_not;
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_same, &select};
}  // namespace logical_not

/// LOGICAL_NOT in the operation table.
struct LogicalNot : OperationDescriptor<OperationType::LOGICAL_NOT> {
  static constexpr OperationInfo info{OperationType::LOGICAL_NOT,
                                      "LOGICAL_NOT",
                                      HalVersion::V1_2,
                                      boolean_ops::kUnaryInputs,
                                      boolean_ops::kOutputs,
                                      logical_not::kSignatures,
                                      nullptr,
                                      &logical_not::kImpl};
};

}  // namespace nnhal::ops
