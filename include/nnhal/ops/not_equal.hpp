#pragma once
/// \file
/// NOT_EQUAL (68): elementwise `a != b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace not_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::NotEqual>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace not_equal

/// NOT_EQUAL in the operation table.
struct NotEqual : OperationDescriptor<OperationType::NOT_EQUAL> {
  static constexpr OperationInfo info{OperationType::NOT_EQUAL,
                                      "NOT_EQUAL",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      not_equal::kSignatures,
                                      nullptr,
                                      &not_equal::kImpl};
};

}  // namespace nnhal::ops
