#pragma once
/// \file
/// LESS (58): elementwise `a < b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace less {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  return boolean_ops::select_comparison<boolean_ops::Less>(io);
}

inline constexpr OpImpl kImpl{&boolean_ops::infer_broadcast, &select};
}  // namespace less

/// LESS in the operation table.
struct Less : OperationDescriptor<OperationType::LESS> {
  static constexpr OperationInfo info{OperationType::LESS,
                                      "LESS",
                                      HalVersion::V1_2,
                                      boolean_ops::kBinaryInputs,
                                      boolean_ops::kOutputs,
                                      less::kSignatures,
                                      nullptr,
                                      &less::kImpl};
};

}  // namespace nnhal::ops
