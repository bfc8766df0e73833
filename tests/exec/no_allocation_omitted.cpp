// Request validation inside an execution: a request that omits an input is checked (the omitted
// input must be omittable wherever it is read) without allocating, run after run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/transpose.hpp"
#include "support/counting_allocator.hpp"
#include "validate/model_fixtures.hpp"

using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;
namespace mf = nnhal::test::malformed;

TEST_CASE("an execution validates requests that omit inputs without allocating") {
  // TRANSPOSE(x, perm) with perm a main input, which a request may omit: the default permutation
  // reverses the dimensions, [1, 0] for rank 2, the perm the other request gives. Request
  // validation classifies main's operands when a request omits an input, in memory the execution
  // reserved when it was created.
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  nnhal::Model model;
  model.main.operands = {mf::make_operand(F32, {2, 3}, OperandLifeTime::SUBGRAPH_INPUT),
                         mf::make_operand(OperandType::TENSOR_INT32, {2}, OperandLifeTime::SUBGRAPH_INPUT),
                         mf::make_operand(F32, {3, 2}, OperandLifeTime::SUBGRAPH_OUTPUT)};
  model.main.operations = {nnhal::Operation{OperationType::TRANSPOSE, {0, 1}, {2}}};
  model.main.inputIndexes = {0, 1};
  model.main.outputIndexes = {2};
  mf::fix_consumers(model);
  auto prepared = nnhal::PreparedModel::prepare<nnhal::KernelSet<nnhal::Use<OperationType::TRANSPOSE, F32>>>(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());

  struct Pool {
    float x[6] = {1, 2, 3, 4, 5, 6};
    std::int32_t perm[2] = {1, 0};
    float y[6] = {};
  } pool;
  nnhal::Request given;
  given.pools.push_back({{reinterpret_cast<std::byte*>(&pool), sizeof pool}, 0});
  given.inputs = {{false, {0, 0, 24}, {}}, {false, {0, 24, 8}, {}}};
  given.outputs = {{false, {0, 32, 24}, {}}};
  nnhal::Request omitted = given;
  omitted.inputs[1] = nnhal::RequestArgument{};
  omitted.inputs[1].hasNoValue = true;

  REQUIRE(execution->run(given).has_value());  // the first run may allocate
  const std::vector<float> expected = {1, 4, 2, 5, 3, 6};
  CHECK(std::vector<float>(pool.y, pool.y + 6) == expected);
  std::fill(pool.y, pool.y + 6, 0.0f);
  CHECK(t::allocations_during([&] { REQUIRE(execution->run(omitted).has_value()); }) == 0);
  CHECK(std::vector<float>(pool.y, pool.y + 6) == expected);
  CHECK(t::allocations_during([&] {
          REQUIRE(execution->run(given).has_value());
          REQUIRE(execution->run(omitted).has_value());
        }) == 0);
}
