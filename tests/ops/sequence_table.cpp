// Table rows of the sequence operations (operations.md 42, 43, 73, 92, 93, 95): input counts,
// output counts that select the version, optional-by-value inputs, and the optional-group rules
// (CIFG, peephole, layer norm, auxiliary inputs) validate checks from operand lifetimes.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
/// An operation whose tensor inputs are constants (so surely present) except input 0.
OneOpModel constant_tensors(OperationType op, const std::vector<OperandType>& ins,
                            const std::vector<OperandType>& outs) {
  OneOpModel m(op);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const bool tensor = ins[i] != INT32 && ins[i] != FLOAT32 && ins[i] != FLOAT16 && ins[i] != BOOL;
    Operand& o =
        m.in(ins[i], tensor ? std::vector<std::uint32_t>{2} : std::vector<std::uint32_t>{});
    o.lifetime = i == 0 ? OperandLifeTime::SUBGRAPH_INPUT : OperandLifeTime::CONSTANT_COPY;
  }
  m.outs(outs);
  return m;
}
void omit(OneOpModel& m, std::initializer_list<std::size_t> inputs) {
  for (std::size_t i : inputs) m.input(i).lifetime = OperandLifeTime::NO_VALUE;
}
bool rejected(const OneOpModel& m) {
  auto r = m.check();
  return !r.has_value() && r.error().status() == ErrorStatus::INVALID_ARGUMENT;
}

std::vector<OperandType> uni_lstm(OperandType t, OperandType f) {
  return concat({repeat(t, 20), {INT32, f, f, BOOL}, repeat(t, 4)});
}
std::vector<OperandType> bi_lstm(OperandType t, OperandType f) {
  return concat({repeat(t, 48), {INT32, f, f, BOOL, BOOL}, repeat(t, 8)});
}
std::vector<OperandType> qlstm() {
  return concat({{TENSOR_QUANT8_ASYMM_SIGNED},
                 repeat(TENSOR_QUANT8_SYMM, 8),
                 repeat(TENSOR_QUANT16_SYMM, 3),
                 repeat(TENSOR_INT32, 4),
                 {TENSOR_QUANT8_SYMM, TENSOR_INT32, TENSOR_QUANT8_ASYMM_SIGNED},
                 repeat(TENSOR_QUANT16_SYMM, 5),
                 repeat(FLOAT32, 6),
                 {INT32, FLOAT32}});
}
const std::vector<OperandType> kQlstmOuts{TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_SYMM,
                                          TENSOR_QUANT8_ASYMM_SIGNED};
}  // namespace

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_RNN: 1 output 1.2, 2 outputs 1.3") {
  const auto op = OperationType::UNIDIRECTIONAL_SEQUENCE_RNN;
  for (OperandType t : {TENSOR_FLOAT16, TENSOR_FLOAT32}) {
    const auto ins = concat({repeat(t, 5), {INT32, INT32}});
    CHECK(lowest_version(op, ins, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(op, ins, {t, t}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, ins, {t, t, t}));
    CHECK_FALSE(lowest_version(op, concat({repeat(t, 5), {INT32, BOOL}}), {t}));
  }
  CHECK_FALSE(lowest_version(op, concat({repeat(TENSOR_QUANT8_ASYMM, 5), {INT32, INT32}}),
                             {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_RNN: 1-2 outputs 1.2, 3-4 outputs 1.3, auxiliary rules") {
  const auto op = OperationType::BIDIRECTIONAL_SEQUENCE_RNN;
  const OperationInfo* info = find_operation(op);
  CHECK(info->has(kOpAllowsOmitted));
  CHECK(info->inputs[9].flags == kSlotOmittable);
  const auto ins = concat({repeat(TENSOR_FLOAT32, 12), {INT32, BOOL, BOOL}});
  CHECK(lowest_version(op, ins, repeat(TENSOR_FLOAT32, 1)) == HalVersion::V1_2);
  CHECK(lowest_version(op, ins, repeat(TENSOR_FLOAT32, 2)) == HalVersion::V1_2);
  CHECK(lowest_version(op, ins, repeat(TENSOR_FLOAT32, 3)) == HalVersion::V1_3);
  CHECK(lowest_version(op, ins, repeat(TENSOR_FLOAT32, 4)) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, ins, repeat(TENSOR_FLOAT32, 5)));

  OneOpModel m = constant_tensors(op, ins, repeat(TENSOR_FLOAT32, 2));
  CHECK(m.check().value() == HalVersion::V1_2);  // cross linking
  omit(m, {10, 11});
  CHECK(m.check().value() == HalVersion::V1_2);  // parallel linking
  omit(m, {9});
  CHECK(m.check().value() == HalVersion::V1_2);  // no auxiliary input
  m.input(10).lifetime = OperandLifeTime::CONSTANT_COPY;
  CHECK(rejected(m));  // fw auxiliary weights only
  m.input(11).lifetime = OperandLifeTime::CONSTANT_COPY;
  CHECK(rejected(m));  // auxiliary weights without the auxiliary input
  m.input(9).lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  CHECK(m.check().value() == HalVersion::V1_2);  // the request decides
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM: 28 inputs, 1 or 3 outputs, optional groups") {
  const auto op = OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM;
  const OperationInfo* info = find_operation(op);
  CHECK(info->inputs.size() == 28);
  CHECK(info->has(kOpAllowsOmitted));
  CHECK(info->inputs[1].flags == kSlotOmittable);
  CHECK(info->inputs[2].flags == kSlotRequired);
  CHECK(info->inputs[24].flags == kSlotOmittable);
  CHECK(lowest_version(op, uni_lstm(TENSOR_FLOAT32, FLOAT32), {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, uni_lstm(TENSOR_FLOAT16, FLOAT16), repeat(TENSOR_FLOAT16, 3)) ==
        HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, uni_lstm(TENSOR_FLOAT16, FLOAT32), {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, uni_lstm(TENSOR_FLOAT32, FLOAT32), repeat(TENSOR_FLOAT32, 2)));
  CHECK_FALSE(lowest_version(op,
                             concat({repeat(TENSOR_FLOAT32, 20), {INT32, FLOAT32, FLOAT32, BOOL}}),
                             {TENSOR_FLOAT32}));  // the layer-norm inputs are always listed

  OneOpModel m = constant_tensors(op, uni_lstm(TENSOR_FLOAT32, FLOAT32), {TENSOR_FLOAT32});
  CHECK(m.check().value() == HalVersion::V1_2);
  omit(m, {1, 5, 12, 24});  // CIFG with layer norm
  CHECK(m.check().value() == HalVersion::V1_2);
  omit(m, {9});  // cell-to-input omitted too: still fine under CIFG
  CHECK(m.check().value() == HalVersion::V1_2);
  omit(m, {25});  // forget layer norm omitted while cell/output given
  CHECK(rejected(m));

  OneOpModel cifg = constant_tensors(op, uni_lstm(TENSOR_FLOAT32, FLOAT32), {TENSOR_FLOAT32});
  omit(cifg, {1, 5, 24});  // CIFG but the input gate bias (12) is given
  CHECK(rejected(cifg));
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_LSTM: 61 inputs; 1, 2 (1.2) or 5, 6 (1.3) outputs") {
  const auto op = OperationType::BIDIRECTIONAL_SEQUENCE_LSTM;
  const OperationInfo* info = find_operation(op);
  CHECK(info->inputs.size() == 61);
  CHECK(info->has(kOpAllowsOmitted));
  for (std::size_t i : {1u, 5u, 9u, 12u, 16u, 17u, 18u, 22u, 33u, 34u, 39u, 40u, 47u, 53u, 60u})
    CHECK(info->inputs[i].flags == kSlotOmittable);
  for (std::size_t i : {0u, 2u, 13u, 19u, 35u, 38u, 48u, 52u})
    CHECK(info->inputs[i].flags == kSlotRequired);
  for (auto [t, f] : {std::pair{TENSOR_FLOAT32, FLOAT32}, std::pair{TENSOR_FLOAT16, FLOAT16}}) {
    CHECK(lowest_version(op, bi_lstm(t, f), repeat(t, 1)) == HalVersion::V1_2);
    CHECK(lowest_version(op, bi_lstm(t, f), repeat(t, 2)) == HalVersion::V1_2);
    CHECK(lowest_version(op, bi_lstm(t, f), repeat(t, 5)) == HalVersion::V1_3);
    CHECK(lowest_version(op, bi_lstm(t, f), repeat(t, 6)) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, bi_lstm(t, f), repeat(t, 3)));
    CHECK_FALSE(lowest_version(op, bi_lstm(t, f), repeat(t, 4)));
  }
  CHECK_FALSE(lowest_version(op, bi_lstm(TENSOR_FLOAT32, FLOAT16), {TENSOR_FLOAT32}));
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_LSTM: per-direction groups and auxiliary rules") {
  const auto op = OperationType::BIDIRECTIONAL_SEQUENCE_LSTM;
  const auto make = [&] {
    return constant_tensors(op, bi_lstm(TENSOR_FLOAT32, FLOAT32), repeat(TENSOR_FLOAT32, 2));
  };
  OneOpModel full = make();
  CHECK(full.check().value() == HalVersion::V1_2);

  OneOpModel bw_peephole = make();
  omit(bw_peephole, {27});  // backward cell-to-forget only
  CHECK(rejected(bw_peephole));

  OneOpModel fw_cifg = make();
  omit(fw_cifg, {1, 5, 12, 53});  // forward CIFG, its auxiliary input-gate weights (40) given
  CHECK(rejected(fw_cifg));
  omit(fw_cifg, {40});
  CHECK(fw_cifg.check().value() == HalVersion::V1_2);

  OneOpModel parallel = make();
  omit(parallel, {40, 41, 42, 43, 44, 45, 46, 47});  // auxiliary input without weights
  CHECK(parallel.check().value() == HalVersion::V1_2);
  omit(parallel, {39});  // no auxiliary tensors at all
  CHECK(parallel.check().value() == HalVersion::V1_2);

  OneOpModel one_sided = make();
  omit(one_sided, {44, 45, 46, 47});  // forward auxiliary weights only
  CHECK(rejected(one_sided));

  OneOpModel no_aux_input = make();
  omit(no_aux_input, {39});  // weights given, auxiliary input omitted
  CHECK(rejected(no_aux_input));
}

TEST_CASE("QUANTIZED_16BIT_LSTM: the one 1.2 type combination") {
  const auto op = OperationType::QUANTIZED_16BIT_LSTM;
  CHECK_FALSE(find_operation(op)->has(kOpAllowsOmitted));
  const auto ins = concat({repeat(TENSOR_QUANT8_ASYMM, 9),
                           repeat(TENSOR_INT32, 4),
                           {TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM}});
  CHECK(lowest_version(op, ins, {TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, ins, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT16_SYMM}));
  auto bad = ins;
  bad[0] = TENSOR_QUANT8_ASYMM_SIGNED;
  CHECK_FALSE(lowest_version(op, bad, {TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("QUANTIZED_LSTM: 32 inputs, 3 outputs, 1.3, optional groups") {
  const auto op = OperationType::QUANTIZED_LSTM;
  const OperationInfo* info = find_operation(op);
  CHECK(info->inputs.size() == 32);
  CHECK(info->outputs.size() == 3);
  CHECK(info->has(kOpAllowsOmitted));
  CHECK(lowest_version(op, qlstm(), kQlstmOuts) == HalVersion::V1_3);
  auto bad = qlstm();
  bad[1] = TENSOR_QUANT8_ASYMM;
  CHECK_FALSE(lowest_version(op, bad, kQlstmOuts));
  CHECK_FALSE(lowest_version(op, qlstm(), {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_SYMM}));

  OneOpModel m = constant_tensors(op, qlstm(), kQlstmOuts);
  CHECK(m.check().value() == HalVersion::V1_3);
  omit(m, {1, 5, 12, 20});  // CIFG, layer norm without the input gate's
  CHECK(m.check().value() == HalVersion::V1_3);
  omit(m, {5});
  m.input(1).lifetime =
      OperandLifeTime::CONSTANT_COPY;  // input-to-input without recurrent-to-input
  CHECK(rejected(m));
}
