#pragma once
/// \file
/// OperationView: what an operation's own validation sees of one operation in a model. The
/// structural checks (indexes in range, lifetimes, locations) have already passed when an
/// operation's validate function runs, so every accessor here is in bounds.

#include <cstdint>
#include <cstring>
#include <optional>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// Read access to one operation and its operands during validation.
struct OperationView {
  const Model& model;
  const Subgraph& subgraph;
  const Operation& operation;
  /// Accept runtime-only features (WHILE operands of unknown size); see ValidationOptions.
  bool allow_runtime_only = false;

  std::size_t input_count() const noexcept { return operation.inputs.size(); }
  std::size_t output_count() const noexcept { return operation.outputs.size(); }
  const Operand& input(std::size_t i) const noexcept {
    return subgraph.operands[operation.inputs[i]];
  }
  const Operand& output(std::size_t i) const noexcept {
    return subgraph.operands[operation.outputs[i]];
  }
  /// Rank of input i when known (dimensions declared), nullopt for unknown rank.
  std::optional<std::size_t> input_rank(std::size_t i) const noexcept {
    const Operand& op = input(i);
    if (op.dimensions.empty()) return std::nullopt;
    return op.dimensions.size();
  }

  /// Bytes of a constant operand (CONSTANT_COPY / CONSTANT_REFERENCE), or nullptr.
  const std::byte* constant_data(const Operand& op) const noexcept {
    if (op.lifetime == OperandLifeTime::CONSTANT_COPY)
      return reinterpret_cast<const std::byte*>(model.operandValues.data()) + op.location.offset;
    if (op.lifetime == OperandLifeTime::CONSTANT_REFERENCE)
      return model.pools[op.location.poolIndex].data + op.location.offset;
    return nullptr;
  }

  /// Value of constant scalar input i of type T, or nullopt when it is not a constant.
  template <OperandType T>
  std::optional<element_t<T>> constant_scalar(std::size_t i) const noexcept {
    const Operand& op = input(i);
    const std::byte* p = op.type == T ? constant_data(op) : nullptr;
    if (p == nullptr || op.location.length < sizeof(element_t<T>)) return std::nullopt;
    element_t<T> v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
};

/// An operation's checks beyond its signature table. `version` holds the version of the
/// matched signature; the function may raise it (e.g. a QUANT8 parameter rule that only
/// holds since 1.2) or return INVALID_ARGUMENT.
using ValidateFn = Status (*)(const OperationView& op, HalVersion& version);

}  // namespace nnhal
