// Malformed QUANTIZED_LSTM and QUANTIZED_16BIT_LSTM models: the optional-group rules of the
// QUANTIZED_LSTM row (validation, as far as lifetimes tell), and the reference's prepare checks
// that declared shapes, quantization and constant scalars already show (each model validates,
// then preparing it fails with an error naming the operation); the valid neighbour of each case
// prepares. Whole prepared models of both operations then execute, also with optional inputs
// omitted by the request, without allocating. Faults only a request shows (an optional group
// given in part at execution) are covered by the kernel tests (tests/ops/quantized_lstm.cpp).

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../support/no_allocation.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::quantized_lstm_suite {

namespace {

constexpr auto QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto QS8 = OperandType::TENSOR_QUANT8_SYMM;
constexpr auto QS16 = OperandType::TENSOR_QUANT16_SYMM;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr const char* kQ = "QUANTIZED_LSTM";
constexpr const char* k16 = "QUANTIZED_16BIT_LSTM";

/// A QUANTIZED_LSTM model: B x I input, U units, O outputs; `omit` lists the optional inputs
/// left out (NO_VALUE); every other tensor is a request input, the scalars are constants.
struct QL {
  std::uint32_t B = 2, I = 3, U = 4, O = 4;
  std::vector<std::size_t> omit{9, 10, 11, 16, 17};  // peephole and projection
  nnhal::Vector<std::uint32_t> input_dims{}, forget_dims{}, prev_out_dims{}, prev_cell_dims{};
  float cell_scale = 1.0f / 32768.0f;
  std::int32_t hidden_zp = 0;

  bool omitted(std::size_t i) const {
    for (std::size_t j : omit)
      if (j == i) return true;
    return false;
  }
  OneOp op() const {
    OneOp m(OperationType::QUANTIZED_LSTM);
    auto tensor = [&](std::size_t i, OperandType t, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f) {
      if (omitted(i))
        m.omitted(t, dims, scale);
      else
        m.tensor(t, std::move(dims), scale);
    };
    tensor(0, QAS8, input_dims.empty() ? nnhal::Vector<std::uint32_t>{B, I} : input_dims, 0.0078125f);
    for (std::size_t g = 0; g < 4; ++g)
      tensor(1 + g, QS8, g == 1 && !forget_dims.empty() ? forget_dims : nnhal::Vector<std::uint32_t>{U, I}, 0.0078f);
    for (std::size_t g = 0; g < 4; ++g) tensor(5 + g, QS8, {U, O}, 0.0078f);
    for (std::size_t i = 9; i < 12; ++i) tensor(i, QS16, {U}, 1.0f);
    for (std::size_t i = 12; i < 16; ++i) tensor(i, I32, {U});
    tensor(16, QS8, {O, U}, 0.004f);
    tensor(17, I32, {O});
    if (prev_out_dims.empty())
      tensor(18, QAS8, {B, O}, 0.0078f);
    else
      tensor(18, QAS8, prev_out_dims, 0.0078f);
    tensor(19, QS16, prev_cell_dims.empty() ? nnhal::Vector<std::uint32_t>{B, U} : prev_cell_dims, cell_scale);
    for (std::size_t i = 20; i < 24; ++i) tensor(i, QS16, {U}, 3.05e-5f);
    m.f32(0.0f).f32(0.0f).f32(0.007f).f32(0.0078f).f32(0.007f).f32(0.0078f);
    m.ints({hidden_zp}).f32(0.007f);
    m.output(QAS8, 0.0078f).output(QS16, cell_scale).output(QAS8, 0.0078f);
    return m;
  }
};

/// Turns request input `position` of the only operation into a zero-filled constant: present for
/// validation (a request input may still be omitted, so validation leaves it undecided).
Model with_constant(Model m, std::size_t position) {
  const std::uint32_t idx = m.main.operations[0].inputs[position];
  Operand& op = m.main.operands[idx];
  std::uint32_t bytes = op.type == QS16 ? 2 : (op.type == I32 ? 4 : 1);
  for (std::uint32_t d : op.dimensions) bytes *= d;
  m.operandValues.resize((m.operandValues.size() + 3) / 4 * 4);
  const auto at = static_cast<std::uint32_t>(m.operandValues.size());
  m.operandValues.resize(at + bytes);
  op.lifetime = OperandLifeTime::CONSTANT_COPY;
  op.location = {0, at, bytes};
  std::erase(m.main.inputIndexes, idx);
  return m;
}

}  // namespace

TEST_CASE("QUANTIZED_LSTM: optional groups that validation decides") {
  const QL ok;
  check_model_valid(with_constant(with_constant(ok.op().model(), 5), 12));
  // The input gate's weights and bias (CIFG when omitted) go together.
  QL cifg = ok;
  cifg.omit.push_back(1);
  check_model_invalid(with_constant(cifg.op().model(), 5), {"input gate weights and bias"});
  check_model_invalid(with_constant(cifg.op().model(), 12), {"input gate weights and bias"});
  // Peepholes: forget and output together; with the input gate, all three.
  QL peep = ok;
  peep.omit = {9, 11, 16, 17};
  check_model_invalid(with_constant(peep.op().model(), 10), {"peephole weights"});
  peep.omit = {9, 16, 17};
  check_model_invalid(with_constant(with_constant(with_constant(peep.op().model(), 1), 10), 11), {"peephole weights"});
  check_model_valid(with_constant(with_constant(peep.op().model(), 10), 11));  // input gate undecided
  // A projection bias needs projection weights.
  QL proj = ok;
  proj.omit = {9, 10, 11, 16};
  check_model_invalid(with_constant(proj.op().model(), 17), {"projection bias", "projection weights"});
  // Layer-norm weights: forget, cell and output together; with the input gate all four; under
  // CIFG no input layer-norm weights.
  QL norm = ok;
  norm.omit = {9, 10, 11, 16, 17, 22};
  check_model_invalid(with_constant(norm.op().model(), 21), {"layer-norm weights"});
  norm.omit = {9, 10, 11, 16, 17, 20};
  check_model_invalid(with_constant(with_constant(norm.op().model(), 1), 21), {"layer-norm weights"});
  norm.omit = {1, 5, 12, 9, 10, 11, 16, 17};
  check_model_invalid(with_constant(norm.op().model(), 20), {"omitted under CIFG"});
  norm.omit.push_back(20);
  check_model_valid(with_constant(norm.op().model(), 21));
  // Required inputs cannot be omitted.
  QL req = ok;
  req.omit.push_back(2);
  CHECK_FALSE(validate_model(req.op().model()).has_value());
}

TEST_CASE("QUANTIZED_LSTM: shapes and scales the reference refuses fail at prepare") {
  const QL ok;
  check_prepares(ok.op());
  QL q = ok;
  q.input_dims = {ok.B, ok.I, 1};
  check_refused(q.op(), kQ, "input 0 must have rank 2");
  q = ok;
  q.forget_dims = {ok.U, ok.I + 1};
  check_refused(q.op(), kQ, "input 2 must have shape");
  q = ok;
  q.prev_out_dims = {ok.B + 1, ok.O};
  check_refused(q.op(), kQ, "input 18 must have shape");
  q = ok;
  q.prev_cell_dims = {ok.B, ok.U + 1};
  check_refused(q.op(), kQ, "input 19 must have shape");
  q = ok;
  q.cell_scale = 0.001f;
  check_refused(q.op(), kQ, "cell state scale");
  q.cell_scale = 1.0f / 256.0f;
  check_refused(q.op(), kQ, "cell state scale");
  q = ok;
  q.hidden_zp = 300;
  check_refused(q.op(), kQ, "zero point 300");
}

namespace {

/// A QUANTIZED_16BIT_LSTM model with the fixed quantization; `tweak` changes one operand.
struct Q16 {
  std::uint32_t B = 2, I = 3, O = 4;
  float in_scale = 1.0f / 128.0f, out_scale = 1.0f / 128.0f, w2_scale = 0.01f, bias3_scale = 0.01f / 128.0f;
  float cell_scale = 1.0f / 2048.0f;
  std::int32_t in_zp = 128, w5_zp = 120;
  nnhal::Vector<std::uint32_t> w6_dims{}, bias_dims{}, cell_dims{};

  OneOp op() const {
    OneOp m(OperationType::QUANTIZED_16BIT_LSTM);
    m.tensor(QA8, {B, I}, in_scale, in_zp);
    for (std::size_t g = 0; g < 4; ++g) m.tensor(QA8, {O, I}, g == 1 ? w2_scale : 0.01f, 120);
    for (std::size_t g = 0; g < 4; ++g)
      m.tensor(QA8, g == 1 && !w6_dims.empty() ? w6_dims : nnhal::Vector<std::uint32_t>{O, O}, 0.01f, g == 0 ? w5_zp : 120);
    for (std::size_t g = 0; g < 4; ++g)
      m.tensor(I32, g == 0 && !bias_dims.empty() ? bias_dims : nnhal::Vector<std::uint32_t>{O}, g == 2 ? bias3_scale : 0.01f / 128.0f);
    m.tensor(QS16, cell_dims.empty() ? nnhal::Vector<std::uint32_t>{B, O} : cell_dims, cell_scale);
    m.tensor(QA8, {B, O}, out_scale, 128);
    m.output(QS16, 1.0f / 2048.0f).output(QA8, 1.0f / 128.0f, 128);
    return m;
  }
};

}  // namespace

TEST_CASE("QUANTIZED_16BIT_LSTM: the fixed quantization and shapes are checked at prepare") {
  const Q16 ok;
  check_prepares(ok.op());
  Q16 q = ok;
  q.in_scale = 0.01f;
  check_refused(q.op(), k16, "scale 1/128");
  q = ok;
  q.in_zp = 127;
  check_refused(q.op(), k16, "zero point 128");
  q = ok;
  q.out_scale = 1.0f / 256.0f;
  check_refused(q.op(), k16, "scale 1/128");
  q = ok;
  q.w2_scale = 0.02f;
  check_refused(q.op(), k16, "one scale");
  q = ok;
  q.w5_zp = 100;
  check_refused(q.op(), k16, "one scale and zero point");
  q = ok;
  q.bias3_scale = 0.01f;
  check_refused(q.op(), k16, "bias scale");
  q = ok;
  q.cell_scale = 1.0f / 1024.0f;
  check_refused(q.op(), k16, "2^-11");
  q = ok;
  q.w6_dims = {ok.O, ok.O + 1};
  check_refused(q.op(), k16, "input 6 must have shape");
  q = ok;
  q.bias_dims = {ok.O + 1};
  check_refused(q.op(), k16, "input 9 must have shape");
  q = ok;
  q.cell_dims = {ok.B, ok.O + 1};
  check_refused(q.op(), k16, "input 13");
}

namespace {

/// Prepares `m`, runs it with every request input filled with a byte pattern (except those in
/// `omitted`, passed as hasNoValue) into outputs of `out_bytes`, then runs it twice more and
/// checks the results repeat. Those two runs are counted to allocate nothing, also when the
/// request omits inputs (request validation once built a table per run for those: a
/// regression test).
void check_runs_without_allocating(const Model& m, std::initializer_list<std::size_t> omitted,
                                   const nnhal::Vector<std::uint32_t>& out_bytes) {
  auto prepared = PreparedModel::prepare(m);
  INFO("error: " << (prepared ? std::string("none") : std::string(prepared.error().message())));
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  RequestFixture r;
  nnhal::Vector<std::uint32_t> sizes;
  auto bytes_of = [&](std::uint32_t idx) {
    const Operand& op = m.main.operands[idx];
    std::uint32_t n = op.type == QS16 ? 2 : (op.type == I32 ? 4 : 1);
    for (std::uint32_t d : op.dimensions) n *= d;
    return n;
  };
  // Every argument starts at a multiple of 4 bytes (aligned for its elements).
  auto padded = [&](std::uint32_t idx) { return (bytes_of(idx) + 3) / 4 * 4; };
  std::uint32_t total = 0;
  for (std::uint32_t idx : m.main.inputIndexes) total += padded(idx);
  std::uint32_t out_total = 0;
  for (std::uint32_t n : out_bytes) out_total += (n + 3) / 4 * 4;
  const std::uint32_t pool = r.add_pool(total + out_total);
  std::byte* data = r.pool_data(pool);
  for (std::uint32_t i = 0; i < total; ++i) data[i] = static_cast<std::byte>((i * 37 + 11) % 251);
  std::uint32_t at = 0;
  for (std::size_t k = 0; k < m.main.inputIndexes.size(); ++k) {
    const std::uint32_t n = bytes_of(m.main.inputIndexes[k]);
    bool omit = false;
    for (std::size_t o : omitted) omit = omit || o == k;
    r.request.inputs.push_back(omit ? RequestFixture::omitted() : RequestFixture::arg(pool, at, n));
    at += padded(m.main.inputIndexes[k]);
  }
  for (std::uint32_t n : out_bytes) {
    r.request.outputs.push_back(RequestFixture::arg(pool, at, n));
    at += (n + 3) / 4 * 4;
  }
  const auto first = execution->run(r.request);
  INFO("run error: " << (first ? std::string("none") : std::string(first.error().message())));
  REQUIRE(first.has_value());
  const std::vector<std::byte> expected(data + total, data + total + out_total);
  bool varied = false;
  for (std::size_t i = 1; i < expected.size(); ++i) varied = varied || expected[i] != expected[0];
  CHECK(varied);
  nnhal::test::check_reruns_allocate_nothing(*execution, r.request);
  CHECK(std::memcmp(expected.data(), data + total, out_total) == 0);
}

/// Every optional tensor as a request input (no omissions in the model).
QL full_qlstm() {
  QL q;
  q.omit.clear();
  q.O = 3;  // with projection
  return q;
}

}  // namespace

TEST_CASE("QUANTIZED_LSTM executes without allocating; optional inputs omitted by the request run too") {
  const QL q = full_qlstm();
  const Model m = q.op().model();
  const nnhal::Vector<std::uint32_t> out{q.B * q.O, 2 * q.B * q.U, q.B * q.O};
  check_runs_without_allocating(m, {}, out);
  // Request inputs in operation order (every tensor is one): CIFG (1, 5, 12 and the input
  // layer-norm weights 20), no peephole (9..11), no projection bias (17).
  QL noproj = q;
  noproj.O = noproj.U;
  check_runs_without_allocating(noproj.op().model(), {1, 5, 12, 20, 9, 10, 11, 16, 17},
                                {noproj.B * noproj.O, 2 * noproj.B * noproj.U, noproj.B * noproj.O});
  check_runs_without_allocating(m, {1, 5, 9, 10, 11, 12, 17, 20}, out);
}

TEST_CASE("QUANTIZED_16BIT_LSTM executes without allocating") {
  const Q16 q;
  check_runs_without_allocating(q.op().model(), {}, {2 * q.B * q.O, q.B * q.O});
}

}  // namespace nnhal::test::malformed::quantized_lstm_suite
