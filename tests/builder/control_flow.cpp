// The typed control-flow builder (nnhal/builder/builder.hpp): IF and WHILE built from typed
// subgraph handles, typed outputs shaped from the branch / body, a WHILE that returns only its
// first carried operands, and control flow nested three deep, run on a kernel set of the few
// operations they use and checked against the same computation written in C++ here. What must
// not compile is in tests/compile_fail/ (if_*, while_*, *subgraph*).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/if.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/mul.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/sub.hpp"
#include "nnhal/kernels/while.hpp"
#include "nnhal/validate/model.hpp"
#include "../support/run_model.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_builder_control_flow {

namespace {

using nnhal::ModelBuilder;
using nnhal::OperandRef;
using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

using Kernels = nnhal::KernelSet<nnhal::Use<OperationType::IF>, nnhal::Use<OperationType::WHILE>,
                                 nnhal::Use<OperationType::ADD, F32, I32>, nnhal::Use<OperationType::SUB, I32>,
                                 nnhal::Use<OperationType::MUL, F32>, nnhal::Use<OperationType::LESS, I32>>;

const nnhal::OperandSpec kOne{{1}};

/// Runs `model` with the kernel set above; requires success.
t::RunResult run(const nnhal::Model& model, const std::vector<t::Arg>& inputs, const std::vector<t::Arg>& outputs) {
  auto r = t::run_model<Kernels>(model, inputs, outputs);
  REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
  CHECK(r.guards_intact);
  return r;
}

t::Arg i32(std::int32_t v) { return t::arg_of(std::vector<std::int32_t>{v}); }
t::Arg b8(bool v) { return t::arg_of(std::vector<std::uint8_t>{v ? std::uint8_t{1} : std::uint8_t{0}}); }

/// The referenced subgraph a SUBGRAPH operand of `graph` names.
std::uint32_t named_subgraph(const nnhal::Subgraph& graph, std::uint32_t operand) {
  REQUIRE(graph.operands[operand].type == OperandType::SUBGRAPH);
  return graph.operands[operand].location.offset;
}

/// An int32 [1] subgraph (x, ...) -> x + step, tagged Tag.
template <class Tag, OperandType... More>
auto plus(ModelBuilder& b, std::int32_t step, nnhal::OperandSpec more = kOne) {
  auto g = b.add_subgraph<Tag, I32, More...>(kOne, (static_cast<void>(More), more)...);
  const std::int32_t s[1] = {step};
  return g.returns(g.template operation<OperationType::ADD, I32>(kOne, g.template input<0>(),
                                                                 g.template constant<I32>(s, kOne),
                                                                 g.template scalar<OperandType::INT32>(0)));
}

}  // namespace

TEST_CASE("builder: IF with outputs of two types, shaped by the then branch") {
  // main(c, x: f32[3], k: i32[1]) = c ? (x * 2, k + 1) : (x + x, k - 1)
  const nnhal::OperandSpec three{{3}};
  ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, F32, I32>(three, kOne);
  const auto then_g = [&] {
    const auto [x, k] = then_b.inputs();
    const float two[1] = {2.0f};
    const auto act = then_b.scalar<OperandType::INT32>(0);
    const std::int32_t one[1] = {1};
    return then_b.returns(then_b.operation<OperationType::MUL, F32>(three, x, then_b.constant<F32>(two, kOne), act),
                          then_b.operation<OperationType::ADD, I32>(kOne, k, then_b.constant<I32>(one, kOne), act));
  }();
  auto else_b = b.add_subgraph<struct Else, F32, I32>(three, kOne);
  const auto else_g = [&] {
    const auto [x, k] = else_b.inputs();
    const auto act = else_b.scalar<OperandType::INT32>(0);
    const std::int32_t one[1] = {1};
    // Unknown output dimensions here: the IF's outputs take the then branch's shapes.
    return else_b.returns(else_b.operation<OperationType::ADD, F32>({{0}}, x, x, act),
                          else_b.operation<OperationType::SUB, I32>(kOne, k, else_b.constant<I32>(one, kOne), act));
  }();
  static_assert(std::is_same_v<decltype(then_g), const nnhal::SubgraphRef<struct Then, nnhal::In<F32, I32>, nnhal::Out<F32, I32>>>);

  const auto c = b.input<B8>(kOne);
  const auto x = b.input<F32>(three);
  const auto k = b.input<I32>(kOne);
  const auto [y, j] = b.if_(c, then_g, else_g, x, k);
  static_assert(std::is_same_v<decltype(y), const OperandRef<F32>>);
  static_assert(std::is_same_v<decltype(j), const OperandRef<I32, nnhal::MainGraph>>);
  b.output(y, j);
  const nnhal::Model model = std::move(b).model();

  // The layout the HAL asks for (HAL13.md d.2): condition, then, else, inputs.
  REQUIRE(model.main.operations.size() == 1);
  const nnhal::Operation& op = model.main.operations[0];
  CHECK(op.type == OperationType::IF);
  REQUIRE(op.inputs.size() == 5);
  CHECK(op.inputs[0] == c.index);
  CHECK(named_subgraph(model.main, op.inputs[1]) == then_g.referenced_index());
  CHECK(named_subgraph(model.main, op.inputs[2]) == else_g.referenced_index());
  CHECK(op.inputs[3] == x.index);
  CHECK(op.inputs[4] == k.index);
  CHECK(op.outputs == nnhal::Vector<std::uint32_t>{y.index, j.index});
  CHECK(model.main.operands[y.index].dimensions == nnhal::Vector<std::uint32_t>{3});
  CHECK(model.main.operands[j.index].dimensions == nnhal::Vector<std::uint32_t>{1});
  CHECK(model.main.outputIndexes == nnhal::Vector<std::uint32_t>{y.index, j.index});
  REQUIRE(nnhal::validate_model(model).has_value());

  const std::vector<float> xs = {1.5f, -2.0f, 0.25f};
  for (const bool cond : {true, false}) {
    CAPTURE(cond);
    const auto r = run(model, {b8(cond), t::arg_of(xs), i32(41)}, {t::output_of(3 * sizeof(float)), t::output_of(4)});
    const auto ys = r.output<float>(0);
    REQUIRE(ys.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(ys[i] == (cond ? xs[i] * 2.0f : xs[i] + xs[i]));
    CHECK(r.output<std::int32_t>(1)[0] == (cond ? 42 : 40));
  }
}

TEST_CASE("builder: WHILE with all its carried operands as outputs, or only the first") {
  // (acc, i, limit): while (i < limit) { acc += i; i += 1 }
  ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32, I32>(kOne, kOne, kOne);
  const auto cond = [&] {
    const auto [acc, i, limit] = cond_b.inputs();
    (void)acc;
    return cond_b.returns(cond_b.operation<OperationType::LESS, B8>(kOne, i, limit));
  }();
  auto body_b = b.add_subgraph<struct Body, I32, I32, I32>(kOne, kOne, kOne);
  const auto body = [&] {
    const auto [acc, i, limit] = body_b.inputs();
    (void)limit;
    const auto act = body_b.scalar<OperandType::INT32>(0);
    const std::int32_t one[1] = {1};
    return body_b.returns(body_b.operation<OperationType::ADD, I32>(kOne, acc, i, act),
                          body_b.operation<OperationType::ADD, I32>(kOne, i, body_b.constant<I32>(one, kOne), act));
  }();
  const auto acc0 = b.input<I32>(kOne);
  const auto i0 = b.input<I32>(kOne);
  const auto limit = b.input<I32>(kOne);
  const auto both = b.while_(cond, body, acc0, i0, limit);
  static_assert(std::tuple_size_v<decltype(both)> == 2);
  const auto [sum_only] = b.while_<1>(cond, body, acc0, i0, limit);
  static_assert(std::is_same_v<decltype(sum_only), const OperandRef<I32>>);
  b.output(std::get<0>(both), std::get<1>(both), sum_only);
  const nnhal::Model model = std::move(b).model();

  REQUIRE(model.main.operations.size() == 2);
  for (const nnhal::Operation& op : model.main.operations) {
    CHECK(op.type == OperationType::WHILE);
    REQUIRE(op.inputs.size() == 5);
    CHECK(named_subgraph(model.main, op.inputs[0]) == cond.referenced_index());
    CHECK(named_subgraph(model.main, op.inputs[1]) == body.referenced_index());
  }
  CHECK(model.main.operations[0].outputs.size() == 2);
  CHECK(model.main.operations[1].outputs.size() == 1);
  REQUIRE(nnhal::validate_model(model).has_value());

  for (const std::int32_t n : {0, 1, 7, 100}) {
    CAPTURE(n);
    std::int32_t acc = 3, i = 0;
    while (i < n) acc += i++;
    const auto r = run(model, {i32(3), i32(0), i32(n)}, {t::output_of(4), t::output_of(4), t::output_of(4)});
    CHECK(r.output<std::int32_t>(0)[0] == acc);
    CHECK(r.output<std::int32_t>(1)[0] == i);
    CHECK(r.output<std::int32_t>(2)[0] == acc);
  }
}

TEST_CASE("builder: WHILE in an IF branch in a WHILE body (nested three deep)") {
  // main(n): total = 0; for (i = 0; i < n; ++i) total += i < 4 ? round_up_to_3(i) : i - 10
  // where round_up_to_3(i) = (j = 0; while (j < i) j += 3; j)
  ModelBuilder b;
  // Innermost loop: (j, i) -> j + 3 while j < i.
  auto inner_cond_b = b.add_subgraph<struct InnerCond, I32, I32>(kOne, kOne);
  const auto inner_cond = [&] {
    const auto [j, i] = inner_cond_b.inputs();
    return inner_cond_b.returns(inner_cond_b.operation<OperationType::LESS, B8>(kOne, j, i));
  }();
  const auto inner_body = plus<struct InnerBody, I32>(b, 3);
  // IF branches over (i, total): total + round_up_to_3(i), or total + i - 10.
  auto then_b = b.add_subgraph<struct Then, I32, I32>(kOne, kOne);
  const auto then_g = [&] {
    const auto [i, total] = then_b.inputs();
    const std::int32_t zero[1] = {0};
    const auto [j] = then_b.while_<1>(inner_cond, inner_body, then_b.constant<I32>(zero, kOne), i);
    return then_b.returns(then_b.operation<OperationType::ADD, I32>(kOne, total, j, then_b.scalar<OperandType::INT32>(0)));
  }();
  auto else_b = b.add_subgraph<struct Else, I32, I32>(kOne, kOne);
  const auto else_g = [&] {
    const auto [i, total] = else_b.inputs();
    const std::int32_t ten[1] = {10};
    const auto act = else_b.scalar<OperandType::INT32>(0);
    const auto minus = else_b.operation<OperationType::SUB, I32>(kOne, i, else_b.constant<I32>(ten, kOne), act);
    return else_b.returns(else_b.operation<OperationType::ADD, I32>(kOne, total, minus, act));
  }();
  // Outer loop over (i, total, n).
  auto cond_b = b.add_subgraph<struct Cond, I32, I32, I32>(kOne, kOne, kOne);
  const auto cond = [&] {
    const auto [i, total, n] = cond_b.inputs();
    (void)total;
    return cond_b.returns(cond_b.operation<OperationType::LESS, B8>(kOne, i, n));
  }();
  auto body_b = b.add_subgraph<struct Body, I32, I32, I32>(kOne, kOne, kOne);
  const auto body = [&] {
    const auto [i, total, n] = body_b.inputs();
    (void)n;
    const std::int32_t four[1] = {4}, one[1] = {1};
    const auto small = body_b.operation<OperationType::LESS, B8>(kOne, i, body_b.constant<I32>(four, kOne));
    const auto [next_total] = body_b.if_(small, then_g, else_g, i, total);
    const auto next_i = body_b.operation<OperationType::ADD, I32>(kOne, i, body_b.constant<I32>(one, kOne),
                                                                  body_b.scalar<OperandType::INT32>(0));
    return body_b.returns(next_i, next_total);
  }();
  const auto n = b.input<I32>(kOne);
  const std::int32_t zero[1] = {0};
  const auto [i_end, total] = b.while_(cond, body, b.constant<I32>(zero, kOne), b.constant<I32>(zero, kOne), n);
  b.output(total, i_end);
  const nnhal::Model model = std::move(b).model();
  REQUIRE(model.referenced.size() == 6);  // inner cond and body, then, else, cond, body
  REQUIRE(nnhal::validate_model(model).has_value());

  for (const std::int32_t count : {0, 1, 3, 4, 9}) {
    CAPTURE(count);
    std::int32_t want = 0;
    for (std::int32_t i = 0; i < count; ++i) {
      std::int32_t j = 0;
      while (j < i) j += 3;
      want += i < 4 ? j : i - 10;
    }
    const auto r = run(model, {i32(count)}, {t::output_of(4), t::output_of(4)});
    CHECK(r.output<std::int32_t>(0)[0] == want);
    CHECK(r.output<std::int32_t>(1)[0] == count);
  }
}

TEST_CASE("builder: subgraphs made in a loop share a tag and nest") {
  // f_0(x) = x + 1; f_d(x) = IF(x < 1000, f_{d-1}, f_{d-1})(x): f_depth(x) = x + 1.
  for (const int depth : {1, 2, 5}) {
    CAPTURE(depth);
    ModelBuilder b;
    auto level = plus<struct Level>(b, 1);
    const std::int32_t limit[1] = {1000};
    for (int d = 0; d < depth; ++d) {
      auto up = b.add_subgraph<struct Level, I32>(kOne);
      const auto c = up.operation<OperationType::LESS, B8>(kOne, up.input<0>(), up.constant<I32>(limit, kOne));
      level = up.returns(std::get<0>(up.if_(c, level, level, up.input<0>())));
    }
    const auto x = b.input<I32>(kOne);
    const auto c = b.operation<OperationType::LESS, B8>(kOne, x, b.constant<I32>(limit, kOne));
    b.output(std::get<0>(b.if_(c, level, level, x)));
    const nnhal::Model model = std::move(b).model();
    CHECK(model.referenced.size() == static_cast<std::size_t>(depth + 1));
    CHECK(run(model, {i32(5)}, {t::output_of(4)}).output<std::int32_t>(0)[0] == 6);
  }
}

}  // namespace test_builder_control_flow
