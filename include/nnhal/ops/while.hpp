#pragma once
/// \file
/// WHILE (97): runs the body subgraph while the condition subgraph yields true, carrying
/// input-output and state operands between iterations. The layout is variable (HAL13.md d.3);
/// validation lives in nnhal/validate/control_flow.hpp.

#include "nnhal/ops/operation_info.hpp"
#include "nnhal/validate/control_flow.hpp"

namespace nnhal::ops {

namespace while_op {
inline constexpr std::array<Slot, 3> kInputs{{
    {"condition", Role::Subgraph},
    {"body", Role::Subgraph},
    {"inputs", Role::Data, kSlotRepeated},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"outputs", Role::Data, kSlotRepeated}}};
/// Documents the layout; data operands may have any type compatible with the subgraphs.
inline constexpr std::array<Signature, 1> kSignatures{{
    sig(HalVersion::V1_3, TypeSeq({OperandType::SUBGRAPH, OperandType::SUBGRAPH}), TypeSeq{}),
}};
}  // namespace while_op

/// WHILE in the operation table.
struct While : OperationDescriptor<OperationType::WHILE> {
  static constexpr OperationInfo info{OperationType::WHILE, "WHILE", HalVersion::V1_3,
                                      while_op::kInputs,    while_op::kOutputs, while_op::kSignatures,
                                      &validate_while_operation, &kControlFlowImpl, kOpControlFlow};
};

}  // namespace nnhal::ops
