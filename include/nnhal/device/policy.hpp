#pragma once
/// \file
/// SupportPolicy: how a driver narrows what its device accepts below what nnhal can run. The
/// supported-operations query and prepare both honour it: an operation the policy refuses is
/// reported unsupported (and so is an IF or WHILE whose subgraphs hold one), and a model with
/// such an operation anywhere is not prepared.

#include <bitset>
#include <cstdint>
#include <functional>

#include "nnhal/core/enums.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/operand.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal {

/// What a device supports, beyond having a kernel. Default: everything nnhal runs.
struct SupportPolicy {
  static constexpr std::size_t kOperationCount = 102;  ///< HAL 1.3 codes 0..101
  static constexpr std::size_t kOperandTypeCount = 16;  ///< HAL 1.3 codes 0..15

  /// Operations the device takes, by code (IF and WHILE included).
  std::bitset<kOperationCount> operations = std::bitset<kOperationCount>().set();
  /// Whether the device takes the operations and operand types of the extensions its kernel
  /// set registers (codes above 0xFFFF).
  bool extension_operations = true;
  /// Operand types the device takes: an operation with any input or output of a type outside
  /// this set is unsupported.
  std::bitset<kOperandTypeCount> operand_types = std::bitset<kOperandTypeCount>().set();
  /// Refines support by an operation's parameters, e.g. filter sizes; empty = no refinement.
  std::function<bool(const OperationView&)> predicate;
  /// Largest number of bytes one operation may touch (the sizes of its inputs and outputs, as
  /// far as known when asked); 0 = no limit. Prepare also refuses a model whose execution
  /// memory (PreparedModel::execution_bytes: the arena, outputs of referenced subgraphs and
  /// WHILE buffers of known size) exceeds it.
  std::uint64_t memory_limit = 0;

  /// Removes one operation / operand type. Codes outside the HAL 1.3 tables (OEM, extension or
  /// unknown codes, which these sets do not hold) change nothing: std::bitset::reset would
  /// throw for them (extensions are governed by `extension_operations`).
  SupportPolicy& exclude(OperationType t) {
    const auto code = static_cast<std::uint32_t>(t);
    if (code < kOperationCount) operations.reset(code);
    return *this;
  }
  SupportPolicy& exclude(OperandType t) {
    const auto code = static_cast<std::uint32_t>(t);
    if (code < kOperandTypeCount) operand_types.reset(code);
    return *this;
  }

  /// Whether the policy lets the device run `op` of subgraph `sg` (kernels aside).
  bool allows(const Model& model, const Subgraph& sg, const Operation& op) const {
    const auto code = static_cast<std::size_t>(op.type);
    if (is_extension(op.type)) {
      if (!extension_operations) return false;
    } else if (code >= kOperationCount || !operations.test(code)) {
      return false;
    }
    std::uint64_t bytes = 0;
    for (const auto* list : {&op.inputs, &op.outputs})
      for (std::uint32_t index : *list) {
        const Operand& operand = sg.operands[index];
        const auto type = static_cast<std::size_t>(operand.type);
        if (is_extension(operand.type)) {
          if (!extension_operations) return false;
        } else if (type >= kOperandTypeCount || !operand_types.test(type)) {
          return false;
        }
        const auto size = operand_byte_size(operand);  // 0 when not fully known
        bytes += size ? *size : 0;
      }
    if (memory_limit != 0 && bytes > memory_limit) return false;
    return !predicate || predicate(OperationView{model, sg, op});
  }
};

}  // namespace nnhal
