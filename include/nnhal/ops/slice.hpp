#pragma once
/// \file
/// SLICE (86): extracts `size[i]` elements from `begin[i]` along every axis (-1 = to the end);
/// out q = in. Zero-sized inputs allowed.

#include <array>
#include <cstdint>
#include <cstring>

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace slice {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"begin", Role::Parameter, kSlotValueRead},  // TENSOR_INT32 [rank]
    {"size", Role::Parameter, kSlotValueRead},   // TENSOR_INT32 [rank]
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, TENSOR_INT32, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32}, {t});
  });

}  // namespace slice

}  // namespace nnhal::ops

namespace nnhal {

/// SLICE in the operation table.
template <>
struct Row<OperationType::SLICE> {
  static constexpr OperationInfo info = make_row(OperationType::SLICE, {
      .inputs = ops::slice::kInputs,
      .outputs = ops::slice::kOutputs,
      .signatures = ops::slice::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
