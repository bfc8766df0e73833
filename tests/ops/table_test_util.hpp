#pragma once
/// \file
/// Helpers for the operation-table tests: the lowest signature version of a table row that
/// accepts a list of operand types, and a hand-built one-operation model to run a row's
/// signature match plus its validate function on (what model validation concludes for it).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::test {

/// `n` copies of `t`.
inline std::vector<OperandType> repeat(OperandType t, std::size_t n) { return std::vector<OperandType>(n, t); }

/// The concatenation of type lists: `concat({{T, T}, repeat(INT32, 6), {BOOL}})`.
inline std::vector<OperandType> concat(std::initializer_list<std::vector<OperandType>> parts) {
  std::vector<OperandType> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

/// True when `seq` accepts exactly these operand types (count, repeat position, per-position type).
inline bool type_seq_accepts(const TypeSeq& seq, const std::vector<OperandType>& types) {
  if (!seq.accepts_count(types.size())) return false;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const std::uint8_t c = seq.code_at(i, types.size());
    if (c != kAnyTypeCode && static_cast<std::int32_t>(c) != static_cast<std::int32_t>(types[i]))
      return false;
  }
  return true;
}

/// Lowest version among the signatures of `info` accepting these input and output types, or
/// nullopt when none does.
inline std::optional<HalVersion> lowest_version(const OperationInfo& info,
                                                const std::vector<OperandType>& ins,
                                                const std::vector<OperandType>& outs) {
  std::optional<HalVersion> best;
  for (const Signature& s : info.signatures)
    if (type_seq_accepts(s.inputs, ins) && type_seq_accepts(s.outputs, outs) &&
        (!best || s.version < *best))
      best = s.version;
  return best;
}

/// Same, looking the row up with nnhal::find_operation.
inline std::optional<HalVersion> lowest_version(OperationType op, const std::vector<OperandType>& ins,
                                                const std::vector<OperandType>& outs) {
  const OperationInfo* info = find_operation(op);
  if (info == nullptr) return std::nullopt;
  return lowest_version(*info, ins, outs);
}

/// A model with one operation, built operand by operand. in()/out() return the new operand so
/// a test can set its scale, zeroPoint, lifetime or channelQuant; the reference stays valid
/// until the next in()/out() call.
class OneOpModel {
 public:
  explicit OneOpModel(OperationType type) { model_.main.operations.push_back(Operation{type, {}, {}}); }

  Operand& in(OperandType type, std::vector<std::uint32_t> dims = {}) {
    operation().inputs.push_back(add(type, std::move(dims)));
    return model_.main.operands.back();
  }
  Operand& out(OperandType type, std::vector<std::uint32_t> dims = {}) {
    operation().outputs.push_back(add(type, std::move(dims)));
    return model_.main.operands.back();
  }
  /// Adds one input per type, without dimensions (scalars, or tensors of unknown rank).
  void ins(const std::vector<OperandType>& types) {
    for (OperandType t : types) in(t);
  }
  void outs(const std::vector<OperandType>& types) {
    for (OperandType t : types) out(t);
  }
  /// Input `i` of the operation.
  Operand& input(std::size_t i) { return model_.main.operands[operation().inputs[i]]; }
  Operand& output(std::size_t i) { return model_.main.operands[operation().outputs[i]]; }

  OperationView view() const { return OperationView{model_, model_.main, model_.main.operations[0]}; }

  /// The version model validation gives this operation: the lowest matching signature, then the
  /// row's validate function; INVALID_ARGUMENT when no signature matches or validate rejects.
  Expected<HalVersion> check() const {
    const OperationInfo* info = find_operation(model_.main.operations[0].type);
    if (info == nullptr) return NNHAL_INVALID("unknown operation");
    std::vector<OperandType> ins, outs;
    for (std::uint32_t i : model_.main.operations[0].inputs) ins.push_back(model_.main.operands[i].type);
    for (std::uint32_t i : model_.main.operations[0].outputs) outs.push_back(model_.main.operands[i].type);
    std::optional<HalVersion> v = lowest_version(*info, ins, outs);
    if (!v) return NNHAL_INVALID("no signature matches");
    HalVersion version = *v;
    if (info->validate != nullptr) {
      if (auto s = info->validate(view(), version); !s) return std::move(s.error());
    }
    return version;
  }

 private:
  Operation& operation() { return model_.main.operations[0]; }
  std::uint32_t add(OperandType type, std::vector<std::uint32_t> dims) {
    Operand op;
    op.type = type;
    op.dimensions.assign(dims.begin(), dims.end());
    model_.main.operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }

  Model model_;
};

}  // namespace nnhal::test
