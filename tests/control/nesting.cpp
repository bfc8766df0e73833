// IF and WHILE nested in every combination, deep nesting, and loops whose carried tensors
// grow (unknown dimensions and unknown rank).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "../support/run_model.hpp"

using nnhal::GraphBuilder;
using nnhal::ModelBuilder;
using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;
using t::cf::kBool;
using t::cf::kI32;
using t::cf::one_element;

namespace {

/// A subgraph (x) -> x + step.
GraphBuilder step_graph(ModelBuilder& b, std::int32_t step) {
  GraphBuilder g = b.add_subgraph();
  const auto x = g.input<kI32>(one_element());
  const std::int32_t s[1] = {step};
  const auto c = g.constant<kI32>(s, one_element());
  g.output(g.operation<OperationType::ADD, kI32>(one_element(), x, c, g.scalar<OperandType::INT32>(0)));
  return g;
}

/// In `g`: IF (x < pivot) then x + a else x + b, on an existing operand x.
std::uint32_t emit_if_less(ModelBuilder& b, GraphBuilder& g, nnhal::OperandRef<kI32> x, std::int32_t pivot,
                           const GraphBuilder& then_g, const GraphBuilder& else_g) {
  const std::int32_t p[1] = {pivot};
  const auto pv = g.constant<kI32>(p, one_element());
  const auto cond = g.operation<OperationType::LESS, kBool>(one_element(), x, pv);
  const std::uint32_t ins[] = {cond.index, g.subgraph(then_g).index, g.subgraph(else_g).index, x.index};
  (void)b;
  return g.control_flow(OperationType::IF, ins, {{kI32, one_element()}})[0];
}

/// In `g`: WHILE (i < limit) i = body(i, limit), with the given condition and body graphs.
std::uint32_t emit_while(GraphBuilder& g, std::uint32_t i, std::uint32_t limit, const GraphBuilder& cond,
                         const GraphBuilder& body) {
  const std::uint32_t ins[] = {g.subgraph(cond).index, g.subgraph(body).index, i, limit};
  return g.control_flow(OperationType::WHILE, ins, {{kI32, one_element()}})[0];
}

std::int32_t run_i32(const nnhal::Model& model, std::vector<std::int32_t> inputs) {
  std::vector<t::Arg> args;
  for (std::int32_t v : inputs) args.push_back(t::arg_of(std::vector<std::int32_t>{v}));
  const auto r = t::run_model(model, args, {t::output_of(4)});
  REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
  CHECK(r.guards_intact);
  return r.output<std::int32_t>(0)[0];
}

}  // namespace

TEST_CASE("IF inside a WHILE body") {
  // while (i < limit) i = (i < 5) ? i + 1 : i + 2
  ModelBuilder b;
  const GraphBuilder cond = t::cf::less_condition(b);
  const GraphBuilder plus1 = step_graph(b, 1), plus2 = step_graph(b, 2);
  GraphBuilder body = b.add_subgraph();
  const auto i = body.input<kI32>(one_element());
  body.input<kI32>(one_element());
  body.output(emit_if_less(b, body, i, 5, plus1, plus2));
  const auto i0 = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(emit_while(b, i0.index, limit.index, cond, body));
  const nnhal::Model model = std::move(b).model();
  for (std::int32_t lim : {0, 3, 10, 101}) {
    std::int32_t want = 0;
    while (want < lim) want += want < 5 ? 1 : 2;
    CHECK(run_i32(model, {0, lim}) == want);
  }
}

TEST_CASE("WHILE inside an IF branch, and IF inside an IF branch") {
  // c ? (while (x < limit) x += 3) : ((x < 0) ? x + 100 : x - 100)
  ModelBuilder b;
  const GraphBuilder cond = t::cf::less_condition(b);
  const GraphBuilder body = t::cf::add_body(b, 3);
  GraphBuilder then_g = b.add_subgraph();
  {
    const auto x = then_g.input<kI32>(one_element());
    const auto limit = then_g.input<kI32>(one_element());
    then_g.output(emit_while(then_g, x.index, limit.index, cond, body));
  }
  const GraphBuilder plus100 = step_graph(b, 100), minus100 = step_graph(b, -100);
  GraphBuilder else_g = b.add_subgraph();
  {
    const auto x = else_g.input<kI32>(one_element());
    else_g.input<kI32>(one_element());
    else_g.output(emit_if_less(b, else_g, x, 0, plus100, minus100));
  }
  const auto c = b.input<kBool>(one_element());
  const auto x = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  const std::uint32_t ins[] = {c.index, b.subgraph(then_g).index, b.subgraph(else_g).index, x.index, limit.index};
  b.output(b.control_flow(OperationType::IF, ins, {{kI32, one_element()}})[0]);
  const nnhal::Model model = std::move(b).model();

  // The BOOL8 condition travels as the first byte of an int32 argument here.
  auto run = [&](bool cnd, std::int32_t xv, std::int32_t lim) {
    std::vector<t::Arg> args = {t::arg_of(std::vector<std::uint8_t>{cnd ? std::uint8_t{1} : std::uint8_t{0}}),
                                t::arg_of(std::vector<std::int32_t>{xv}), t::arg_of(std::vector<std::int32_t>{lim})};
    const auto r = t::run_model(model, args, {t::output_of(4)});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    return r.output<std::int32_t>(0)[0];
  };
  CHECK(run(true, 1, 11) == 13);
  CHECK(run(true, 20, 11) == 20);
  CHECK(run(false, -5, 0) == 95);
  CHECK(run(false, 5, 0) == -95);
}

TEST_CASE("WHILE inside a WHILE body") {
  // outer: while (j < m) { j = inner(j) } where inner counts j up by 1 while j < (j / 7 + 1) * 7
  // Simplified: the inner loop runs i from j to limit2 = j + 3 each outer step, so j grows by 3.
  ModelBuilder b;
  const GraphBuilder inner_cond = t::cf::less_condition(b);
  const GraphBuilder inner_body = t::cf::add_body(b, 1);
  const GraphBuilder outer_cond = t::cf::less_condition(b);
  GraphBuilder outer_body = b.add_subgraph();
  {
    const auto j = outer_body.input<kI32>(one_element());
    outer_body.input<kI32>(one_element());  // m
    const std::int32_t three[1] = {3};
    const auto c3 = outer_body.constant<kI32>(three, one_element());
    const auto target = outer_body.operation<OperationType::ADD, kI32>(one_element(), j, c3,
                                                                         outer_body.scalar<OperandType::INT32>(0));
    outer_body.output(emit_while(outer_body, j.index, target.index, inner_cond, inner_body));
  }
  const auto j0 = b.input<kI32>(one_element());
  const auto m = b.input<kI32>(one_element());
  b.output(emit_while(b, j0.index, m.index, outer_cond, outer_body));
  const nnhal::Model model = std::move(b).model();
  CHECK(run_i32(model, {0, 10}) == 12);
  CHECK(run_i32(model, {0, 0}) == 0);
  CHECK(run_i32(model, {1, 300}) == 301);
}

TEST_CASE("IF nested 100 deep runs; nesting beyond the supported depth is refused at prepare") {
  auto build = [](int depth) {
    ModelBuilder b;
    // Innermost: x + 1. Each level: IF(x < 1000) then <level below> else <level below>.
    GraphBuilder level = step_graph(b, 1);
    for (int d = 0; d < depth; ++d) {
      GraphBuilder up = b.add_subgraph();
      const auto x = up.input<kI32>(one_element());
      up.output(emit_if_less(b, up, x, 1000, level, level));
      level = up;
    }
    const auto x = b.input<kI32>(one_element());
    b.output(emit_if_less(b, b, x, 1000, level, level));
    return std::move(b).model();
  };
  CHECK(run_i32(build(100), {5}) == 6);
  auto deep = nnhal::PreparedModel::prepare(build(NNHAL_MAX_CONTROL_FLOW_DEPTH + 1));
  REQUIRE_FALSE(deep.has_value());
  CHECK(deep.error().message().find("nested") != std::string_view::npos);
}

TEST_CASE("a WHILE loop whose carried tensor grows, with unknown dimensions and unknown rank") {
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  for (const bool unknown_rank : {false, true}) {
    CAPTURE(unknown_rank);
    const nnhal::OperandSpec growing{unknown_rank ? std::vector<std::uint32_t>{} : std::vector<std::uint32_t>{0}};
    ModelBuilder b;
    GraphBuilder cond = b.add_subgraph();
    {
      const auto i = cond.input<kI32>(one_element());
      cond.input<F32>(growing);
      const auto limit = cond.input<kI32>(one_element());
      cond.output(cond.operation<OperationType::LESS, kBool>(one_element(), i, limit));
    }
    GraphBuilder body = b.add_subgraph();
    {
      // (i, v, limit) -> (i + 1, concat(v, [i + 0.5]))
      const auto i = body.input<kI32>(one_element());
      const auto v = body.input<F32>(growing);
      body.input<kI32>(one_element());
      const std::int32_t one[1] = {1};
      const auto next = body.operation<OperationType::ADD, kI32>(one_element(), i, body.constant<kI32>(one, one_element()),
                                                                   body.scalar<OperandType::INT32>(0));
      const auto as_float = body.operation<OperationType::CAST, F32>(one_element(), i);
      const float half[1] = {0.5f};
      const auto value = body.operation<OperationType::ADD, F32>(one_element(), as_float, body.constant<F32>(half, one_element()),
                                                                   body.scalar<OperandType::INT32>(0));
      const auto grown = body.operation<OperationType::CONCATENATION, F32>(growing, v, value, body.scalar<OperandType::INT32>(0));
      body.output(next);
      body.output(grown);
    }
    const auto i0 = b.input<kI32>(one_element());
    const auto v0 = b.input<F32>({{1}});
    const auto limit = b.input<kI32>(one_element());
    const std::uint32_t ins[] = {b.subgraph(cond).index, b.subgraph(body).index, i0.index, v0.index, limit.index};
    const auto outs = b.control_flow(OperationType::WHILE, ins, {{kI32, one_element()}, {F32, {{0}}}});
    b.output(outs[0]);
    b.output(outs[1]);
    const nnhal::Model model = std::move(b).model();
    // Unknown sizes across a WHILE are a runtime-only feature (HAL13.md d.4 rule 4): refused by
    // default, run on request.
    const auto strict = nnhal::PreparedModel::prepare(model);
    REQUIRE_FALSE(strict.has_value());
    CHECK(strict.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
    nnhal::PrepareOptions runtime_only;
    runtime_only.validation.allow_runtime_only = true;
    for (std::int32_t n : {0, 1, 5, 40}) {
      CAPTURE(n);
      const auto r = t::run_model(model,
                                  {t::arg_of(std::vector<std::int32_t>{0}), t::arg_of(std::vector<float>{-1.0f}),
                                   t::arg_of(std::vector<std::int32_t>{n})},
                                  {t::output_of(4), t::output_of(sizeof(float) * 64)}, runtime_only);
      REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
      CHECK(r.output<std::int32_t>(0)[0] == n);
      REQUIRE(r.shapes.size() == 2);
      CHECK(r.shapes[1].dimensions == std::vector<std::uint32_t>{static_cast<std::uint32_t>(n + 1)});
      const auto v = r.output<float>(1);
      CHECK(v[0] == -1.0f);
      for (std::int32_t k = 0; k < n; ++k) CHECK(v[static_cast<std::size_t>(k + 1)] == static_cast<float>(k) + 0.5f);
    }
    // A final tensor larger than the output buffer: OUTPUT_INSUFFICIENT_SIZE with its shape.
    const auto small = t::run_model(model,
                                    {t::arg_of(std::vector<std::int32_t>{0}), t::arg_of(std::vector<float>{-1.0f}),
                                     t::arg_of(std::vector<std::int32_t>{10})},
                                    {t::output_of(4), t::output_of(sizeof(float) * 4)}, runtime_only);
    REQUIRE_FALSE(small.status.has_value());
    CHECK(small.status.error().status() == nnhal::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(small.shapes.size() == 2);
    CHECK(small.shapes[1].dimensions == std::vector<std::uint32_t>{11});
    CHECK_FALSE(small.shapes[1].isSufficient);
    CHECK(small.guards_intact);
  }
}
