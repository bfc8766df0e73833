#pragma once
/// \file
/// Validation of IF and WHILE layouts (HAL13.md d.2-d.4). Referenced subgraphs may not have
/// been validated yet when these run, so every index into them is bounds-checked here.

#include <cstdint>
#include <span>

#include "nnhal/core/format.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/model/operand_size.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal {

namespace detail {

/// `compatible(a, b)` of HAL13.md d.4: same type, scale, zeroPoint and extra parameters; equal
/// ranks and equal dimensions (0 = unknown matches anything) when both ranks are known.
inline bool operands_compatible(const Operand& a, const Operand& b) noexcept {
  if (a.type != b.type || a.scale != b.scale || a.zeroPoint != b.zeroPoint) return false;
  if (a.channelQuant.has_value() != b.channelQuant.has_value()) return false;
  if (a.channelQuant && (a.channelQuant->channelDim != b.channelQuant->channelDim ||
                         a.channelQuant->scales != b.channelQuant->scales))
    return false;
  if (a.dimensions.empty() || b.dimensions.empty()) return true;
  if (a.dimensions.size() != b.dimensions.size()) return false;
  for (std::size_t i = 0; i < a.dimensions.size(); ++i)
    if (a.dimensions[i] != 0 && b.dimensions[i] != 0 && a.dimensions[i] != b.dimensions[i]) return false;
  return true;
}

/// The subgraph a SUBGRAPH operand names, or an error.
inline Expected<const Subgraph*> referenced_subgraph(const OperationView& op, std::size_t input,
                                                     const char* role) {
  const Operand& ref = op.input(input);
  if (ref.type != OperandType::SUBGRAPH || ref.lifetime != OperandLifeTime::SUBGRAPH)
    return NNHAL_INVALID("input %zu (%s) must be a SUBGRAPH operand", input, role);
  if (ref.location.offset >= op.model.referenced.size())
    return NNHAL_INVALID("input %zu (%s) refers to subgraph %" PRIu32 " of %zu", input, role,
                         ref.location.offset, op.model.referenced.size());
  return &op.model.referenced[ref.location.offset];
}

/// Operand `list[i]` of subgraph `sg`, or nullptr when the index is out of range.
inline const Operand* io_operand(const Subgraph& sg, std::span<const std::uint32_t> list,
                                 std::size_t i) noexcept {
  if (i >= list.size() || list[i] >= sg.operands.size()) return nullptr;
  return &sg.operands[list[i]];
}

/// Checks `compatible(sub operand list[i], outer)`; names both in the error.
inline Status check_compatible(const Subgraph& sg, std::span<const std::uint32_t> list,
                               std::size_t i, const Operand& outer, const char* sub_role,
                               const char* outer_role, std::size_t outer_index) {
  const Operand* inner = io_operand(sg, list, i);
  if (inner == nullptr) return NNHAL_INVALID("%s %zu is not a valid operand index", sub_role, i);
  if (!operands_compatible(*inner, outer))
    return NNHAL_INVALID("%s %zu is not compatible with %s %zu (type, shape or quantization differ)",
                         sub_role, i, outer_role, outer_index);
  return {};
}

/// False when the operand's data size is known and non-zero; otherwise true, with the reason
/// ("unknown rank", "dimension 1 is 0") in `why`.
inline bool unknown_size_reason(const Operand& op, char* why, std::size_t size) noexcept {
  auto s = operand_byte_size(op);
  if (s && *s != 0) return false;
  if (is_tensor(op.type) && op.dimensions.empty()) {
    nnhal::format(why, size, "unknown rank");
    return true;
  }
  for (std::size_t d = 0; d < op.dimensions.size(); ++d)
    if (op.dimensions[d] == 0) {
      nnhal::format(why, size, "dimension %zu is 0", d);
      return true;
    }
  nnhal::format(why, size, "no data size");
  return true;
}

inline Expected<HalVersion> validate_if(const OperationView& op) {
  if (op.input_count() < 3 || op.output_count() < 1)
    return NNHAL_INVALID("IF needs at least 3 inputs and 1 output, got %zu and %zu", op.input_count(),
                         op.output_count());
  const Operand& cond = op.input(0);
  if (cond.type != OperandType::TENSOR_BOOL8 || cond.dimensions.size() != 1 || cond.dimensions[0] != 1)
    return NNHAL_INVALID("input 0 (condition) must be TENSOR_BOOL8 of shape [1]");
  const char* roles[2] = {"then branch", "else branch"};
  for (std::size_t b = 1; b <= 2; ++b) {
    auto branch = referenced_subgraph(op, b, roles[b - 1]);
    if (!branch) return std::move(branch.error());
    const Subgraph& sg = **branch;
    if (op.input_count() != 3 + sg.inputIndexes.size())
      return NNHAL_INVALID("%s has %zu inputs but IF passes %zu", roles[b - 1], sg.inputIndexes.size(),
                           op.input_count() - 3);
    if (op.output_count() != sg.outputIndexes.size())
      return NNHAL_INVALID("%s has %zu outputs but IF has %zu", roles[b - 1], sg.outputIndexes.size(),
                           op.output_count());
    for (std::size_t i = 0; i < sg.inputIndexes.size(); ++i)
      NNHAL_TRY(check_compatible(sg, sg.inputIndexes, i, op.input(3 + i), roles[b - 1] /*input*/, "IF input", 3 + i));
    for (std::size_t i = 0; i < sg.outputIndexes.size(); ++i)
      NNHAL_TRY(check_compatible(sg, sg.outputIndexes, i, op.output(i), roles[b - 1], "IF output", i));
  }
  return HalVersion::V1_3;
}

inline Expected<HalVersion> validate_while(const OperationView& op, bool allow_runtime_only) {
  if (op.input_count() < 3 || op.output_count() < 1)
    return NNHAL_INVALID("WHILE needs at least 3 inputs and 1 output, got %zu and %zu",
                         op.input_count(), op.output_count());
  auto cond_ref = referenced_subgraph(op, 0, "condition");
  if (!cond_ref) return std::move(cond_ref.error());
  auto body_ref = referenced_subgraph(op, 1, "body");
  if (!body_ref) return std::move(body_ref.error());
  const Subgraph& cond = **cond_ref;
  const Subgraph& body = **body_ref;
  const std::size_t m = op.output_count();
  const std::size_t data_inputs = op.input_count() - 2;

  if (cond.inputIndexes.size() != data_inputs)
    return NNHAL_INVALID("condition has %zu inputs but WHILE passes %zu", cond.inputIndexes.size(), data_inputs);
  if (cond.outputIndexes.size() != 1)
    return NNHAL_INVALID("condition must have exactly 1 output, has %zu", cond.outputIndexes.size());
  const Operand* cond_out = io_operand(cond, cond.outputIndexes, 0);
  if (cond_out == nullptr) return NNHAL_INVALID("condition output is not a valid operand index");
  if (cond_out->type != OperandType::TENSOR_BOOL8 || cond_out->dimensions.size() != 1 ||
      cond_out->dimensions[0] != 1)
    return NNHAL_INVALID("condition output must be TENSOR_BOOL8 of shape [1]");
  if (body.inputIndexes.size() != data_inputs)
    return NNHAL_INVALID("body has %zu inputs but WHILE passes %zu", body.inputIndexes.size(), data_inputs);
  if (body.outputIndexes.size() < m)
    return NNHAL_INVALID("body has %zu outputs, fewer than the %zu WHILE outputs", body.outputIndexes.size(), m);
  if (body.inputIndexes.size() < body.outputIndexes.size())
    return NNHAL_INVALID("body has more outputs (%zu) than inputs (%zu)", body.outputIndexes.size(),
                         body.inputIndexes.size());
  const std::size_t carried = body.outputIndexes.size();  // m + k
  for (std::size_t i = 0; i < data_inputs; ++i) {
    NNHAL_TRY(check_compatible(cond, cond.inputIndexes, i, op.input(2 + i), "condition input", "WHILE input", 2 + i));
    NNHAL_TRY(check_compatible(body, body.inputIndexes, i, op.input(2 + i), "body input", "WHILE input", 2 + i));
  }
  for (std::size_t i = 0; i < m; ++i)
    NNHAL_TRY(check_compatible(body, body.outputIndexes, i, op.output(i), "body output", "WHILE output", i));
  for (std::size_t i = 0; i < carried; ++i) {
    const Operand* in = io_operand(body, body.inputIndexes, i);
    if (in == nullptr) return NNHAL_INVALID("body input %zu is not a valid operand index", i);
    NNHAL_TRY(check_compatible(body, body.outputIndexes, i, *in, "body output", "body input", i));
  }
  if (!allow_runtime_only) {
    // HAL 1.3 driver mode (d.4 rule 4): every operand crossing the WHILE boundary must have a
    // known, non-zero size. The message names the WHILE's own operand or the condition's or
    // body's, with the subgraph and the operand index.
    const std::uint32_t cond_graph = op.input(0).location.offset;
    const std::uint32_t body_graph = op.input(1).location.offset;
    char why[48];
    for (std::size_t i = 0; i < data_inputs; ++i) {
      if (unknown_size_reason(op.input(2 + i), why, sizeof why))
        return NNHAL_INVALID("WHILE input %zu (operand %" PRIu32
                             ") has an unknown size (%s); HAL 1.3 drivers refuse it "
                             "(runtime-only)",
                             2 + i, op.operation.inputs[2 + i], why);
      if (unknown_size_reason(*io_operand(cond, cond.inputIndexes, i), why, sizeof why))
        return NNHAL_INVALID("condition referenced[%" PRIu32 "] input %zu (operand %" PRIu32
                             ") has an unknown size (%s); HAL 1.3 "
                             "drivers refuse it (runtime-only)",
                             cond_graph, i, cond.inputIndexes[i], why);
      if (unknown_size_reason(*io_operand(body, body.inputIndexes, i), why, sizeof why))
        return NNHAL_INVALID("body referenced[%" PRIu32 "] input %zu (operand %" PRIu32
                             ") has an unknown size (%s); HAL 1.3 drivers "
                             "refuse it (runtime-only)",
                             body_graph, i, body.inputIndexes[i], why);
    }
    for (std::size_t i = 0; i < m; ++i)
      if (unknown_size_reason(op.output(i), why, sizeof why))
        return NNHAL_INVALID("WHILE output %zu (operand %" PRIu32
                             ") has an unknown size (%s); HAL 1.3 drivers refuse it "
                             "(runtime-only)",
                             i, op.operation.outputs[i], why);
    for (std::size_t i = 0; i < carried; ++i)
      if (unknown_size_reason(*io_operand(body, body.outputIndexes, i), why, sizeof why))
        return NNHAL_INVALID("body referenced[%" PRIu32 "] output %zu (operand %" PRIu32
                             ") has an unknown size (%s); HAL 1.3 "
                             "drivers refuse it (runtime-only)",
                             body_graph, i, body.outputIndexes[i], why);
  }
  return HalVersion::V1_3;
}

}  // namespace detail

/// IF's checks beyond the table (its layout is variable): HAL13.md d.2, d.4.
inline Status validate_if_operation(const OperationView& op, HalVersion& version) {
  auto v = detail::validate_if(op);
  if (!v) return std::move(v.error());
  version = *v;
  return {};
}

/// WHILE's checks beyond the table: HAL13.md d.3, d.4.
inline Status validate_while_operation(const OperationView& op, HalVersion& version) {
  auto v = detail::validate_while(op, op.allow_runtime_only);
  if (!v) return std::move(v.error());
  version = *v;
  return {};
}

}  // namespace nnhal
