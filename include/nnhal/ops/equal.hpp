#pragma once
/// \file
/// EQUAL (48): elementwise `a == b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::Equal>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace equal

/// EQUAL in the operation table.
struct Equal : OperationDescriptor<OperationType::EQUAL> {
  static constexpr OperationInfo info{OperationType::EQUAL,
                                      "EQUAL",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      equal::kSignatures,
                                      nullptr,
                                      &equal::kImpl};
};

}  // namespace nnhal::ops
