// The executor end to end: static and dynamic shapes, the arena plan, output shapes and
// OUTPUT_INSUFFICIENT_SIZE, reuse of an execution, and independence from the caller's Model.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "../support/run_model.hpp"

using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;

namespace {
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// x -> ((x + 1) + 1) + ... `steps` times, with `dims` declared on every operand.
nnhal::Model chain(int steps, std::vector<std::uint32_t> in_dims, std::vector<std::uint32_t> tmp_dims,
                   std::vector<std::uint32_t> out_dims) {
  nnhal::ModelBuilder b;
  auto x = b.input<F32>({in_dims});
  const float one[1] = {1.0f};
  const auto c = b.constant<F32>(one, {{1}});
  const auto act = b.scalar<OperandType::INT32>(0);
  for (int i = 0; i < steps; ++i)
    x = b.operation<OperationType::ADD, F32>({i + 1 == steps ? out_dims : tmp_dims}, x, c, act);
  b.output(x);
  return std::move(b).model();
}
}  // namespace

TEST_CASE("a chain of operations reuses arena memory and computes the right values") {
  const nnhal::Model model = chain(6, {256}, {256}, {256});
  auto prepared = nnhal::PreparedModel::prepare(model);
  REQUIRE(prepared.has_value());
  // Five temporaries of 1 KiB, at most two alive at once.
  CHECK(prepared->arena_bytes() == 2 * 1024);
  std::vector<float> x(256);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  const auto r = t::run_model(model, {t::arg_of(x)}, {t::output_of(256 * sizeof(float))});
  REQUIRE(r.status.has_value());
  const auto out = r.output<float>(0);
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(out[i] == x[i] + 6.0f);
}

TEST_CASE("outputs of unknown shape are inferred and reported") {
  const nnhal::Model model = chain(3, {4}, {0}, {0});
  const auto r = t::run_model(model, {t::arg_of(std::vector<float>{1, 2, 3, 4})}, {t::output_of(16)});
  REQUIRE(r.status.has_value());
  REQUIRE(r.shapes.size() == 1);
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{4});
  CHECK(r.shapes[0].isSufficient);
  CHECK(r.output<float>(0) == std::vector<float>{4, 5, 6, 7});
}

TEST_CASE("an undersized output buffer yields OUTPUT_INSUFFICIENT_SIZE with the needed shape") {
  for (const auto& out_dims : {std::vector<std::uint32_t>{4}, std::vector<std::uint32_t>{0}}) {
    CAPTURE(out_dims.size());
    const nnhal::Model model = chain(2, {4}, {4}, out_dims);
    const auto r = t::run_model(model, {t::arg_of(std::vector<float>{1, 2, 3, 4})}, {t::output_of(12)});
    REQUIRE_FALSE(r.status.has_value());
    CHECK(r.status.error().status() == nnhal::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(r.shapes.size() == 1);
    CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{4});
    CHECK_FALSE(r.shapes[0].isSufficient);
    CHECK(r.guards_intact);
  }
}

TEST_CASE("inputs of unknown size take their shape from the request, run after run") {
  const nnhal::Model model = chain(3, {0}, {0}, {0});
  auto prepared = nnhal::PreparedModel::prepare(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  for (std::uint32_t n : {3u, 100u, 1u, 57u}) {
    CAPTURE(n);
    std::vector<float> in(n), out(n + 1, -1.0f);
    for (std::uint32_t i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.5f;
    nnhal::Request request;
    request.pools.push_back({{reinterpret_cast<std::byte*>(in.data()), n * sizeof(float)}, 0});
    request.pools.push_back({{reinterpret_cast<std::byte*>(out.data()), out.size() * sizeof(float)}, 0});
    request.inputs = {{false, {0, 0, n * 4}, {n}}};
    request.outputs = {{false, {1, 0, n * 4}, {}}};
    const auto s = execution->run(request);
    REQUIRE_MESSAGE(s.has_value(), std::string(s ? "" : s.error().c_str()));
    CHECK(execution->output_shapes()[0].dimensions == std::vector<std::uint32_t>{n});
    for (std::uint32_t i = 0; i < n; ++i) CHECK(out[i] == in[i] + 3.0f);
    CHECK(out[n] == -1.0f);
  }
}

TEST_CASE("a prepared model does not depend on the caller's Model object") {
  std::optional<nnhal::PreparedModel> prepared;
  {
    auto model = std::make_unique<nnhal::Model>(chain(2, {2}, {2}, {2}));
    auto p = nnhal::PreparedModel::prepare(*model);
    REQUIRE(p.has_value());
    prepared.emplace(std::move(*p));
    model->operandValues.assign(model->operandValues.size(), 0xFF);  // scribble, then destroy
  }
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  float data[4] = {1, 2, 0, 0};
  nnhal::Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(data), sizeof data}, 0});
  request.inputs = {{false, {0, 0, 8}, {}}};
  request.outputs = {{false, {0, 8, 8}, {}}};
  REQUIRE(execution->run(request).has_value());
  CHECK(data[2] == 3.0f);
  CHECK(data[3] == 4.0f);
}

TEST_CASE("prepare rejects an invalid model and a shape the model contradicts") {
  nnhal::Model empty;
  auto p = nnhal::PreparedModel::prepare(empty);
  REQUIRE_FALSE(p.has_value());
  CHECK(p.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  // [2] + [1] declared as producing [3]: static inference contradicts the declaration.
  const nnhal::Model bad = chain(1, {2}, {}, {3});
  auto q = nnhal::PreparedModel::prepare(bad);
  REQUIRE_FALSE(q.has_value());
  CHECK(q.error().message().find("declared") != std::string_view::npos);
}

TEST_CASE("prepare(Model&&) takes the model over and prepares it as prepare(const Model&) does") {
  const nnhal::Model original = chain(3, {4}, {4}, {4});
  auto copied = nnhal::PreparedModel::prepare(original);
  nnhal::Model owned = original;
  auto moved = nnhal::PreparedModel::prepare(std::move(owned));
  REQUIRE(copied.has_value());
  REQUIRE(moved.has_value());
  // The prepared model is the one given: same operands, operations and constants.
  CHECK(moved->model().main.operands.size() == original.main.operands.size());
  CHECK(moved->model().main.operations.size() == original.main.operations.size());
  CHECK(moved->model().operandValues == original.operandValues);
  CHECK(moved->arena_bytes() == copied->arena_bytes());
  CHECK(moved->version() == copied->version());
  auto run = [](nnhal::PreparedModel& p) {
    auto execution = p.create_execution();
    REQUIRE(execution.has_value());
    float data[8] = {1, 2, 3, 4, 0, 0, 0, 0};
    nnhal::Request request;
    request.pools.push_back({{reinterpret_cast<std::byte*>(data), sizeof data}, 0});
    request.inputs = {{false, {0, 0, 16}, {}}};
    request.outputs = {{false, {0, 16, 16}, {}}};
    REQUIRE(execution->run(request).has_value());
    return std::vector<float>(data + 4, data + 8);
  };
  CHECK(run(*moved) == std::vector<float>{4, 5, 6, 7});
  CHECK(run(*moved) == run(*copied));
  // An invalid model is refused with the same error either way.
  const nnhal::Model bad = chain(1, {2}, {}, {3});
  auto by_copy = nnhal::PreparedModel::prepare(bad);
  nnhal::Model bad_owned = bad;
  auto by_move = nnhal::PreparedModel::prepare(std::move(bad_owned));
  REQUIRE_FALSE(by_copy.has_value());
  REQUIRE_FALSE(by_move.has_value());
  CHECK(by_move.error().status() == by_copy.error().status());
  CHECK(by_move.error().message() == by_copy.error().message());
}
