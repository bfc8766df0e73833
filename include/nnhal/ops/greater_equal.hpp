#pragma once
/// \file
/// GREATER_EQUAL (54): elementwise `a >= b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace greater_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::GreaterEqual>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace greater_equal

/// GREATER_EQUAL in the operation table.
struct GreaterEqual : OperationDescriptor<OperationType::GREATER_EQUAL> {
  static constexpr OperationInfo info{OperationType::GREATER_EQUAL,
                                      "GREATER_EQUAL",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      greater_equal::kSignatures,
                                      nullptr,
                                      &greater_equal::kImpl};
};

}  // namespace nnhal::ops
