// IF and WHILE nested in every combination, deep nesting, and loops whose carried tensors
// grow (unknown dimensions and unknown rank).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "../support/run_model.hpp"

using nnhal::ModelBuilder;
using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;
using t::cf::kBool;
using t::cf::kI32;
using t::cf::one_element;

namespace {

/// A subgraph (x) -> x + step, tagged Tag.
template <class Tag>
auto step_graph(ModelBuilder& b, std::int32_t step) {
  auto g = b.add_subgraph<Tag, kI32>(one_element());
  const std::int32_t s[1] = {step};
  const auto c = g.template constant<kI32>(s, one_element());
  return g.returns(g.template operation<OperationType::ADD, kI32>(one_element(), g.template input<0>(), c,
                                                                  g.template scalar<OperandType::INT32>(0)));
}

/// In `g`: IF (x < pivot) then x + a else x + b, on an existing operand x of g.
template <class G, class Then, class Else>
nnhal::OperandRef<kI32, G> emit_if_less(nnhal::GraphBuilder<G>& g, nnhal::OperandRef<kI32, G> x, std::int32_t pivot,
                                        const Then& then_g, const Else& else_g) {
  const std::int32_t p[1] = {pivot};
  const auto pv = g.template constant<kI32>(p, one_element());
  const auto cond = g.template operation<OperationType::LESS, kBool>(one_element(), x, pv);
  return std::get<0>(g.if_(cond, then_g, else_g, x));
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
  const auto cond = t::cf::less_condition<struct Cond>(b);
  const auto plus1 = step_graph<struct Plus1>(b, 1);
  const auto plus2 = step_graph<struct Plus2>(b, 2);
  auto body = b.add_subgraph<struct Body, kI32, kI32>(one_element(), one_element());
  const auto body_graph = body.returns(emit_if_less(body, body.input<0>(), 5, plus1, plus2));
  const auto i0 = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(std::get<0>(b.while_(cond, body_graph, i0, limit)));
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
  const auto cond = t::cf::less_condition<struct Cond>(b);
  const auto body = t::cf::add_body<struct Body>(b, 3);
  auto then_b = b.add_subgraph<struct Then, kI32, kI32>(one_element(), one_element());
  const auto then_g = [&] {
    const auto [x, limit] = then_b.inputs();
    return then_b.returns(std::get<0>(then_b.while_(cond, body, x, limit)));
  }();
  const auto plus100 = step_graph<struct Plus100>(b, 100);
  const auto minus100 = step_graph<struct Minus100>(b, -100);
  auto else_b = b.add_subgraph<struct Else, kI32, kI32>(one_element(), one_element());
  const auto else_g = else_b.returns(emit_if_less(else_b, else_b.input<0>(), 0, plus100, minus100));
  const auto c = b.input<kBool>(one_element());
  const auto x = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(std::get<0>(b.if_(c, then_g, else_g, x, limit)));
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
  const auto inner_cond = t::cf::less_condition<struct InnerCond>(b);
  const auto inner_body = t::cf::add_body<struct InnerBody>(b, 1);
  const auto outer_cond = t::cf::less_condition<struct OuterCond>(b);
  auto outer = b.add_subgraph<struct OuterBody, kI32, kI32>(one_element(), one_element());
  const auto outer_body = [&] {
    const auto j = outer.input<0>();  // input 1, m, is read-only
    const std::int32_t three[1] = {3};
    const auto c3 = outer.constant<kI32>(three, one_element());
    const auto target = outer.operation<OperationType::ADD, kI32>(one_element(), j, c3, outer.scalar<OperandType::INT32>(0));
    return outer.returns(std::get<0>(outer.while_(inner_cond, inner_body, j, target)));
  }();
  const auto j0 = b.input<kI32>(one_element());
  const auto m = b.input<kI32>(one_element());
  b.output(std::get<0>(b.while_(outer_cond, outer_body, j0, m)));
  const nnhal::Model model = std::move(b).model();
  CHECK(run_i32(model, {0, 10}) == 12);
  CHECK(run_i32(model, {0, 0}) == 0);
  CHECK(run_i32(model, {1, 300}) == 301);
}

TEST_CASE("IF nested 100 deep runs; nesting beyond the supported depth is refused at prepare") {
  auto build = [](int depth) {
    ModelBuilder b;
    // Innermost: x + 1. Each level: IF(x < 1000) then <level below> else <level below>. Every
    // level has the same tag (and so the same handle type): they are built in a loop.
    auto level = step_graph<struct Level>(b, 1);
    for (int d = 0; d < depth; ++d) {
      auto up = b.add_subgraph<Level, kI32>(one_element());
      level = up.returns(emit_if_less(up, up.input<0>(), 1000, level, level));
    }
    const auto x = b.input<kI32>(one_element());
    b.output(emit_if_less(b, x, 1000, level, level));
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
    auto cond_b = b.add_subgraph<struct Cond, kI32, F32, kI32>(one_element(), growing, one_element());
    const auto cond = [&] {
      const auto [i, v, limit] = cond_b.inputs();
      (void)v;
      return cond_b.returns(cond_b.operation<OperationType::LESS, kBool>(one_element(), i, limit));
    }();
    auto body_b = b.add_subgraph<struct Body, kI32, F32, kI32>(one_element(), growing, one_element());
    const auto body = [&] {
      // (i, v, limit) -> (i + 1, concat(v, [i + 0.5]))
      const auto [i, v, limit] = body_b.inputs();
      (void)limit;
      const std::int32_t one[1] = {1};
      const auto next = body_b.operation<OperationType::ADD, kI32>(
          one_element(), i, body_b.constant<kI32>(one, one_element()), body_b.scalar<OperandType::INT32>(0));
      const auto as_float = body_b.operation<OperationType::CAST, F32>(one_element(), i);
      const float half[1] = {0.5f};
      const auto value = body_b.operation<OperationType::ADD, F32>(
          one_element(), as_float, body_b.constant<F32>(half, one_element()), body_b.scalar<OperandType::INT32>(0));
      const auto grown =
          body_b.operation<OperationType::CONCATENATION, F32>(growing, v, value, body_b.scalar<OperandType::INT32>(0));
      return body_b.returns(next, grown);
    }();
    const auto i0 = b.input<kI32>(one_element());
    const auto v0 = b.input<F32>({{1}});
    const auto limit = b.input<kI32>(one_element());
    const auto [i_out, v_out] = b.while_(cond, body, i0, v0, limit);
    b.output(i_out, v_out);
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
