#pragma once
/// \file
/// SELECT (84): elementwise `condition ? input1 : input2`; the three inputs must have identical
/// shapes (no broadcasting, checked at execution).

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace select {
inline constexpr std::array<Slot, 3> kInputs{{
    {"condition", Role::Condition},
    {"input1", Role::Data},
    {"input2", Role::Data},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {TENSOR_BOOL8, T, T} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {OperandType::TENSOR_BOOL8, t, t}, {t});
  });
}  // namespace select

}  // namespace nnhal::ops

namespace nnhal {

/// SELECT in the operation table.
template <>
struct Row<OperationType::SELECT> {
  static constexpr OperationInfo info = make_row(OperationType::SELECT, {
      .inputs = ops::select::kInputs,
      .outputs = ops::select::kOutputs,
      .signatures = ops::select::kSignatures,
  });
};

}  // namespace nnhal
