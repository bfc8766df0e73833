#pragma once
/// \file
/// IF (96): runs the then or else subgraph on its data inputs, chosen by a TENSOR_BOOL8 [1].
/// The layout is variable (HAL13.md d.2); validation lives in nnhal/control/validate.hpp.

#include "nnhal/interface/operation_info.hpp"
#include "nnhal/control/validate.hpp"

namespace nnhal::ops {

namespace if_op {
inline constexpr std::array<Slot, 4> kInputs{{
    {"condition", Role::Condition},
    {"then_branch", Role::Subgraph},
    {"else_branch", Role::Subgraph},
    {"inputs", Role::Data, kSlotRepeated},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"outputs", Role::Data, kSlotRepeated}}};
/// Documents the layout; data operands may have any type compatible with the branches.
inline constexpr std::array<Signature, 1> kSignatures{{
    sig(HalVersion::V1_3,
        TypeSeq({OperandType::TENSOR_BOOL8, OperandType::SUBGRAPH, OperandType::SUBGRAPH}),
        TypeSeq{}),
}};
}  // namespace if_op

}  // namespace nnhal::ops

namespace nnhal {

/// IF in the operation table.
template <>
struct Row<OperationType::IF> {
  static constexpr OperationInfo info = make_row(OperationType::IF, {
      .inputs = ops::if_op::kInputs,
      .outputs = ops::if_op::kOutputs,
      .signatures = ops::if_op::kSignatures,
      .validate = &validate_if_operation,
      .flags = kOpControlFlow,
  });
};

}  // namespace nnhal
