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

/// cond(i, limit, ...) = i < limit. `extra` read-only inputs follow.
inline GraphBuilder less_condition(ModelBuilder& b, int extra_carried = 0) {
  GraphBuilder g = b.add_subgraph();
  const auto i = g.input<kI32>(one_element());
  for (int k = 0; k < extra_carried; ++k) g.input<kI32>(one_element());
  const auto limit = g.input<kI32>(one_element());
  g.output(g.operation<OperationType::LESS, kBool>(one_element(), i, limit));
  return g;
}

/// body(i, limit) = i + step.
inline GraphBuilder add_body(ModelBuilder& b, std::int32_t step) {
  GraphBuilder g = b.add_subgraph();
  const auto i = g.input<kI32>(one_element());
  g.input<kI32>(one_element());  // limit, read-only
  const std::int32_t s[1] = {step};
  const auto c = g.constant<kI32>(s, one_element());
  const auto act = g.scalar<OperandType::INT32>(0);
  g.output(g.operation<OperationType::ADD, kI32>(one_element(), i, c, act));
  return g;
}

/// main(i0, limit) = WHILE(i < limit) i = i + 1.
inline Model while_counter_model() {
  ModelBuilder b;
  const GraphBuilder cond = less_condition(b);
  const GraphBuilder body = add_body(b, 1);
  const auto i0 = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  const std::uint32_t ins[] = {b.subgraph(cond).index, b.subgraph(body).index, i0.index, limit.index};
  b.output(b.control_flow(OperationType::WHILE, ins, {{kI32, one_element()}})[0]);
  return std::move(b).model();
}

/// main(c, x) = c ? x + 1 : x - 1.
inline Model if_model() {
  ModelBuilder b;
  GraphBuilder then_g = b.add_subgraph();
  GraphBuilder else_g = b.add_subgraph();
  const std::int32_t one[1] = {1};
  for (GraphBuilder* g : {&then_g, &else_g}) {
    const auto x = g->input<kI32>(one_element());
    const auto c1 = g->constant<kI32>(one, one_element());
    const auto act = g->scalar<OperandType::INT32>(0);
    if (g == &then_g) g->output(g->operation<OperationType::ADD, kI32>(one_element(), x, c1, act));
    else g->output(g->operation<OperationType::SUB, kI32>(one_element(), x, c1, act));
  }
  const auto c = b.input<kBool>(one_element());
  const auto x = b.input<kI32>(one_element());
  const std::uint32_t ins[] = {c.index, b.subgraph(then_g).index, b.subgraph(else_g).index, x.index};
  b.output(b.control_flow(OperationType::IF, ins, {{kI32, one_element()}})[0]);
  return std::move(b).model();
}

}  // namespace nnhal::test::cf
