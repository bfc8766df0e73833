// Whole models whose shape parameters (paddings, block sizes, perm, axes, indices) are model
// inputs, so output shapes are known only at execution: the executor infers them when the node
// runs, the results are right, and bad values fail the execution with an error (guard bytes
// after the outputs stay intact).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "support/run_model.hpp"

using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;

namespace {
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;

/// input [2, 3] -> OP(input, params) -> output of unknown shape.
template <OperationType Op>
nnhal::Model with_runtime_tensor(std::vector<std::uint32_t> param_dims) {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2, 3}});
  const auto p = b.input<I32>({std::move(param_dims)});
  b.output(b.operation<Op, F32>({{0, 0}}, x, p));
  return std::move(b).model();
}

const std::vector<float> kX{1, 2, 3, 4, 5, 6};
}  // namespace

TEST_CASE("PAD with paddings given at execution") {
  const nnhal::Model model = with_runtime_tensor<OperationType::PAD>({2, 2});
  auto r = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{1, 0, 0, 2})},
                        {t::output_of(15 * sizeof(float))});
  REQUIRE(r.status.has_value());
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{3, 5});
  CHECK(r.output<float>(0) == std::vector<float>{0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0});
  CHECK(r.guards_intact);
  for (const std::vector<std::int32_t>& bad : {std::vector<std::int32_t>{-1, 0, 0, 0},
                                               std::vector<std::int32_t>{0, 0x7fffffff, 0x7fffffff, 0}}) {
    auto e = t::run_model(model, {t::arg_of(kX), t::arg_of(bad)}, {t::output_of(15 * sizeof(float))});
    CHECK_FALSE(e.status.has_value());
    CHECK(e.guards_intact);
  }
}

TEST_CASE("TRANSPOSE with perm given at execution") {
  const nnhal::Model model = with_runtime_tensor<OperationType::TRANSPOSE>({2});
  auto r = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{1, 0})},
                        {t::output_of(6 * sizeof(float))});
  REQUIRE(r.status.has_value());
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{3, 2});
  CHECK(r.output<float>(0) == std::vector<float>{1, 4, 2, 5, 3, 6});
  auto e = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{1, 1})},
                        {t::output_of(6 * sizeof(float))});
  CHECK_FALSE(e.status.has_value());
  CHECK(e.guards_intact);
}

TEST_CASE("GATHER with indices given at execution, in and out of range") {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2, 3}});
  const auto axis = b.scalar<OperandType::INT32>(1);
  const auto idx = b.input<I32>({{2}});
  b.output(b.operation<OperationType::GATHER, F32>({{0, 0}}, x, axis, idx));
  const nnhal::Model model = std::move(b).model();
  auto r = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{2, 0})},
                        {t::output_of(4 * sizeof(float))});
  REQUIRE(r.status.has_value());
  CHECK(r.output<float>(0) == std::vector<float>{3, 1, 6, 4});
  auto e = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{0, 3})},
                        {t::output_of(4 * sizeof(float))});
  REQUIRE_FALSE(e.status.has_value());
  CHECK(e.status.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(e.guards_intact);
}

TEST_CASE("SPACE_TO_BATCH_ND with block sizes and paddings given at execution") {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{1, 2, 3, 1}});
  const auto block = b.input<I32>({{2}});
  const auto pads = b.input<I32>({{2, 2}});
  b.output(b.operation<OperationType::SPACE_TO_BATCH_ND, F32>({{0, 0, 0, 0}}, x, block, pads));
  const nnhal::Model model = std::move(b).model();
  auto r = t::run_model(model,
                        {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{2, 2}),
                         t::arg_of(std::vector<std::int32_t>{0, 0, 0, 1})},
                        {t::output_of(8 * sizeof(float))});
  REQUIRE(r.status.has_value());
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{4, 1, 2, 1});
  CHECK(r.output<float>(0) == std::vector<float>{1, 3, 2, 0, 4, 6, 5, 0});
  // Block 2 does not divide the width 3 without padding.
  auto e = t::run_model(model,
                        {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{2, 2}),
                         t::arg_of(std::vector<std::int32_t>{0, 0, 0, 0})},
                        {t::output_of(8 * sizeof(float))});
  CHECK_FALSE(e.status.has_value());
  CHECK(e.guards_intact);
}

TEST_CASE("MEAN with axes given at execution") {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2, 3}});
  const auto axes = b.input<I32>({{1}});
  const auto keep = b.scalar<OperandType::INT32>(1);
  b.output(b.operation<OperationType::MEAN, F32>({{0, 0}}, x, axes, keep));
  const nnhal::Model model = std::move(b).model();
  auto r = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{-1})},
                        {t::output_of(2 * sizeof(float))});
  REQUIRE(r.status.has_value());
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{2, 1});
  CHECK(r.output<float>(0) == std::vector<float>{2, 5});
  auto e = t::run_model(model, {t::arg_of(kX), t::arg_of(std::vector<std::int32_t>{2})},
                        {t::output_of(2 * sizeof(float))});
  CHECK_FALSE(e.status.has_value());
}
