#pragma once
// A one-operation model for the malformed-operation suites: tensors are request inputs, scalars
// constants, outputs of unknown shape; and the two checks they make of it (it prepares, or it
// validates and then fails to prepare with a message naming the operation).

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed {

/// Builds a model of one operation: tensor() and runtime_int() add a request input, scalar() /
/// ints() / f32() / flag() / flag_byte() a constant input, omitted() an omitted optional input,
/// output() an output of unknown shape, in the operation's order.
class OneOp {
 public:
  explicit OneOp(OperationType type) : type_(type) {}
  OneOp& tensor(OperandType t, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f, std::int32_t zp = 0) {
    Operand op = make_operand(t, std::move(dims), kInput);
    op.scale = scale;
    op.zeroPoint = zp;
    const std::uint32_t i = add(op);
    inputs_.push_back(i);
    model_.main.inputIndexes.push_back(i);
    return *this;
  }
  /// An omitted optional input (lifetime NO_VALUE) of type t.
  OneOp& omitted(OperandType t, nnhal::Vector<std::uint32_t> dims = {}, float scale = 0.0f) {
    Operand op = make_operand(t, std::move(dims), OperandLifeTime::NO_VALUE);
    op.scale = scale;
    inputs_.push_back(add(op));
    return *this;
  }
  template <OperandType T>
  OneOp& scalar(element_t<T> v) {
    auto& bytes = model_.operandValues;  // keep each constant aligned to its size
    bytes.resize((bytes.size() + sizeof v - 1) / sizeof v * sizeof v);
    const std::uint32_t at = append_value(model_, v);
    inputs_.push_back(add(copy_constant(T, {}, at, sizeof v)));
    return *this;
  }
  OneOp& ints(std::initializer_list<std::int32_t> values) {
    for (std::int32_t v : values) scalar<OperandType::INT32>(v);
    return *this;
  }
  OneOp& f32(float v) { return scalar<OperandType::FLOAT32>(v); }
  OneOp& flag(bool v) { return scalar<OperandType::BOOL>(v ? 1 : 0); }
  /// A BOOL constant holding byte `v` as it is (0 false, 1 true; anything else is outside the
  /// set validation accepts).
  OneOp& flag_byte(std::uint8_t v) { return scalar<OperandType::BOOL>(v); }
  /// A runtime INT32 scalar: a model input, whose value validation cannot see.
  OneOp& runtime_int() {
    const std::uint32_t i = add(make_operand(OperandType::INT32, {}, kInput));
    inputs_.push_back(i);
    model_.main.inputIndexes.push_back(i);
    return *this;
  }
  OneOp& output(OperandType t, float scale = 0.0f, std::int32_t zp = 0) {
    Operand op = make_operand(t, {}, kOutput);
    op.scale = scale;
    op.zeroPoint = zp;
    outputs_.push_back(op);
    return *this;
  }

  /// Operand index of input `i` of the operation.
  std::uint32_t operand_of(std::size_t i) const { return inputs_.at(i); }

  Model model() const {
    Model m = model_;
    nnhal::Vector<std::uint32_t> outs;
    for (const Operand& op : outputs_) {
      outs.push_back(static_cast<std::uint32_t>(m.main.operands.size()));
      m.main.operands.push_back(op);
      m.main.outputIndexes.push_back(outs.back());
    }
    m.main.operations.push_back(Operation{type_, inputs_, outs});
    fix_consumers(m);
    return m;
  }

 private:
  std::uint32_t add(const Operand& op) {
    model_.main.operands.push_back(op);
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }
  OperationType type_;
  Model model_;
  nnhal::Vector<std::uint32_t> inputs_;
  std::vector<Operand> outputs_;
};

inline void check_prepares(const OneOp& op) {
  const Model m = op.model();
  REQUIRE(validate_model(m).has_value());
  auto p = PreparedModel::prepare(m);
  INFO("error: " << (p ? std::string("none") : std::string(p.error().message())));
  CHECK(p.has_value());
}

/// Validates, then fails to prepare with a message naming `name` and containing `fact`.
inline void check_refused(const OneOp& op, const char* name, const char* fact) {
  INFO("operation ", std::string(name), ", expected fragment: ", std::string(fact));
  const Model m = op.model();
  REQUIRE(validate_model(m).has_value());
  auto p = PreparedModel::prepare(m);
  REQUIRE_FALSE(p.has_value());
  const std::string msg(p.error().message());
  CAPTURE(msg);
  CHECK(msg.find(name) != std::string::npos);
  CHECK(msg.find(fact) != std::string::npos);
}

}  // namespace nnhal::test::malformed
