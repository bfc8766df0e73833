#pragma once
/// \file
/// LESS_EQUAL (59): elementwise `a <= b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace less_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::LessEqual>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace less_equal

/// LESS_EQUAL in the operation table.
struct LessEqual : OperationDescriptor<OperationType::LESS_EQUAL> {
  static constexpr OperationInfo info{OperationType::LESS_EQUAL,
                                      "LESS_EQUAL",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      less_equal::kSignatures,
                                      nullptr,
                                      &less_equal::kImpl};
};

}  // namespace nnhal::ops
