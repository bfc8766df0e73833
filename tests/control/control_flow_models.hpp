#pragma once
// Small IF / WHILE models for the control-flow tests and benchmarks, built with the typed
// GraphBuilder. Counters are TENSOR_INT32 [1].

#include <cstdint>
#include <vector>

#include "nnhal/builder/builder.hpp"

namespace nnhal::test::cf {

inline constexpr auto kI32 = OperandType::TENSOR_INT32;
inline constexpr auto kBool = OperandType::TENSOR_BOOL8;

inline OperandSpec one_element() { return {{1}}; }

/// cond(i, limit) = i < limit, tagged Tag.
template <class Tag>
auto less_condition(ModelBuilder& b) {
  auto g = b.add_subgraph<Tag, kI32, kI32>(one_element(), one_element());
  const auto [i, limit] = g.inputs();
  return g.returns(g.template operation<OperationType::LESS, kBool>(one_element(), i, limit));
}

/// body(i, limit) = i + step, tagged Tag (limit is read-only).
template <class Tag>
auto add_body(ModelBuilder& b, std::int32_t step) {
  auto g = b.add_subgraph<Tag, kI32, kI32>(one_element(), one_element());
  const auto i = g.template input<0>();
  const std::int32_t s[1] = {step};
  const auto c = g.template constant<kI32>(s, one_element());
  const auto act = g.template scalar<OperandType::INT32>(0);
  return g.returns(g.template operation<OperationType::ADD, kI32>(one_element(), i, c, act));
}

/// The handles of while_counter's inputs and output.
struct WhileCounter {
  OperandRef<kI32> i0, limit, i;
};

/// main(i0, limit) = WHILE(i < limit) i = i + 1, built by `b`.
inline WhileCounter while_counter(ModelBuilder& b) {
  const auto cond = less_condition<struct Cond>(b);
  const auto body = add_body<struct Body>(b, 1);
  WhileCounter m;
  m.i0 = b.input<kI32>(one_element());
  m.limit = b.input<kI32>(one_element());
  const auto [i] = b.while_(cond, body, m.i0, m.limit);
  m.i = i;
  b.output(i);
  return m;
}

/// main(i0, limit) = WHILE(i < limit) i = i + 1.
inline Model while_counter_model() {
  ModelBuilder b;
  (void)while_counter(b);
  return std::move(b).model();
}

/// A tag for the K-th subgraph made by a helper called with tag Tag.
template <class Tag, int K>
struct Part;

/// A subgraph (x) -> x + step, tagged Tag.
template <class Tag>
auto plus_graph(ModelBuilder& b, std::int32_t step) {
  auto g = b.add_subgraph<Tag, kI32>(one_element());
  const std::int32_t s[1] = {step};
  return g.returns(g.template operation<OperationType::ADD, kI32>(one_element(), g.template input<0>(),
                                                                  g.template constant<kI32>(s, one_element()),
                                                                  g.template scalar<OperandType::INT32>(0)));
}

/// A branch (x) -> x + 1 (Op = ADD) or x - 1 (Op = SUB), tagged Tag.
template <class Tag, OperationType Op>
auto step_branch(ModelBuilder& b) {
  auto g = b.add_subgraph<Tag, kI32>(one_element());
  const std::int32_t one[1] = {1};
  const auto c1 = g.template constant<kI32>(one, one_element());
  const auto act = g.template scalar<OperandType::INT32>(0);
  return g.returns(g.template operation<Op, kI32>(one_element(), g.template input<0>(), c1, act));
}

/// main(c, x) = c ? x + 1 : x - 1.
inline Model if_model() {
  ModelBuilder b;
  const auto then_g = step_branch<struct Then, OperationType::ADD>(b);
  const auto else_g = step_branch<struct Else, OperationType::SUB>(b);
  const auto c = b.input<kBool>(one_element());
  const auto x = b.input<kI32>(one_element());
  const auto [y] = b.if_(c, then_g, else_g, x);
  b.output(y);
  return std::move(b).model();
}

}  // namespace nnhal::test::cf
