// Malformed models (HAL13.md d.4, e.1-e.3): every defect must be reported as INVALID_ARGUMENT with
// a message naming the subgraph, operation and operand, never crash, hang or read out of bounds.
// Each SUBCASE starts from a valid fixture (model_fixtures.hpp) and breaks exactly one rule.

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/support.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::model_suite {

namespace {

constexpr auto kTemp = OperandLifeTime::TEMPORARY_VARIABLE;

/// Field-by-field equality of two models (Model has no operator==).
bool same_operand(const Operand& a, const Operand& b) {
  if (a.type != b.type || a.dimensions != b.dimensions || a.numberOfConsumers != b.numberOfConsumers ||
      std::memcmp(&a.scale, &b.scale, sizeof a.scale) != 0 || a.zeroPoint != b.zeroPoint ||
      a.lifetime != b.lifetime || a.location.poolIndex != b.location.poolIndex ||
      a.location.offset != b.location.offset || a.location.length != b.location.length ||
      a.channelQuant.has_value() != b.channelQuant.has_value())
    return false;
  if (a.channelQuant && (a.channelQuant->channelDim != b.channelQuant->channelDim ||
                         a.channelQuant->scales != b.channelQuant->scales))
    return false;
  return true;
}

bool same_subgraph(const Subgraph& a, const Subgraph& b) {
  if (a.operands.size() != b.operands.size() || a.operations.size() != b.operations.size() ||
      a.inputIndexes != b.inputIndexes || a.outputIndexes != b.outputIndexes)
    return false;
  for (std::size_t i = 0; i < a.operands.size(); ++i)
    if (!same_operand(a.operands[i], b.operands[i])) return false;
  for (std::size_t i = 0; i < a.operations.size(); ++i)
    if (a.operations[i].type != b.operations[i].type || a.operations[i].inputs != b.operations[i].inputs ||
        a.operations[i].outputs != b.operations[i].outputs)
      return false;
  return true;
}

bool same_model(const Model& a, const Model& b) {
  if (!same_subgraph(a.main, b.main) || a.referenced.size() != b.referenced.size() ||
      a.operandValues != b.operandValues || a.pools.size() != b.pools.size() ||
      a.relaxComputationFloat32toFloat16 != b.relaxComputationFloat32toFloat16)
    return false;
  for (std::size_t i = 0; i < a.referenced.size(); ++i)
    if (!same_subgraph(a.referenced[i], b.referenced[i])) return false;
  for (std::size_t i = 0; i < a.pools.size(); ++i)
    if (a.pools[i].data != b.pools[i].data || a.pools[i].size != b.pools[i].size) return false;
  return true;
}

/// A per-channel operand [2, 3] with channelDim 0 and two positive scales.
Operand per_channel_operand() {
  Operand op = make_operand(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 3}, kInput);
  op.channelQuant = SymmPerChannelQuantParams{{0.5f, 0.25f}, 0};
  return op;
}

}  // namespace

// =============================================================================================
// The fixtures themselves are valid.
// =============================================================================================

TEST_CASE("malformed model: the fixtures are valid") {
  SUBCASE("ADD") {
    auto f = add_model();
    auto v = validate_model(f.model);
    REQUIRE(v.has_value());
    CHECK(*v == HalVersion::V1_0);
  }
  SUBCASE("ADD chain") { check_model_valid(add_chain_model().model); }
  SUBCASE("CONSTANT_REFERENCE") { check_model_valid(constant_reference_model().model); }
  SUBCASE("IF") {
    auto f = if_model();
    auto v = validate_model(f.model);
    REQUIRE(v.has_value());
    CHECK(*v == HalVersion::V1_3);
  }
  SUBCASE("WHILE") {
    auto f = while_model();
    check_model_valid(f.model);
    check_model_valid(f.model, ValidationOptions{.allow_runtime_only = false});
  }
  SUBCASE("IF chain") { check_model_valid(if_chain_model(3).model); }
  SUBCASE("per-channel operand") {
    auto f = add_model();
    f.model.main.operands.push_back(per_channel_operand());
    f.model.main.inputIndexes.push_back(4);
    check_model_valid(f.model);
  }
  SUBCASE("supported_operations and prepare accept the ADD model") {
    auto f = add_model();
    auto s = supported_operations(f.model);
    REQUIRE(s.has_value());
    CHECK(*s == std::vector<bool>{true});
    CHECK(PreparedModel::prepare(f.model).has_value());
  }
}

// =============================================================================================
// e.2 Operand rules
// =============================================================================================

TEST_CASE("malformed model: operand type and lifetime codes") {
  auto f = add_model();
  auto& ops = f.model.main.operands;
  SUBCASE("type 16 (first code past SUBGRAPH)") {
    ops[3].type = static_cast<OperandType>(16);
    check_model_invalid(f.model, {"main", "operand 3", "invalid operand type 16"});
  }
  SUBCASE("type -1") {
    ops[0].type = static_cast<OperandType>(-1);
    check_model_invalid(f.model, {"main", "operand 0", "invalid operand type -1"});
  }
  SUBCASE("type 9999 (between fundamental and OEM)") {
    ops[1].type = static_cast<OperandType>(9999);
    check_model_invalid(f.model, {"operand 1", "invalid operand type 9999"});
  }
  SUBCASE("type 0x10000 (an extension type without a registered extension)") {
    ops[1].type = static_cast<OperandType>(0x10000);
    check_model_invalid(f.model, {"operand 1", "extension operand type 0x10000 (prefix 1) has no registered extension"});
  }
  SUBCASE("type INT32_MIN") {
    ops[2].type = static_cast<OperandType>(std::numeric_limits<std::int32_t>::min());
    check_model_invalid(f.model, {"operand 2", "invalid operand type"});
  }
  SUBCASE("lifetime 7 (canonical POINTER is not HAL 1.3)") {
    ops[3].lifetime = static_cast<OperandLifeTime>(7);
    check_model_invalid(f.model, {"main", "operand 3", "invalid lifetime 7"});
  }
  SUBCASE("lifetime -1") {
    ops[0].lifetime = static_cast<OperandLifeTime>(-1);
    check_model_invalid(f.model, {"operand 0", "invalid lifetime -1"});
  }
}

TEST_CASE("malformed model: dimensions") {
  auto f = add_model();
  auto& ops = f.model.main.operands;
  SUBCASE("scalar INT32 with dimensions") {
    ops[2].dimensions = {1};
    check_model_invalid(f.model, {"main", "operand 2", "scalar INT32 has 1 dimensions"});
  }
  SUBCASE("SUBGRAPH operand with dimensions") {
    auto g = if_model();
    g.model.main.operands[2].dimensions = {1};
    check_model_invalid(g.model, {"main", "operand 2", "scalar SUBGRAPH"});
  }
  SUBCASE("tensor byte size overflows uint32") {
    ops[0].dimensions = {65536, 65536};  // 2^32 floats
    check_model_invalid(f.model, {"operand 0", "overflows"});
  }
  SUBCASE("tensor byte size overflows uint32 by the element size alone") {
    ops[0].dimensions = {0x40000000u};  // 2^30 floats = 2^32 bytes
    check_model_invalid(f.model, {"operand 0", "overflows"});
  }
  SUBCASE("tensor byte size overflows uint64 when multiplied naively") {
    ops[0].dimensions = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
    check_model_invalid(f.model, {"operand 0", "overflows"});
  }
}

TEST_CASE("malformed model: scale and zeroPoint per type") {
  auto f = add_model();
  Operand& op = f.model.main.operands[0];  // a main input: only operand rules apply first
  auto expect = [&](std::initializer_list<std::string_view> facts) {
    check_model_invalid(f.model, facts);
  };
  SUBCASE("TENSOR_FLOAT32 with scale") {
    op.scale = 0.5f;
    expect({"operand 0", "TENSOR_FLOAT32 requires scale 0"});
  }
  SUBCASE("TENSOR_FLOAT32 with zeroPoint") {
    op.zeroPoint = 3;
    expect({"operand 0", "TENSOR_FLOAT32 requires zeroPoint 0"});
  }
  SUBCASE("INT32 scalar with scale") {
    f.model.main.operands[2].scale = 1.0f;
    expect({"operand 2", "INT32 requires scale 0"});
  }
  SUBCASE("FLOAT32 with NaN scale") {
    op = make_operand(OperandType::FLOAT32, {}, kInput);
    op.scale = std::numeric_limits<float>::quiet_NaN();
    expect({"operand 0", "FLOAT32 requires scale 0"});
  }
  SUBCASE("BOOL with zeroPoint") {
    op = make_operand(OperandType::BOOL, {}, kInput);
    op.zeroPoint = 1;
    expect({"operand 0", "BOOL requires zeroPoint 0"});
  }
  SUBCASE("TENSOR_BOOL8 with scale") {
    op = make_operand(OperandType::TENSOR_BOOL8, {2}, kInput);
    op.scale = 1.0f;
    expect({"operand 0", "TENSOR_BOOL8 requires scale 0"});
  }
  SUBCASE("TENSOR_FLOAT16 with zeroPoint") {
    op = make_operand(OperandType::TENSOR_FLOAT16, {2}, kInput);
    op.zeroPoint = -1;
    expect({"operand 0", "TENSOR_FLOAT16 requires zeroPoint 0"});
  }
  SUBCASE("TENSOR_INT32 with negative scale") {
    op = make_operand(OperandType::TENSOR_INT32, {2}, kInput);
    op.scale = -0.5f;
    expect({"operand 0", "TENSOR_INT32 scale"});
  }
  SUBCASE("TENSOR_INT32 with infinite scale") {
    op = make_operand(OperandType::TENSOR_INT32, {2}, kInput);
    op.scale = std::numeric_limits<float>::infinity();
    expect({"operand 0", "TENSOR_INT32 scale"});
  }
  SUBCASE("TENSOR_INT32 with zeroPoint") {
    op = make_operand(OperandType::TENSOR_INT32, {2}, kInput);
    op.zeroPoint = 1;
    expect({"operand 0", "TENSOR_INT32 requires zeroPoint 0"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM with scale 0") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM, {2}, kInput);
    expect({"operand 0", "TENSOR_QUANT8_ASYMM requires a finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM with NaN scale") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM, {2}, kInput);
    op.scale = std::numeric_limits<float>::quiet_NaN();
    expect({"operand 0", "finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM with infinite scale") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM, {2}, kInput);
    op.scale = std::numeric_limits<float>::infinity();
    expect({"operand 0", "finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM with zeroPoint 256") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM, {2}, kInput);
    op.scale = 0.5f;
    op.zeroPoint = 256;
    expect({"operand 0", "zeroPoint 256 outside [0, 255]"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM with zeroPoint -1") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM, {2}, kInput);
    op.scale = 0.5f;
    op.zeroPoint = -1;
    expect({"operand 0", "zeroPoint -1 outside [0, 255]"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM_SIGNED with zeroPoint 128") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {2}, kInput);
    op.scale = 0.5f;
    op.zeroPoint = 128;
    expect({"operand 0", "zeroPoint 128 outside [-128, 127]"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM_SIGNED with zeroPoint -129") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {2}, kInput);
    op.scale = 0.5f;
    op.zeroPoint = -129;
    expect({"operand 0", "zeroPoint -129 outside [-128, 127]"});
  }
  SUBCASE("TENSOR_QUANT8_ASYMM_SIGNED with negative scale") {
    op = make_operand(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {2}, kInput);
    op.scale = -1.0f;
    expect({"operand 0", "TENSOR_QUANT8_ASYMM_SIGNED requires a finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT16_ASYMM with zeroPoint 65536") {
    op = make_operand(OperandType::TENSOR_QUANT16_ASYMM, {2}, kInput);
    op.scale = 0.125f;
    op.zeroPoint = 65536;
    expect({"operand 0", "zeroPoint 65536 outside [0, 65535]"});
  }
  SUBCASE("TENSOR_QUANT16_ASYMM with scale 0") {
    op = make_operand(OperandType::TENSOR_QUANT16_ASYMM, {2}, kInput);
    expect({"operand 0", "TENSOR_QUANT16_ASYMM requires a finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT16_SYMM with zeroPoint 1") {
    op = make_operand(OperandType::TENSOR_QUANT16_SYMM, {2}, kInput);
    op.scale = 0.125f;
    op.zeroPoint = 1;
    expect({"operand 0", "TENSOR_QUANT16_SYMM requires zeroPoint 0"});
  }
  SUBCASE("TENSOR_QUANT16_SYMM with scale 0") {
    op = make_operand(OperandType::TENSOR_QUANT16_SYMM, {2}, kInput);
    expect({"operand 0", "TENSOR_QUANT16_SYMM requires a finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT8_SYMM with negative scale") {
    op = make_operand(OperandType::TENSOR_QUANT8_SYMM, {2}, kInput);
    op.scale = -0.25f;
    expect({"operand 0", "TENSOR_QUANT8_SYMM requires a finite scale > 0"});
  }
  SUBCASE("TENSOR_QUANT8_SYMM with zeroPoint") {
    op = make_operand(OperandType::TENSOR_QUANT8_SYMM, {2}, kInput);
    op.scale = 0.25f;
    op.zeroPoint = -3;
    expect({"operand 0", "TENSOR_QUANT8_SYMM requires zeroPoint 0"});
  }
  SUBCASE("TENSOR_QUANT8_SYMM_PER_CHANNEL with a scalar scale") {
    op = per_channel_operand();
    op.scale = 1.0f;
    expect({"operand 0", "TENSOR_QUANT8_SYMM_PER_CHANNEL requires scale 0"});
  }
  SUBCASE("SUBGRAPH operand with scale") {
    auto g = if_model();
    g.model.main.operands[3].scale = 1.0f;
    check_model_invalid(g.model, {"main", "operand 3", "SUBGRAPH requires scale 0"});
  }
}

TEST_CASE("malformed model: per-channel quantization parameters") {
  auto f = add_model();
  f.model.main.operands[0] = per_channel_operand();
  Operand& op = f.model.main.operands[0];
  SUBCASE("channelQuant missing") {
    op.channelQuant.reset();
    check_model_invalid(f.model, {"operand 0", "requires channelQuant"});
  }
  SUBCASE("channelDim out of range") {
    op.channelQuant->channelDim = 2;
    check_model_invalid(f.model, {"operand 0", "channelDim 2 must be < rank 2"});
  }
  SUBCASE("channelDim huge") {
    op.channelQuant->channelDim = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"operand 0", "channelDim 4294967295"});
  }
  SUBCASE("unknown rank") {
    op.dimensions.clear();
    check_model_invalid(f.model, {"operand 0", "channelDim 0 must be < rank 0"});
  }
  SUBCASE("too few scales") {
    op.channelQuant->scales = {0.5f};
    check_model_invalid(f.model, {"operand 0", "1 scales for 2 channels"});
  }
  SUBCASE("too many scales") {
    op.channelQuant->channelDim = 1;  // 3 channels
    check_model_invalid(f.model, {"operand 0", "2 scales for 3 channels"});
  }
  SUBCASE("channel dimension unknown") {
    op.dimensions = {0, 3};
    check_model_invalid(f.model, {"operand 0", "channel dimension 0 must be known"});
  }
  SUBCASE("zero scale") {
    op.channelQuant->scales[1] = 0.0f;
    check_model_invalid(f.model, {"operand 0", "channelQuant scale 1 must be finite and > 0"});
  }
  SUBCASE("negative scale") {
    op.channelQuant->scales[0] = -0.5f;
    check_model_invalid(f.model, {"operand 0", "channelQuant scale 0"});
  }
  SUBCASE("NaN scale") {
    op.channelQuant->scales[0] = std::numeric_limits<float>::quiet_NaN();
    check_model_invalid(f.model, {"operand 0", "channelQuant scale 0"});
  }
  SUBCASE("channelQuant on a non-per-channel type") {
    auto g = add_model();
    g.model.main.operands[1].channelQuant = SymmPerChannelQuantParams{{0.5f, 0.5f}, 0};
    check_model_invalid(g.model, {"operand 1", "channelQuant is only allowed on TENSOR_QUANT8_SYMM_PER_CHANNEL"});
  }
}

TEST_CASE("malformed model: constant locations") {
  SUBCASE("CONSTANT_COPY beyond operandValues") {
    auto f = add_model();
    f.model.main.operands[2].location.offset = 4;  // operandValues has 4 bytes
    check_model_invalid(f.model, {"main", "operand 2", "[4, +4) exceeds its 4-byte source"});
  }
  SUBCASE("CONSTANT_COPY offset + length overflows uint32") {
    auto f = add_model();
    f.model.main.operands[2].location.offset = 0xFFFFFFFEu;  // + 4 wraps to 2 in 32 bits
    check_model_invalid(f.model, {"operand 2", "exceeds"});
  }
  SUBCASE("CONSTANT_COPY with a pool index") {
    auto f = add_model();
    f.model.main.operands[2].location.poolIndex = 1;
    check_model_invalid(f.model, {"operand 2", "CONSTANT_COPY operand must have poolIndex 0"});
  }
  SUBCASE("CONSTANT_COPY with empty operandValues") {
    auto f = add_model();
    f.model.operandValues.clear();
    check_model_invalid(f.model, {"operand 2", "exceeds its 0-byte source"});
  }
  SUBCASE("CONSTANT_REFERENCE pool index out of range") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.poolIndex = 1;
    check_model_invalid(f.model, {"main", "operand 1", "CONSTANT_REFERENCE pool 1 of 1"});
  }
  SUBCASE("CONSTANT_REFERENCE pool index huge") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.poolIndex = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"operand 1", "CONSTANT_REFERENCE pool 4294967295"});
  }
  SUBCASE("CONSTANT_REFERENCE beyond its pool") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.offset = 28;  // 28 + 8 > 32
    check_model_invalid(f.model, {"operand 1", "[28, +8) exceeds its 32-byte source"});
  }
  SUBCASE("CONSTANT_REFERENCE offset + length overflows uint32") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.offset = 0xFFFFFFF9u;  // + 8 wraps to 1
    check_model_invalid(f.model, {"operand 1", "exceeds"});
  }
  SUBCASE("CONSTANT_REFERENCE into a pool without memory") {
    auto f = constant_reference_model();
    f.model.pools[0].data = nullptr;
    check_model_invalid(f.model, {"operand 1", "memory pool 0 has no data"});
  }
  SUBCASE("CONSTANT_REFERENCE into a pool of size 0") {
    auto f = constant_reference_model();
    f.model.pools[0].size = 0;
    check_model_invalid(f.model, {"operand 1", "exceeds its 0-byte source"});
  }
  SUBCASE("constant length larger than its data size") {
    auto f = add_model();
    f.model.operandValues.resize(16);
    f.model.main.operands[2].location.length = 8;
    check_model_invalid(f.model, {"operand 2", "constant length 8 differs from its data size 4"});
  }
  SUBCASE("constant length smaller than its data size") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.length = 4;
    check_model_invalid(f.model, {"operand 1", "constant length 4 differs from its data size 8"});
  }
  SUBCASE("constant length 0") {
    auto f = add_model();
    f.model.main.operands[2].location.length = 0;
    check_model_invalid(f.model, {"operand 2", "constant length 0 differs"});
  }
  SUBCASE("constant tensor with an unknown dimension") {
    auto f = constant_reference_model();
    f.model.main.operands[1].dimensions = {0};
    check_model_invalid(f.model, {"operand 1", "fully specified"});
  }
  SUBCASE("constant tensor of unknown rank") {
    auto f = constant_reference_model();
    f.model.main.operands[1].dimensions.clear();
    check_model_invalid(f.model, {"operand 1", "known rank"});
  }
  SUBCASE("CONSTANT_COPY not aligned to its elements") {
    auto f = add_model();
    f.model.operandValues.resize(8);
    f.model.main.operands[2].location.offset = 1;
    check_model_invalid(f.model, {"operand 2", "constant at offset 1 is not aligned to its 4-byte elements"});
  }
  SUBCASE("CONSTANT_REFERENCE not aligned to its elements") {
    auto f = constant_reference_model();
    f.model.main.operands[1].location.offset = 6;
    check_model_invalid(f.model, {"operand 1", "constant at offset 6 is not aligned to its 4-byte elements"});
  }
  SUBCASE("constant tensor whose size overflows") {
    auto f = constant_reference_model();
    f.model.main.operands[1].dimensions = {0x10000u, 0x10000u};
    check_model_invalid(f.model, {"operand 1", "overflows"});
  }
}

TEST_CASE("malformed model: locations of non-constant operands") {
  SUBCASE("TEMPORARY_VARIABLE with an offset") {
    auto f = add_chain_model();
    f.model.main.operands[2].location.offset = 4;
    check_model_invalid(f.model, {"main", "operand 2", "TEMPORARY_VARIABLE operand must have an empty location"});
  }
  SUBCASE("TEMPORARY_VARIABLE with a length") {
    auto f = add_chain_model();
    f.model.main.operands[2].location.length = 8;
    check_model_invalid(f.model, {"operand 2", "TEMPORARY_VARIABLE operand must have an empty location"});
  }
  SUBCASE("SUBGRAPH_INPUT with a pool index") {
    auto f = add_model();
    f.model.main.operands[0].location.poolIndex = 1;
    check_model_invalid(f.model, {"operand 0", "SUBGRAPH_INPUT operand must have an empty location"});
  }
  SUBCASE("SUBGRAPH_OUTPUT with a length") {
    auto f = add_model();
    f.model.main.operands[3].location.length = 8;
    check_model_invalid(f.model, {"operand 3", "SUBGRAPH_OUTPUT operand must have an empty location"});
  }
  SUBCASE("NO_VALUE with an offset") {
    auto f = add_model();
    Operand nv = f32_tensor({2}, OperandLifeTime::NO_VALUE);
    nv.location.offset = 1;
    f.model.main.operands.push_back(nv);
    check_model_invalid(f.model, {"operand 4", "NO_VALUE operand must have an empty location"});
  }
}

TEST_CASE("malformed model: SUBGRAPH type and lifetime") {
  SUBCASE("SUBGRAPH type with CONSTANT_COPY lifetime") {
    auto f = if_model();
    f.model.main.operands[2].lifetime = OperandLifeTime::CONSTANT_COPY;
    check_model_invalid(f.model, {"main", "operand 2", "type SUBGRAPH and lifetime SUBGRAPH must go together"});
  }
  SUBCASE("SUBGRAPH type with TEMPORARY_VARIABLE lifetime") {
    auto f = if_model();
    f.model.main.operands[3].lifetime = kTemp;
    f.model.main.operands[3].location = {};
    check_model_invalid(f.model, {"operand 3", "must go together"});
  }
  SUBCASE("SUBGRAPH lifetime with a tensor type") {
    auto f = if_model();
    f.model.main.operands[2].type = OperandType::TENSOR_FLOAT32;
    check_model_invalid(f.model, {"operand 2", "must go together"});
  }
  SUBCASE("SUBGRAPH lifetime with INT32 type") {
    auto f = if_model();
    f.model.main.operands[2].type = OperandType::INT32;
    check_model_invalid(f.model, {"operand 2", "must go together"});
  }
  SUBCASE("SUBGRAPH offset out of range") {
    auto f = if_model();
    f.model.main.operands[3].location.offset = 2;
    check_model_invalid(f.model, {"main", "operand 3", "refers to subgraph 2 of 2"});
  }
  SUBCASE("SUBGRAPH offset huge") {
    auto f = if_model();
    f.model.main.operands[2].location.offset = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"operand 2", "refers to subgraph 4294967295 of 2"});
  }
  SUBCASE("SUBGRAPH operand in a model without referenced subgraphs") {
    auto f = add_model();
    f.model.main.operands.push_back(subgraph_ref(0));
    check_model_invalid(f.model, {"operand 4", "refers to subgraph 0 of 0"});
  }
  SUBCASE("SUBGRAPH operand with a length") {
    auto f = if_model();
    f.model.main.operands[2].location.length = 1;
    check_model_invalid(f.model, {"operand 2", "SUBGRAPH operand must have poolIndex 0 and length 0"});
  }
  SUBCASE("SUBGRAPH operand with a pool index") {
    auto f = if_model();
    f.model.main.operands[3].location.poolIndex = 1;
    check_model_invalid(f.model, {"operand 3", "poolIndex 0 and length 0"});
  }
}

// =============================================================================================
// e.1 Subgraph structure
// =============================================================================================

TEST_CASE("malformed model: empty main") {
  SUBCASE("no operands") {
    Model m;
    check_model_invalid(m, {"main", "has no operands"});
  }
  SUBCASE("no operations") {
    auto f = add_model();
    f.model.main.operations.clear();
    check_model_invalid(f.model, {"main", "has no operations"});
  }
}

TEST_CASE("malformed model: inputIndexes and outputIndexes") {
  auto f = add_model();
  Subgraph& main = f.model.main;
  SUBCASE("input index out of range") {
    main.inputIndexes[1] = 4;
    check_model_invalid(f.model, {"main", "inputIndexes[1] = 4 is not an operand index"});
  }
  SUBCASE("input index UINT32_MAX") {
    main.inputIndexes[0] = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"inputIndexes[0] = 4294967295"});
  }
  SUBCASE("input index names a constant") {
    main.inputIndexes[1] = 2;
    check_model_invalid(f.model, {"inputIndexes[1]", "operand 2 has lifetime CONSTANT_COPY, expected SUBGRAPH_INPUT"});
  }
  SUBCASE("input index names an output") {
    main.inputIndexes.push_back(3);
    check_model_invalid(f.model, {"inputIndexes[2]", "operand 3 has lifetime SUBGRAPH_OUTPUT"});
  }
  SUBCASE("input listed twice") {
    main.inputIndexes = {0, 1, 0};
    check_model_invalid(f.model, {"inputIndexes[2]", "operand 0 is listed twice"});
  }
  SUBCASE("SUBGRAPH_INPUT operand not listed") {
    main.inputIndexes = {0};
    check_model_invalid(f.model, {"main", "operand 1 is SUBGRAPH_INPUT but not listed in inputIndexes"});
  }
  SUBCASE("output index out of range") {
    main.outputIndexes[0] = 7;
    check_model_invalid(f.model, {"main", "outputIndexes[0] = 7 is not an operand index"});
  }
  SUBCASE("output index names an input") {
    main.outputIndexes.push_back(0);
    check_model_invalid(f.model, {"outputIndexes[1]", "operand 0 has lifetime SUBGRAPH_INPUT, expected SUBGRAPH_OUTPUT"});
  }
  SUBCASE("output listed twice") {
    main.outputIndexes = {3, 3};
    check_model_invalid(f.model, {"outputIndexes[1]", "operand 3 is listed twice"});
  }
  SUBCASE("SUBGRAPH_OUTPUT operand not listed") {
    main.outputIndexes.clear();
    check_model_invalid(f.model, {"operand 3 is SUBGRAPH_OUTPUT but not listed in outputIndexes"});
  }
  SUBCASE("referenced subgraph input not listed") {
    auto g = if_model();
    g.model.referenced[1].inputIndexes.clear();
    // main's IF sees an else branch with no inputs first.
    check_model_invalid(g.model, {"main", "operation 0 (IF)", "else branch has 0 inputs"});
  }
}

TEST_CASE("malformed model: operation operand indexes") {
  auto f = add_model();
  Operation& op = f.model.main.operations[0];
  SUBCASE("input index out of range") {
    op.inputs[1] = 42;
    check_model_invalid(f.model, {"main", "operation 0 (ADD)", "input 1 refers to operand 42 of 4"});
  }
  SUBCASE("input index UINT32_MAX") {
    op.inputs[2] = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"operation 0 (ADD)", "input 2 refers to operand 4294967295"});
  }
  SUBCASE("output index out of range") {
    op.outputs[0] = 4;
    check_model_invalid(f.model, {"operation 0 (ADD)", "output 0 refers to operand 4 of 4"});
  }
}

TEST_CASE("malformed model: execution order and writers") {
  SUBCASE("read before write (operations out of order)") {
    auto f = add_chain_model();
    std::swap(f.model.main.operations[0], f.model.main.operations[1]);
    check_model_invalid(f.model, {"main", "operation 0 (ADD)", "input 0 (operand 2) is read before it is written"});
  }
  SUBCASE("an operation reading its own output") {
    auto f = add_chain_model();
    f.model.main.operations[0].inputs[1] = 2;
    fix_consumers(f.model);
    check_model_invalid(f.model, {"operation 0 (ADD)", "input 1 (operand 2) is read before it is written"});
  }
  SUBCASE("operand written twice") {
    auto f = add_chain_model();
    f.model.main.operations[1].outputs[0] = 2;
    f.model.main.operations.push_back(Operation{OperationType::ADD, {2, 0, 1}, {3}});
    fix_consumers(f.model);
    check_model_invalid(f.model, {"operation 1 (ADD)", "output 0 (operand 2, TEMPORARY_VARIABLE) is already written"});
  }
  SUBCASE("output writes a subgraph input") {
    auto f = add_model();
    f.model.main.operations[0].outputs[0] = 0;
    check_model_invalid(f.model, {"operation 0 (ADD)", "output 0 (operand 0, SUBGRAPH_INPUT) is already written"});
  }
  SUBCASE("output writes a constant") {
    auto f = add_model();
    f.model.main.operations[0].outputs[0] = 2;
    check_model_invalid(f.model, {"operation 0 (ADD)", "operand 2, CONSTANT_COPY) is already written"});
  }
  SUBCASE("output writes a CONSTANT_REFERENCE") {
    auto f = constant_reference_model();
    f.model.main.operations[0].outputs[0] = 1;
    check_model_invalid(f.model, {"operation 0 (ADD)", "operand 1, CONSTANT_REFERENCE) is already written"});
  }
  SUBCASE("output writes a NO_VALUE operand") {
    auto f = add_model();
    f.model.main.operands.push_back(f32_tensor({2}, OperandLifeTime::NO_VALUE));
    f.model.main.operations[0].outputs[0] = 4;
    check_model_invalid(f.model, {"operation 0 (ADD)", "operand 4, NO_VALUE) is already written"});
  }
  SUBCASE("output writes a SUBGRAPH operand") {
    auto f = if_model();
    f.model.main.operations[0].outputs[0] = 3;
    check_model_invalid(f.model, {"operation 0 (IF)", "operand 3, SUBGRAPH) is already written"});
  }
  SUBCASE("NO_VALUE operand in a required input slot") {
    auto f = add_model();
    f.model.main.operands.push_back(make_operand(OperandType::INT32, {}, OperandLifeTime::NO_VALUE));
    f.model.main.operations[0].inputs[2] = 4;
    fix_consumers(f.model);
    check_model_invalid(f.model, {"operation 0 (ADD)", "input 2 (operand 4) has no value but is required"});
  }
  SUBCASE("temporary never written") {
    auto f = add_model();
    f.model.main.operands.push_back(f32_tensor({2}));
    check_model_invalid(f.model, {"main", "operand 4 is never written"});
  }
  SUBCASE("subgraph output never written") {
    auto f = add_chain_model();
    f.model.main.operations.pop_back();
    fix_consumers(f.model);
    check_model_invalid(f.model, {"main", "operand 3 is never written"});
  }
}

TEST_CASE("malformed model: numberOfConsumers") {
  SUBCASE("too many") {
    auto f = add_model();
    f.model.main.operands[2].numberOfConsumers = 5;
    check_model_invalid(f.model, {"main", "operand 2: numberOfConsumers is 5 but 1 operation inputs read it"});
  }
  SUBCASE("too few (an operand read twice by one operation counts twice)") {
    auto f = add_chain_model();
    f.model.main.operands[0].numberOfConsumers = 2;  // read 3 times
    check_model_invalid(f.model, {"operand 0: numberOfConsumers is 2 but 3"});
  }
  SUBCASE("an output with consumers") {
    auto f = add_model();
    f.model.main.operands[3].numberOfConsumers = 1;
    check_model_invalid(f.model, {"operand 3: numberOfConsumers is 1 but 0"});
  }
  SUBCASE("in a referenced subgraph") {
    auto f = if_model();
    f.model.referenced[1].operands[0].numberOfConsumers = 0;
    check_model_invalid(f.model, {"referenced[1]", "operand 0: numberOfConsumers is 0 but 2"});
  }
}

// =============================================================================================
// e.3 Operation rules
// =============================================================================================

TEST_CASE("malformed model: unknown operation types") {
  auto f = add_model();
  OperationType& type = f.model.main.operations[0].type;
  SUBCASE("102 (BATCH_MATMUL, feature level 6)") {
    type = static_cast<OperationType>(102);
    check_model_invalid(f.model, {"main", "operation 0 has invalid type 102"});
  }
  SUBCASE("-1") {
    type = static_cast<OperationType>(-1);
    check_model_invalid(f.model, {"operation 0 has invalid type -1"});
  }
  SUBCASE("9999") {
    type = static_cast<OperationType>(9999);
    check_model_invalid(f.model, {"operation 0 has invalid type 9999"});
  }
  SUBCASE("OEM_OPERATION") {
    type = OperationType::OEM_OPERATION;
    check_model_invalid(f.model, {"operation 0 has invalid type 10000"});
  }
  SUBCASE("extension operation 0x10000 (no registered extension)") {
    type = static_cast<OperationType>(0x10000);
    check_model_invalid(f.model, {"operation 0: extension operation 0x10000 (prefix 1) has no registered extension"});
  }
  SUBCASE("INT32_MAX (an extension code whose prefix the model does not map)") {
    type = static_cast<OperationType>(std::numeric_limits<std::int32_t>::max());
    check_model_invalid(f.model, {"operation 0: extension operation 0x7fffffff (prefix 32767) has no registered extension"});
  }
  SUBCASE("negative") {
    type = static_cast<OperationType>(-1);
    check_model_invalid(f.model, {"operation 0 has invalid type -1"});
  }
}

TEST_CASE("malformed model: operation signatures") {
  auto f = add_model();
  Subgraph& main = f.model.main;
  SUBCASE("wrong input type") {
    main.operands[1].type = OperandType::TENSOR_INT32;
    check_model_invalid(f.model, {"main", "operation 0 (ADD)", "no signature accepts inputs (TENSOR_FLOAT32, TENSOR_INT32, INT32)"});
  }
  SUBCASE("wrong output type") {
    main.operands[3].type = OperandType::TENSOR_FLOAT16;
    check_model_invalid(f.model, {"operation 0 (ADD)", "outputs (TENSOR_FLOAT16)"});
  }
  SUBCASE("activation of the wrong scalar type") {
    main.operands[2].type = OperandType::UINT32;
    check_model_invalid(f.model, {"operation 0 (ADD)", "no signature accepts"});
  }
  SUBCASE("too few inputs") {
    main.operations[0].inputs = {0, 1};
    fix_consumers(main);
    main.operands[2].numberOfConsumers = 0;
    check_model_invalid(f.model, {"operation 0 (ADD)", "no signature accepts inputs (TENSOR_FLOAT32, TENSOR_FLOAT32)"});
  }
  SUBCASE("too many inputs") {
    main.operations[0].inputs = {0, 1, 2, 2};
    fix_consumers(main);
    check_model_invalid(f.model, {"operation 0 (ADD)", "no signature accepts"});
  }
  SUBCASE("no outputs") {
    main.operations[0].outputs.clear();
    main.operands[3].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    check_model_invalid(f.model, {"operation 0 (ADD)", "-> outputs ()"});
  }
  SUBCASE("two outputs") {
    main.operands.push_back(f32_tensor({2}));
    main.operations[0].outputs.push_back(4);
    check_model_invalid(f.model, {"operation 0 (ADD)", "no signature accepts"});
  }
  SUBCASE("many inputs (message is truncated, not overflowed)") {
    main.operations[0].inputs.assign(1000, 0);
    fix_consumers(main);
    main.operands[1].numberOfConsumers = 0;
    check_model_invalid(f.model, {"operation 0 (ADD)", "no signature accepts"});
  }
  SUBCASE("ADD with an input of rank 5") {
    main.operands[0].dimensions = {1, 1, 1, 1, 2};
    check_model_invalid(f.model, {"operation 0 (ADD)", "input 0 has rank 5"});
  }
  SUBCASE("quantized MUL with output scale <= input0 scale * input1 scale") {
    for (int i : {0, 1, 3}) {
      main.operands[i].type = OperandType::TENSOR_QUANT8_ASYMM;
      main.operands[i].scale = 0.5f;
      main.operands[i].zeroPoint = 128;
    }
    main.operations[0].type = OperationType::MUL;
    main.operands[3].scale = 0.25f;  // must be > 0.5 * 0.5
    check_model_invalid(f.model, {"operation 0 (MUL)", "quantized output scale 0.25 must exceed"});
    main.operands[3].scale = 0.2500001f;
    check_model_valid(f.model);
  }
}

// =============================================================================================
// d.4 IF
// =============================================================================================

TEST_CASE("malformed model: IF") {
  auto f = if_model();
  Subgraph& main = f.model.main;
  Operation& op = main.operations[0];
  SUBCASE("condition of type TENSOR_FLOAT32") {
    main.operands[0].type = OperandType::TENSOR_FLOAT32;
    check_model_invalid(f.model, {"main", "operation 0 (IF)", "input 0 (condition) must be TENSOR_BOOL8 of shape [1]"});
  }
  SUBCASE("condition of shape [2]") {
    main.operands[0].dimensions = {2};
    check_model_invalid(f.model, {"operation 0 (IF)", "input 0 (condition)"});
  }
  SUBCASE("condition of unknown shape [0]") {
    main.operands[0].dimensions = {0};
    check_model_invalid(f.model, {"operation 0 (IF)", "input 0 (condition)"});
  }
  SUBCASE("condition of rank 2") {
    main.operands[0].dimensions = {1, 1};
    check_model_invalid(f.model, {"operation 0 (IF)", "input 0 (condition)"});
  }
  SUBCASE("condition of unknown rank") {
    main.operands[0].dimensions.clear();
    check_model_invalid(f.model, {"operation 0 (IF)", "input 0 (condition)"});
  }
  SUBCASE("fewer than 3 inputs") {
    op.inputs = {0, 2};
    fix_consumers(main);
    main.operands[1].numberOfConsumers = 0;
    check_model_invalid(f.model, {"operation 0 (IF)", "IF needs at least 3 inputs and 1 output, got 2 and 1"});
  }
  SUBCASE("no outputs") {
    op.outputs.clear();
    check_model_invalid(f.model, {"operation 0 (IF)", "got 4 and 0"});
  }
  SUBCASE("then branch is not a SUBGRAPH operand") {
    op.inputs = {0, 1, 3, 1};
    fix_consumers(main);
    main.operands[2].numberOfConsumers = 0;
    check_model_invalid(f.model, {"operation 0 (IF)", "input 1 (then branch) must be a SUBGRAPH operand"});
  }
  SUBCASE("else branch is not a SUBGRAPH operand") {
    op.inputs = {0, 2, 0, 1};
    fix_consumers(main);
    check_model_invalid(f.model, {"operation 0 (IF)", "input 2 (else branch) must be a SUBGRAPH operand"});
  }
  SUBCASE("IF passes more data inputs than the branches take") {
    op.inputs.push_back(1);
    fix_consumers(main);
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch has 1 inputs but IF passes 2"});
  }
  SUBCASE("else branch takes more inputs than IF passes") {
    Subgraph& e = f.model.referenced[1];
    e.operands.push_back(f32_tensor({2}, kInput));
    e.inputIndexes.push_back(3);
    check_model_invalid(f.model, {"operation 0 (IF)", "else branch has 2 inputs but IF passes 1"});
  }
  SUBCASE("IF has more outputs than the branches") {
    main.operands.push_back(f32_tensor({2}, kOutput));
    main.outputIndexes.push_back(5);
    op.outputs.push_back(5);
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch has 1 outputs but IF has 2"});
  }
  SUBCASE("branch input of another shape") {
    main.operands[1].dimensions = {3};
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch 0 is not compatible with IF input 3"});
  }
  SUBCASE("branch input of another rank") {
    main.operands[1].dimensions = {2, 1};
    check_model_invalid(f.model, {"operation 0 (IF)", "is not compatible with IF input 3"});
  }
  SUBCASE("branch input of another type") {
    main.operands[1].type = OperandType::TENSOR_INT32;
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch 0 is not compatible with IF input 3"});
  }
  SUBCASE("else branch output of another shape") {
    f.model.referenced[1].operands[2].dimensions = {3};
    check_model_invalid(f.model, {"operation 0 (IF)", "else branch 0 is not compatible with IF output 0"});
  }
  SUBCASE("branch output with another quantization") {
    for (Subgraph* sg : {&main, &f.model.referenced[0], &f.model.referenced[1]})
      for (Operand& o : sg->operands)
        if (o.type == OperandType::TENSOR_FLOAT32) {
          o.type = OperandType::TENSOR_QUANT8_ASYMM;
          o.scale = 0.5f;
        }
    check_model_valid(f.model);
    main.operands[4].zeroPoint = 1;
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch 0 is not compatible with IF output 0"});
  }
  SUBCASE("branch inputIndexes out of range (main is checked before the branch)") {
    f.model.referenced[0].inputIndexes[0] = 99;
    check_model_invalid(f.model, {"operation 0 (IF)", "then branch 0 is not a valid operand index"});
  }
  SUBCASE("branch outputIndexes out of range") {
    f.model.referenced[1].outputIndexes[0] = 0xFFFFFFFFu;
    check_model_invalid(f.model, {"operation 0 (IF)", "else branch 0 is not a valid operand index"});
  }
  SUBCASE("a defect inside the else branch is named") {
    f.model.referenced[1].operations[0].inputs[2] = 7;
    check_model_invalid(f.model, {"referenced[1]", "operation 0 (MUL)", "input 2 refers to operand 7 of 3"});
  }
}

// =============================================================================================
// d.4 WHILE
// =============================================================================================

TEST_CASE("malformed model: WHILE") {
  auto f = while_model();
  Subgraph& main = f.model.main;
  Subgraph& cond = f.model.referenced[0];
  Subgraph& body = f.model.referenced[1];
  Operation& op = main.operations[0];
  SUBCASE("fewer than 3 inputs") {
    op.inputs = {2, 3};
    fix_consumers(main);
    check_model_invalid(f.model, {"main", "operation 0 (WHILE)", "WHILE needs at least 3 inputs and 1 output, got 2 and 1"});
  }
  SUBCASE("no outputs") {
    op.outputs.clear();
    check_model_invalid(f.model, {"operation 0 (WHILE)", "got 4 and 0"});
  }
  SUBCASE("condition is not a SUBGRAPH operand") {
    op.inputs[0] = 1;
    fix_consumers(main);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "input 0 (condition) must be a SUBGRAPH operand"});
  }
  SUBCASE("body is not a SUBGRAPH operand") {
    op.inputs[1] = 0;
    fix_consumers(main);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "input 1 (body) must be a SUBGRAPH operand"});
  }
  SUBCASE("condition output of type TENSOR_FLOAT32") {
    cond.operands[2].type = OperandType::TENSOR_FLOAT32;
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition output must be TENSOR_BOOL8 of shape [1]"});
  }
  SUBCASE("condition output of shape [2]") {
    cond.operands[2].dimensions = {2};
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition output must be TENSOR_BOOL8 of shape [1]"});
  }
  SUBCASE("condition output of unknown shape") {
    cond.operands[2].dimensions = {0};
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition output must be TENSOR_BOOL8 of shape [1]"});
  }
  SUBCASE("condition with two outputs") {
    cond.operands.push_back(make_operand(OperandType::TENSOR_BOOL8, {1}, kOutput));
    cond.outputIndexes.push_back(3);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition must have exactly 1 output, has 2"});
  }
  SUBCASE("condition output index out of range") {
    cond.outputIndexes[0] = 50;
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition output is not a valid operand index"});
  }
  SUBCASE("condition takes fewer inputs than WHILE passes") {
    cond.inputIndexes.pop_back();
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition has 1 inputs but WHILE passes 2"});
  }
  SUBCASE("body takes fewer inputs than WHILE passes") {
    body.inputIndexes.pop_back();
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body has 1 inputs but WHILE passes 2"});
  }
  SUBCASE("body has fewer outputs than WHILE") {
    main.operands.push_back(f32_tensor({1}, kOutput));
    main.outputIndexes.push_back(5);
    op.outputs.push_back(5);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body has 1 outputs, fewer than the 2 WHILE outputs"});
  }
  SUBCASE("body has more outputs than inputs") {
    body.operands.push_back(f32_tensor({1}, kOutput));
    body.operands.push_back(f32_tensor({1}, kOutput));
    body.outputIndexes = {4, 5, 6};
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body has more outputs (3) than inputs (2)"});
  }
  SUBCASE("condition input incompatible with WHILE input") {
    cond.operands[1].dimensions = {2};
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition input 1 is not compatible with WHILE input 3"});
  }
  SUBCASE("body input incompatible with WHILE input") {
    body.operands[1].type = OperandType::TENSOR_INT32;
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body input 1 is not compatible with WHILE input 3"});
  }
  SUBCASE("body output incompatible with WHILE output") {
    main.operands[4].dimensions = {2};
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body output 0 is not compatible with WHILE output 0"});
  }
  SUBCASE("body output incompatible with the body input it feeds") {
    // k = 1 state operand: body output 1 feeds body input 1, but has another shape.
    body.operands.push_back(f32_tensor({3}, kOutput));
    body.outputIndexes.push_back(5);
    body.operations.push_back(Operation{OperationType::ADD, {2, 2, 3}, {5}});
    fix_consumers(body);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body output 1 is not compatible with body input 1"});
  }
  SUBCASE("body inputIndexes out of range") {
    body.inputIndexes[1] = 1000;
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body input 1 is not a valid operand index"});
  }
  SUBCASE("condition inputIndexes out of range") {
    cond.inputIndexes[0] = 1000;
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition input 0 is not a valid operand index"});
  }
  SUBCASE("a defect inside the body is named") {
    body.operands[2].location.offset = 100;
    check_model_invalid(f.model, {"referenced[1]", "operand 2", "exceeds"});
  }
}

TEST_CASE("malformed model: WHILE operands of unknown size (strict HAL 1.3 by default)") {
  // d.4 rule 4: refused by default, naming the WHILE, the subgraph and the operand; accepted
  // as a runtime-only feature on request.
  const ValidationOptions runtime_only{.allow_runtime_only = true};
  SUBCASE("unknown WHILE input dimension") {
    auto f = while_model();
    f.model.main.operands[0].dimensions = {0};
    check_model_valid(f.model, runtime_only);
    check_model_invalid(f.model, {"main", "operation 0 (WHILE)", "WHILE input 2 (operand 0) has an unknown size (dimension 0 is 0)"});
  }
  SUBCASE("unknown rank of an input-only operand") {
    auto f = while_model();
    f.model.main.operands[1].dimensions.clear();
    check_model_valid(f.model, runtime_only);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "WHILE input 3 (operand 1) has an unknown size (unknown rank)"});
  }
  SUBCASE("unknown size of a condition input") {
    auto f = while_model();
    f.model.referenced[0].operands[1].dimensions = {0};
    check_model_valid(f.model, runtime_only);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "condition referenced[0] input 1 (operand 1) has an unknown size"});
  }
  SUBCASE("unknown size of the WHILE output") {
    auto f = while_model();
    f.model.main.operands[4].dimensions = {0};
    check_model_valid(f.model, runtime_only);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "WHILE output 0 (operand 4) has an unknown size"});
  }
  SUBCASE("unknown size of a body output") {
    auto f = while_model();
    f.model.referenced[1].operands[4].dimensions.clear();
    check_model_valid(f.model, runtime_only);
    check_model_invalid(f.model, {"operation 0 (WHILE)", "body referenced[1] output 0 (operand 4) has an unknown size (unknown rank)"});
  }
}

// =============================================================================================
// Subgraph reference cycles
// =============================================================================================

TEST_CASE("malformed model: subgraph reference cycles") {
  auto f = if_chain_model(2);
  Model& m = f.model;
  SUBCASE("direct: a subgraph whose IF refers to itself") {
    m.referenced[0] = if_forwarding_subgraph(0, 0);
    check_model_invalid(m, {"referenced[0] is part of a subgraph reference cycle"});
  }
  SUBCASE("direct, through the else branch only") {
    m.referenced[0] = if_forwarding_subgraph(1, 0);
    check_model_invalid(m, {"referenced[0] is part of a subgraph reference cycle"});
  }
  SUBCASE("indirect: 0 -> 1 -> 0") {
    m.referenced[1] = if_forwarding_subgraph(0, 0);
    check_model_invalid(m, {"is part of a subgraph reference cycle"});
  }
  SUBCASE("indirect, long: 0 -> 1 -> ... -> 99 -> 0") {
    auto g = if_chain_model(100);
    g.model.referenced[99] = if_forwarding_subgraph(0, 0);
    check_model_invalid(g.model, {"is part of a subgraph reference cycle"});
  }
  SUBCASE("a cycle among subgraphs main does not use") {
    m.referenced.push_back(if_forwarding_subgraph(3, 3));
    m.referenced.push_back(if_forwarding_subgraph(2, 2));
    check_model_invalid(m, {"is part of a subgraph reference cycle"});
  }
  SUBCASE("an unused SUBGRAPH operand referring to its own subgraph") {
    m.referenced[1].operands.push_back(subgraph_ref(1));
    check_model_invalid(m, {"referenced[1] is part of a subgraph reference cycle"});
  }
  SUBCASE("a DAG (two references to one subgraph) is not a cycle") {
    m.referenced.push_back(if_forwarding_subgraph(1, 1));
    m.referenced[0] = if_forwarding_subgraph(1, 2);
    check_model_valid(m);
  }
}

// =============================================================================================
// Nothing the caller owns is modified; robustness on large inputs.
// =============================================================================================

TEST_CASE("malformed model: validation leaves the model untouched") {
  for (auto make : {&add_model, &constant_reference_model, &if_model, &while_model}) {
    ModelFixture f = make();
    const Model copy = f.model;
    const std::vector<std::byte> pool0 =
        f.model.pools.empty() ? std::vector<std::byte>{}
                              : std::vector<std::byte>(f.model.pools[0].data, f.model.pools[0].data + f.model.pools[0].size);
    CHECK(validate_model(f.model).has_value());
    CHECK(validate_model(f.model, ValidationOptions{.allow_runtime_only = false}).has_value());
    CHECK(supported_operations(f.model).has_value());
    (void)PreparedModel::prepare(f.model);
    CHECK(same_model(f.model, copy));
    if (!f.model.pools.empty())
      CHECK(std::memcmp(pool0.data(), f.model.pools[0].data, pool0.size()) == 0);
    // And an invalid one.
    f.model.main.operands[0].numberOfConsumers += 1;
    const Model broken = f.model;
    CHECK_FALSE(validate_model(f.model).has_value());
    CHECK_FALSE(PreparedModel::prepare(f.model).has_value());
    CHECK(same_model(f.model, broken));
  }
}

TEST_CASE("malformed model: prepare and supported_operations report the same errors") {
  auto f = add_model();
  f.model.main.operands[1].zeroPoint = 9;
  auto p = PreparedModel::prepare(f.model);
  check_invalid(p, {"main", "operand 1", "zeroPoint 0"});
  auto s = supported_operations(f.model);
  check_invalid(s, {"main", "operand 1", "zeroPoint 0"});
}

TEST_CASE("malformed model: a chain of 10000 referenced subgraphs does not overflow the stack") {
  auto f = if_chain_model(10000);
  check_model_valid(f.model);
  auto s = supported_operations(f.model);
  REQUIRE(s.has_value());
  CHECK(s->size() == 1);
  // The executor has no IF yet: prepare must fail cleanly, or succeed.
  auto p = PreparedModel::prepare(f.model);
  if (!p) CHECK(p.error().status() != ErrorStatus::NONE);
  // And with a cycle at the far end.
  f.model.referenced[9999] = if_forwarding_subgraph(0, 0);
  check_model_invalid(f.model, {"is part of a subgraph reference cycle"});
}

TEST_CASE("malformed model: 10000 subgraphs each referring to every later one is fine (a DAG)") {
  // Each subgraph has two SUBGRAPH operands: a fan-in DAG that a naive recursive visit would
  // explore exponentially often.
  auto f = if_chain_model(10000);
  for (std::uint32_t i = 0; i + 2 < 10000; ++i) f.model.referenced[i] = if_forwarding_subgraph(i + 1, i + 2);
  check_model_valid(f.model);
  CHECK(supported_operations(f.model).has_value());
}

TEST_CASE("malformed model: 100000 operands validate in linear time") {
  // main: x, activation, then 99998 temporaries/outputs of a chain of ADDs.
  constexpr std::uint32_t kOperands = 100000;
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main.operands.reserve(kOperands);
  m.main.operands.push_back(f32_tensor({2}, kInput));
  m.main.operands.push_back(copy_constant(OperandType::INT32, {}, act, 4));
  for (std::uint32_t i = 2; i < kOperands; ++i) {
    m.main.operands.push_back(f32_tensor({2}, i + 1 == kOperands ? kOutput : kTemp));
    m.main.operations.push_back(Operation{OperationType::ADD, {i - 1 == 1 ? 0u : i - 1, 0, 1}, {i}});
  }
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {kOperands - 1};
  fix_consumers(m);
  check_model_valid(m);
  CHECK(supported_operations(m).has_value());
  // A defect at the very end is still found.
  m.main.operands.back().numberOfConsumers = 3;
  check_model_invalid(m, {"operand 99999: numberOfConsumers is 3 but 0"});
}

}  // namespace nnhal::test::malformed::model_suite
