#pragma once
/// \file
/// WHILE (97): runs the body subgraph while the condition subgraph yields true, carrying
/// input-output and state operands between iterations. The layout is variable (HAL13.md d.3);
/// validation lives in nnhal/control/validate.hpp.

#include "nnhal/interface/operation_info.hpp"
#include "nnhal/control/validate.hpp"

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

}  // namespace nnhal::ops

namespace nnhal {

/// WHILE in the operation table.
template <>
struct Row<OperationType::WHILE> {
  static constexpr OperationInfo info = make_row(OperationType::WHILE, {
      .inputs = ops::while_op::kInputs,
      .outputs = ops::while_op::kOutputs,
      .signatures = ops::while_op::kSignatures,
      .validate = &validate_while_operation,
      .flags = kOpControlFlow,
  });
};

}  // namespace nnhal
