// The conformance runner's conversion helpers (tests/cts/names.hpp, layout.hpp, test_model.hpp,
// model_builder.hpp, runner.hpp): name tables, the operandValues alignment rule, value encoding,
// where constants and request arguments are placed, and the dynamic-output-shape variant.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cts/layout.hpp"
#include "cts/model_builder.hpp"
#include "cts/names.hpp"
#include "cts/runner.hpp"
#include "cts/test_model.hpp"

namespace {

using namespace nnhal;
using namespace nnhal::cts;

TestOperand make_operand(OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime lifetime,
                         std::vector<double> values = {}) {
  TestOperand t;
  t.operand.type = type;
  t.operand.dimensions = std::move(dims);
  t.operand.lifetime = lifetime;
  for (double v : values) REQUIRE(append_element(type, v, t.data));
  return t;
}

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

TEST_CASE("cts names: operations, operand types and lifetimes as the corpus spells them") {
  CHECK(operation_from_name("ADD") == OperationType::ADD);
  CHECK(operation_from_name("RESIZE_NEAREST_NEIGHBOR") == OperationType::RESIZE_NEAREST_NEIGHBOR);
  CHECK(operation_from_name("RANK") == OperationType::RANK);
  // Post-1.3 operations keep their real codes, for validation to reject.
  CHECK(static_cast<int>(*operation_from_name("BATCH_MATMUL")) == 102);
  CHECK(static_cast<int>(*operation_from_name("PACK")) == 103);
  CHECK(static_cast<int>(*operation_from_name("MIRROR_PAD")) == 104);
  CHECK(static_cast<int>(*operation_from_name("REVERSE")) == 105);
  CHECK_FALSE(operation_from_name("add"));
  CHECK_FALSE(operation_from_name("OEM_OPERATION"));
  for (std::size_t code = 0; code < kOperationNames.size(); ++code)
    CHECK(operation_from_name(kOperationNames[code]) == static_cast<OperationType>(code));
  CHECK(operation_name(OperationType::WHILE) == "WHILE");

  CHECK(operand_type_from_name("TENSOR_QUANT8_ASYMM_SIGNED") == OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
  CHECK_FALSE(operand_type_from_name("OEM"));
  CHECK(element_type_name(OperandType::TENSOR_FLOAT16) == "_Float16");
  CHECK(element_type_name(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) == "int8_t");
  CHECK(element_type_name(OperandType::BOOL) == "bool8");
  CHECK(lifetime_from_name("CONSTANT_REFERENCE") == OperandLifeTime::CONSTANT_REFERENCE);
  CHECK(lifetime_from_name("SUBGRAPH") == OperandLifeTime::SUBGRAPH);
  CHECK_FALSE(lifetime_from_name("MODEL_INPUT"));
}

TEST_CASE("cts layout: operandValues alignment is 1 below 2 bytes, 2 below 4, else 4") {
  CHECK(operand_value_alignment(0) == 1);
  CHECK(operand_value_alignment(1) == 1);
  CHECK(operand_value_alignment(2) == 2);
  CHECK(operand_value_alignment(3) == 2);
  CHECK(operand_value_alignment(4) == 4);
  CHECK(operand_value_alignment(1000) == 4);

  nnhal::Vector<std::uint8_t> values;
  const std::byte b[8] = {};
  CHECK(append_operand_value(values, std::span(b, 1)) == 0);
  CHECK(append_operand_value(values, std::span(b, 2)) == 2);  // 1 byte of padding
  CHECK(append_operand_value(values, std::span(b, 1)) == 4);
  CHECK(append_operand_value(values, std::span(b, 4)) == 8);  // 3 bytes of padding
  CHECK(append_operand_value(values, std::span(b, 3)) == 12);
  CHECK(append_operand_value(values, std::span(b, 1)) == 15);
  CHECK(append_operand_value(values, std::span(b, 8)) == 16);
  CHECK(values.size() == 24);
}

TEST_CASE("cts layout: request slots are 64-byte aligned and zero-sized outputs get one byte") {
  std::size_t total = 0;
  const std::vector<std::size_t> sizes{8, 0, 100, 1};
  const auto slots = layout_slots(sizes, kRequestAlignment, 1, total);
  REQUIRE(slots.size() == 4);
  CHECK(slots[0].offset == 0);
  CHECK(slots[0].length == 8);
  CHECK(slots[1].offset == 64);
  CHECK(slots[1].length == 1);
  CHECK(slots[2].offset == 128);
  CHECK(slots[2].length == 100);
  CHECK(slots[3].offset == 256);
  CHECK(total == 257);

  const auto constants = layout_slots(std::vector<std::size_t>{3, 2, 4}, kConstantAlignment, 0, total);
  CHECK(constants[1].offset == 4);
  CHECK(constants[2].offset == 8);
  CHECK(total == 12);

  const AlignedBytes buffer(10);
  CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % 64 == 0);
  CHECK(buffer.size() == 10);
  CHECK(AlignedBytes(0).data() != nullptr);
}

TEST_CASE("cts values: encoding per operand type") {
  std::vector<std::byte> out;
  REQUIRE(append_element(OperandType::TENSOR_FLOAT32, 0.1f, out));
  CHECK(load<float>(out.data()) == 0.1f);  // the double of a float literal narrows back exactly

  out.clear();
  REQUIRE(append_element(OperandType::TENSOR_FLOAT16, 0.0999755859375, out));  // a half value
  CHECK(load<std::uint16_t>(out.data()) == 0x2E66);
  out.clear();
  REQUIRE(append_element(OperandType::FLOAT16, -0.0, out));
  CHECK(load<std::uint16_t>(out.data()) == 0x8000);  // the sign of -0.0 survives
  out.clear();
  REQUIRE(append_element(OperandType::TENSOR_FLOAT16, std::numeric_limits<double>::infinity(), out));
  CHECK(load<std::uint16_t>(out.data()) == 0x7C00);

  out.clear();
  CHECK(append_element(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, -128, out));
  CHECK_FALSE(append_element(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, -129, out));
  CHECK_FALSE(append_element(OperandType::TENSOR_QUANT8_ASYMM, 256, out));
  CHECK_FALSE(append_element(OperandType::TENSOR_INT32, 1.5, out));
  CHECK(append_element(OperandType::UINT32, 4294967295.0, out));
  CHECK(append_element(OperandType::TENSOR_QUANT16_ASYMM, 65535, out));
  CHECK_FALSE(append_element(OperandType::TENSOR_QUANT16_SYMM, 32768, out));
  CHECK(out.size() == 1 + 4 + 2);

  out.clear();
  CHECK(append_element(OperandType::TENSOR_BOOL8, 1, out));
  CHECK(append_element(OperandType::BOOL, 0, out));
  CHECK_FALSE(append_element(OperandType::BOOL, 2, out));
  REQUIRE(out.size() == 2);
  CHECK(out[0] == std::byte{1});
  CHECK(out[1] == std::byte{0});
}

TEST_CASE("cts builder: constants, subgraph references and dynamic output dimensions") {
  TestModel t;
  t.relaxed = true;
  // main: in(0) + c(1) -> out(3), with an int scalar (2) and a constant reference (4).
  t.main.operands.push_back(make_operand(OperandType::TENSOR_FLOAT32, {2, 1}, OperandLifeTime::SUBGRAPH_INPUT, {1, 2}));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_QUANT8_ASYMM, {3}, OperandLifeTime::CONSTANT_COPY, {1, 2, 3}));
  t.main.operands.push_back(make_operand(OperandType::INT32, {}, OperandLifeTime::CONSTANT_COPY, {7}));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_FLOAT32, {2, 1}, OperandLifeTime::SUBGRAPH_OUTPUT));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_QUANT16_SYMM, {3}, OperandLifeTime::CONSTANT_REFERENCE, {5, 6, 7}));
  t.main.operands.push_back(make_operand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH, {1}));
  t.main.operands.push_back(make_operand(OperandType::INT32, {}, OperandLifeTime::SUBGRAPH_OUTPUT));
  t.main.inputIndexes = {0};
  t.main.outputIndexes = {3, 6};
  t.referenced.resize(2);
  t.referenced[1].operands.push_back(make_operand(OperandType::TENSOR_INT32, {1}, OperandLifeTime::CONSTANT_REFERENCE, {9}));
  t.referenced[1].operands.push_back(make_operand(OperandType::TENSOR_FLOAT32, {4}, OperandLifeTime::SUBGRAPH_OUTPUT));

  const BuiltModel built = build_model(t);
  const Model& m = built.model;
  CHECK(m.relaxComputationFloat32toFloat16);
  // CONSTANT_COPY: 3 bytes at 0 (alignment 2), then 4 bytes at 4.
  CHECK(m.main.operands[1].location.offset == 0);
  CHECK(m.main.operands[1].location.length == 3);
  CHECK(m.main.operands[2].location.offset == 4);
  CHECK(m.main.operands[2].location.length == 4);
  CHECK(load<std::int32_t>(reinterpret_cast<const std::byte*>(m.operandValues.data()) + 4) == 7);
  // CONSTANT_REFERENCE: one pool for every subgraph, 4-byte aligned offsets.
  REQUIRE(m.pools.size() == 1);
  CHECK(m.pools[0].data == built.constants.data());
  const DataLocation& r0 = m.main.operands[4].location;
  const DataLocation& r1 = m.referenced[1].operands[0].location;
  CHECK(r0.poolIndex == 0);
  CHECK(r0.offset == 0);
  CHECK(r0.length == 6);
  CHECK(r1.offset == 8);
  CHECK(r1.length == 4);
  CHECK(load<std::int16_t>(m.pools[0].data + 2) == 6);
  CHECK(load<std::int32_t>(m.pools[0].data + 8) == 9);
  // SUBGRAPH: the value is the referenced-graph index, carried in location.offset.
  CHECK(m.main.operands[5].location.offset == 1);
  CHECK(m.main.operands[5].location.length == 0);
  CHECK(m.main.operands[3].dimensions == nnhal::Vector<std::uint32_t>{2, 1});

  const BuiltModel dynamic = build_model(t, OutputDims::Unknown);
  CHECK(dynamic.model.main.operands[3].dimensions == nnhal::Vector<std::uint32_t>{0, 0});
  CHECK(dynamic.model.main.operands[6].dimensions.empty());  // scalars stay scalars
  CHECK(dynamic.model.main.operands[0].dimensions == nnhal::Vector<std::uint32_t>{2, 1});
  CHECK(dynamic.model.referenced[1].operands[1].dimensions == nnhal::Vector<std::uint32_t>{4});
}

TEST_CASE("cts builder: request pools, omitted inputs and zero-sized outputs") {
  TestModel t;
  t.main.operands.push_back(make_operand(OperandType::TENSOR_FLOAT32, {3}, OperandLifeTime::SUBGRAPH_INPUT, {1, 2, 3}));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_FLOAT32, {0}, OperandLifeTime::SUBGRAPH_INPUT));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_INT32, {1}, OperandLifeTime::SUBGRAPH_INPUT, {4}));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_FLOAT16, {2, 0}, OperandLifeTime::SUBGRAPH_OUTPUT));
  t.main.operands.push_back(make_operand(OperandType::TENSOR_QUANT8_ASYMM, {5}, OperandLifeTime::SUBGRAPH_OUTPUT));
  t.main.inputIndexes = {0, 1, 2};
  t.main.outputIndexes = {3, 4};

  const BuiltRequest r = build_request(t);
  const Request& q = r.request;
  REQUIRE(q.inputs.size() == 3);
  REQUIRE(q.outputs.size() == 2);
  REQUIRE(q.pools.size() == 2);
  CHECK(q.pools[0].memory.data == r.inputs.data());
  CHECK(q.pools[1].memory.data == r.outputs.data());

  CHECK_FALSE(q.inputs[0].hasNoValue);
  CHECK(q.inputs[0].location.poolIndex == 0);
  CHECK(q.inputs[0].location.offset == 0);
  CHECK(q.inputs[0].location.length == 12);
  CHECK(load<float>(r.inputs.data() + 4) == 2.0f);
  CHECK(q.inputs[1].hasNoValue);  // empty values: an omitted input, with an all-zero location
  CHECK(q.inputs[1].location.length == 0);
  CHECK(q.inputs[2].location.offset % 64 == 0);
  CHECK(q.inputs[2].location.length == 4);

  CHECK(q.outputs[0].location.poolIndex == 1);
  CHECK(q.outputs[0].location.length == 1);  // zero-sized, still a one-byte buffer
  CHECK(q.outputs[1].location.offset == 64);
  CHECK(q.outputs[1].location.length == 5);
  CHECK(r.output_slots[1].offset == 64);
  for (std::size_t i = 0; i < r.outputs.size(); ++i) CHECK(r.outputs.data()[i] == kOutputSentinel);
}

TEST_CASE("cts runner: which models get the dynamic-output-shape run") {
  TestModel t;
  t.main.operations.push_back(Operation{OperationType::ADD, {}, {}});
  CHECK(has_dynamic_output_run(t));
  t.expectFailure = true;
  CHECK_FALSE(has_dynamic_output_run(t));
  t.expectFailure = false;
  t.referenced.emplace_back();
  t.referenced[0].operations.push_back(Operation{OperationType::RANK, {}, {}});
  CHECK_FALSE(has_dynamic_output_run(t));
  t.referenced[0].operations[0].type = OperationType::SUB;
  t.main.operations.push_back(Operation{OperationType::IF, {}, {}});
  CHECK_FALSE(has_dynamic_output_run(t));
  t.main.operations.back().type = OperationType::WHILE;
  CHECK_FALSE(has_dynamic_output_run(t));
}
