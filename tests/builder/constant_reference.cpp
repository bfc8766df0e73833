// GraphBuilder::pool() and constant_reference(): a tensor constant left in the caller's memory
// (CONSTANT_REFERENCE) is not copied into the model, validates, and is read by the execution.
#include <doctest/doctest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/validate/model.hpp"

namespace {
constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
using AddOnly = nnhal::KernelSet<nnhal::Use<nnhal::OperationType::ADD, F32>>;
}  // namespace

TEST_CASE("builder: constant_reference keeps a constant in a model memory pool") {
  // Two constants in one pool: 8 bytes of padding, then y = {10, 20, 30, 40}.
  std::vector<float> block = {0, 0, 10, 20, 30, 40};
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const std::uint32_t pool = b.pool({reinterpret_cast<std::byte*>(block.data()), block.size() * sizeof(float)});
  const auto y = b.constant_reference<F32>(pool, 8, 16, {{4}});
  b.output(b.operation<nnhal::OperationType::ADD, F32>({{4}}, x, y, b.scalar<nnhal::OperandType::INT32>(0)));
  const nnhal::Model model = std::move(b).model();

  REQUIRE(model.pools.size() == 1);
  CHECK(model.pools[0].data == reinterpret_cast<std::byte*>(block.data()));
  const nnhal::Operand& op = model.main.operands[y.index];
  CHECK(op.lifetime == nnhal::OperandLifeTime::CONSTANT_REFERENCE);
  CHECK(op.location.poolIndex == 0);
  CHECK(op.location.offset == 8);
  CHECK(op.location.length == 16);
  CHECK(model.operandValues.size() == sizeof(std::int32_t));  // only the activation scalar
  REQUIRE(nnhal::validate_model(model).has_value());

  auto prepared = nnhal::PreparedModel::prepare<AddOnly>(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  std::vector<float> io = {1, 2, 3, 4, /* out */ 0, 0, 0, 0};
  nnhal::Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(io.data()), io.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}};
  request.outputs = {{false, {0, 16, 16}, {}}};
  REQUIRE(execution->run(request).has_value());
  CHECK(io[4] == 11);
  CHECK(io[5] == 22);
  CHECK(io[6] == 33);
  CHECK(io[7] == 44);
}
