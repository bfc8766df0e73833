// Table rows of EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION, LSTM, RNN and SVDF
// (operations.md 7, 10, 15, 16, 24, 27): types, optional-by-value inputs, and LSTM's
// optional-group rules.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
std::vector<OperandType> lstm_inputs(OperandType t, OperandType clip, bool layer_norm) {
  return concat({repeat(t, 20), {INT32, clip, clip}, repeat(t, layer_norm ? 4 : 0)});
}

/// A full (non-CIFG, peephole, projection, layer-norm) F32 LSTM whose tensors are constants;
/// tests turn inputs into NO_VALUE / SUBGRAPH_INPUT.
OneOpModel full_lstm() {
  OneOpModel m(OperationType::LSTM);
  m.in(TENSOR_FLOAT32, {1, 2}).lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  for (int i = 1; i < 20; ++i) m.in(TENSOR_FLOAT32, {2}).lifetime = OperandLifeTime::CONSTANT_COPY;
  m.ins({INT32, FLOAT32, FLOAT32});
  for (int i = 0; i < 4; ++i) m.in(TENSOR_FLOAT32, {2}).lifetime = OperandLifeTime::CONSTANT_COPY;
  m.outs(repeat(TENSOR_FLOAT32, 4));
  return m;
}
void omit(OneOpModel& m, std::initializer_list<std::size_t> inputs) {
  for (std::size_t i : inputs) m.input(i).lifetime = OperandLifeTime::NO_VALUE;
}
}  // namespace

TEST_CASE("EMBEDDING_LOOKUP and HASHTABLE_LOOKUP: value types") {
  const auto emb = OperationType::EMBEDDING_LOOKUP;
  CHECK(lowest_version(emb, {TENSOR_INT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(emb, {TENSOR_INT32, TENSOR_INT32}, {TENSOR_INT32}) == HalVersion::V1_2);
  CHECK(lowest_version(emb, {TENSOR_INT32, TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(emb, {TENSOR_INT32, TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_3);
  CHECK(lowest_version(emb, {TENSOR_INT32, TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_QUANT8_ASYMM_SIGNED}) ==
        HalVersion::V1_3);
  CHECK_FALSE(lowest_version(emb, {TENSOR_FLOAT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}));

  const auto hash = OperationType::HASHTABLE_LOOKUP;
  CHECK(find_operation(hash)->outputs.size() == 2);
  for (OperandType t : {TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM})
    CHECK(lowest_version(hash, {TENSOR_INT32, TENSOR_INT32, t}, {t, TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
  CHECK_FALSE(lowest_version(hash, {TENSOR_INT32, TENSOR_INT32, TENSOR_FLOAT16}, {TENSOR_FLOAT16, TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(hash, {TENSOR_INT32, TENSOR_INT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(hash, {TENSOR_INT32, TENSOR_INT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32, TENSOR_INT32}));
}

TEST_CASE("LSH_PROJECTION: hash type decides the version, weight optional by value") {
  const auto op = OperationType::LSH_PROJECTION;
  const OperationInfo* info = find_operation(op);
  REQUIRE(info != nullptr);
  CHECK(info->has(kOpAllowsOmitted));
  CHECK(info->inputs[2].flags == kSlotOmittable);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, INT32}, {TENSOR_INT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM, TENSOR_FLOAT32, INT32}, {TENSOR_INT32}) ==
        HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_FLOAT32, INT32}, {TENSOR_INT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, TENSOR_INT32, TENSOR_FLOAT16, INT32}, {TENSOR_INT32}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, TENSOR_INT32, TENSOR_FLOAT32, INT32}, {TENSOR_INT32}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_FLOAT32, INT32}, {TENSOR_INT32}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}));
}

TEST_CASE("RNN and SVDF: F32 1.0, F16 1.2, two outputs") {
  CHECK(find_operation(OperationType::RNN)->outputs.size() == 2);
  CHECK(lowest_version(OperationType::RNN, concat({repeat(TENSOR_FLOAT32, 5), {INT32}}),
                       repeat(TENSOR_FLOAT32, 2)) == HalVersion::V1_0);
  CHECK(lowest_version(OperationType::RNN, concat({repeat(TENSOR_FLOAT16, 5), {INT32}}),
                       repeat(TENSOR_FLOAT16, 2)) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::RNN, concat({repeat(TENSOR_FLOAT32, 5), {INT32}}), {TENSOR_FLOAT32}));

  const OperationInfo* svdf = find_operation(OperationType::SVDF);
  CHECK(svdf->has(kOpAllowsOmitted));
  CHECK(svdf->inputs[3].flags == kSlotOmittable);
  CHECK(lowest_version(OperationType::SVDF, concat({repeat(TENSOR_FLOAT32, 5), {INT32, INT32}}),
                       repeat(TENSOR_FLOAT32, 2)) == HalVersion::V1_0);
  CHECK(lowest_version(OperationType::SVDF, concat({repeat(TENSOR_FLOAT16, 5), {INT32, INT32}}),
                       repeat(TENSOR_FLOAT16, 2)) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::SVDF, concat({repeat(TENSOR_QUANT8_ASYMM, 5), {INT32, INT32}}),
                             repeat(TENSOR_QUANT8_ASYMM, 2)));
}

TEST_CASE("LSTM: 23 or 27 inputs, 4 outputs") {
  const auto op = OperationType::LSTM;
  const OperationInfo* info = find_operation(op);
  REQUIRE(info != nullptr);
  CHECK(info->inputs.size() == 27);
  CHECK(info->outputs.size() == 4);
  CHECK(info->has(kOpAllowsOmitted));
  CHECK(info->inputs[1].flags == kSlotOmittable);
  CHECK(info->inputs[2].flags == kSlotRequired);
  CHECK(info->inputs[26].flags == (kSlotOmittable | kSlotTrailing));
  const auto f32_out = repeat(TENSOR_FLOAT32, 4);
  CHECK(lowest_version(op, lstm_inputs(TENSOR_FLOAT32, FLOAT32, false), f32_out) == HalVersion::V1_0);
  CHECK(lowest_version(op, lstm_inputs(TENSOR_FLOAT32, FLOAT32, true), f32_out) == HalVersion::V1_2);
  CHECK(lowest_version(op, lstm_inputs(TENSOR_FLOAT16, FLOAT16, false), repeat(TENSOR_FLOAT16, 4)) ==
        HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, lstm_inputs(TENSOR_FLOAT16, FLOAT32, false), repeat(TENSOR_FLOAT16, 4)));
  CHECK_FALSE(lowest_version(op, concat({lstm_inputs(TENSOR_FLOAT32, FLOAT32, false), {TENSOR_FLOAT32}}), f32_out));
  CHECK_FALSE(lowest_version(op, lstm_inputs(TENSOR_FLOAT32, FLOAT32, false), repeat(TENSOR_FLOAT32, 3)));
}

TEST_CASE("LSTM validate: optional-group rules") {
  {
    auto m = full_lstm();
    CHECK(m.check());
  }
  {  // CIFG: input-to-input, recurrent-to-input, input gate bias, input layer norm, cell-to-input
    auto m = full_lstm();
    omit(m, {1, 5, 12, 23, 9});
    CHECK(m.check());
  }
  {  // partial CIFG
    auto m = full_lstm();
    omit(m, {1, 5});
    auto e = m.check();
    REQUIRE_FALSE(e);
    CHECK(e.error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  {  // CIFG with an input layer-norm weight
    auto m = full_lstm();
    omit(m, {1, 5, 12, 9});
    CHECK_FALSE(m.check());
  }
  {  // partial peephole
    auto m = full_lstm();
    omit(m, {10});
    CHECK_FALSE(m.check());
  }
  {  // no peephole at all
    auto m = full_lstm();
    omit(m, {9, 10, 11});
    CHECK(m.check());
  }
  {  // projection bias without projection weights; the reverse is fine
    auto m = full_lstm();
    omit(m, {16});
    CHECK_FALSE(m.check());
    auto n = full_lstm();
    omit(n, {17});
    CHECK(n.check());
  }
  {  // partial layer norm
    auto m = full_lstm();
    omit(m, {25});
    CHECK_FALSE(m.check());
  }
  {  // input 1 fed by the request (it may still be omitted): consistent with CIFG, left to execution
    auto m = full_lstm();
    omit(m, {5, 12, 23});
    m.input(1).lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    CHECK(m.check());
    omit(m, {9});
    CHECK(m.check());
  }
  {  // ... but a conflict among the surely known ones is still reported
    auto m = full_lstm();
    omit(m, {12});
    m.input(1).lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    CHECK_FALSE(m.check());
  }
}
