// A counting allocator proves that executing a prepared model of the basic recurrent operations
// allocates nothing: input -> UNIDIRECTIONAL_SEQUENCE_RNN -> BIDIRECTIONAL_SEQUENCE_RNN (merged,
// with state outputs) over a sequence, and a second input -> RNN -> SVDF. Hidden states are
// constants, the float32 SIMD scratch comes from the execution's arena. Float32 and float16.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../support/no_allocation.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "validate/model_fixtures.hpp"

namespace {

using nnhal::Half;
using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace mf = nnhal::test::malformed;

/// Builds the model operand by operand, tensors of element type E (float or Half).
template <class E>
struct Net {
  static constexpr OperandType kType = sizeof(E) == 4 ? OperandType::TENSOR_FLOAT32 : OperandType::TENSOR_FLOAT16;
  Model m;
  std::uint32_t counter = 0;

  std::uint32_t add(Operand op) {
    m.main.operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(m.main.operands.size() - 1);
  }
  template <class T>
  std::uint32_t constant(OperandType type, nnhal::Vector<std::uint32_t> dims, const std::vector<T>& values) {
    const auto at = static_cast<std::uint32_t>((m.operandValues.size() + 3) / 4 * 4);
    const auto bytes = static_cast<std::uint32_t>(values.size() * sizeof(T));
    m.operandValues.resize(at + bytes);
    std::memcpy(m.operandValues.data() + at, values.data(), bytes);
    return add(mf::copy_constant(type, std::move(dims), at, bytes));
  }
  /// A constant tensor of deterministic values in [-scale, scale].
  std::uint32_t weights(nnhal::Vector<std::uint32_t> dims, float scale) {
    std::size_t n = 1;
    for (std::uint32_t d : dims) n *= d;
    std::vector<E> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = E(scale * (static_cast<float>((i * 7919 + 31 * ++counter) % 17) / 8.0f - 1.0f));
    return constant(kType, std::move(dims), v);
  }
  std::uint32_t i32(std::int32_t v) { return constant(OperandType::INT32, {}, std::vector<std::int32_t>{v}); }
  std::uint32_t flag(bool v) { return constant(OperandType::BOOL, {}, std::vector<std::uint8_t>{v ? std::uint8_t{1} : std::uint8_t{0}}); }
  std::uint32_t tensor(nnhal::Vector<std::uint32_t> dims, OperandLifeTime life) {
    return add(mf::make_operand(kType, std::move(dims), life));
  }
  std::uint32_t omitted() { return add(mf::make_operand(kType, {}, OperandLifeTime::NO_VALUE)); }
};

constexpr std::uint32_t kTime = 3, kBatch = 2, kInput = 4, kUnits = 5, kFw = 6, kBw = 4;

/// Inputs: x [3, 2, 4] (time-major), y [2, 4]. Outputs: the merged sequence [3, 2, 10], the fw and
/// bw final states, the SVDF output [2, 3].
template <class E>
Model recurrent_model() {
  Net<E> n;
  const auto temp = OperandLifeTime::TEMPORARY_VARIABLE;
  const std::uint32_t x = n.tensor({kTime, kBatch, kInput}, mf::kInput);
  const std::uint32_t y = n.tensor({kBatch, kInput}, mf::kInput);

  const std::uint32_t seq = n.tensor({kTime, kBatch, kUnits}, temp);
  n.m.main.operations.push_back({OperationType::UNIDIRECTIONAL_SEQUENCE_RNN,
                                 {x, n.weights({kUnits, kInput}, 0.5f), n.weights({kUnits, kUnits}, 0.3f),
                                  n.weights({kUnits}, 1.0f), n.weights({kBatch, kUnits}, 1.0f), n.i32(1), n.i32(1)},
                                 {seq}});

  const std::uint32_t merged = n.tensor({kTime, kBatch, kFw + kBw}, mf::kOutput);
  const std::uint32_t fw_state = n.tensor({kBatch, kFw}, mf::kOutput);
  const std::uint32_t bw_state = n.tensor({kBatch, kBw}, mf::kOutput);
  n.m.main.operations.push_back(
      {OperationType::BIDIRECTIONAL_SEQUENCE_RNN,
       {seq, n.weights({kFw, kUnits}, 0.5f), n.weights({kFw, kFw}, 0.3f), n.weights({kFw}, 1.0f),
        n.weights({kBatch, kFw}, 1.0f), n.weights({kBw, kUnits}, 0.5f), n.weights({kBw, kBw}, 0.3f),
        n.weights({kBw}, 1.0f), n.weights({kBatch, kBw}, 1.0f), n.omitted(), n.omitted(), n.omitted(), n.i32(0),
        n.flag(true), n.flag(true)},
       {merged, fw_state, bw_state}});

  const std::uint32_t h = n.tensor({kBatch, kUnits}, temp), rnn_out = n.tensor({kBatch, kUnits}, temp);
  n.m.main.operations.push_back({OperationType::RNN,
                                 {y, n.weights({kUnits, kInput}, 0.5f), n.weights({kUnits, kUnits}, 0.3f),
                                  n.weights({kUnits}, 1.0f), n.weights({kBatch, kUnits}, 1.0f), n.i32(3)},
                                 {h, rnn_out}});
  // SVDF: 3 units of rank 2 (6 filters), memory 4.
  const std::uint32_t state = n.tensor({kBatch, 24}, temp), svdf_out = n.tensor({kBatch, 3}, mf::kOutput);
  n.m.main.operations.push_back({OperationType::SVDF,
                                 {rnn_out, n.weights({6, kUnits}, 0.5f), n.weights({6, 4}, 0.5f), n.weights({3}, 1.0f),
                                  n.weights({kBatch, 24}, 1.0f), n.i32(2), n.i32(0)},
                                 {state, svdf_out}});
  // The unused temporaries (RNN's hidden state, SVDF's state) are still written.
  n.m.main.inputIndexes = {x, y};
  n.m.main.outputIndexes = {merged, fw_state, bw_state, svdf_out};
  mf::fix_consumers(n.m);
  return n.m;
}

template <class E>
void check_runs_without_allocating() {
  auto prepared = nnhal::PreparedModel::prepare(recurrent_model<E>());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());

  const std::size_t e = sizeof(E);
  const std::size_t x_bytes = kTime * kBatch * kInput * e, y_bytes = kBatch * kInput * e;
  const std::size_t out_bytes[4] = {kTime * kBatch * (kFw + kBw) * e, kBatch * kFw * e, kBatch * kBw * e, kBatch * 3 * e};
  const std::size_t outs = out_bytes[0] + out_bytes[1] + out_bytes[2] + out_bytes[3];
  mf::RequestFixture r;
  const std::uint32_t pool = r.add_pool(x_bytes + y_bytes + outs);
  std::byte* data = r.pool_data(pool);
  std::vector<E> in((x_bytes + y_bytes) / e);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = E(static_cast<float>(i % 9) * 0.25f - 1.0f);
  std::memcpy(data, in.data(), x_bytes + y_bytes);
  r.request.inputs = {mf::RequestFixture::arg(pool, 0, static_cast<std::uint32_t>(x_bytes)),
                      mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(x_bytes), static_cast<std::uint32_t>(y_bytes))};
  std::size_t at = x_bytes + y_bytes;
  for (std::size_t b : out_bytes) {
    r.request.outputs.push_back(
        mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(b)));
    at += b;
  }

  const auto first = execution->run(r.request);
  REQUIRE(first.has_value());
  const std::byte* out = data + x_bytes + y_bytes;
  std::vector<std::byte> expected(out, out + outs);
  // The result is not trivial: some output element differs from the first.
  bool varied = false;
  for (std::size_t i = e; i < outs; ++i) varied = varied || expected[i] != expected[i % e];
  CHECK(varied);

  nnhal::test::check_reruns_allocate_nothing(*execution, r.request);
  CHECK(std::memcmp(expected.data(), out, outs) == 0);
}

}  // namespace

TEST_CASE("float32 RNN, sequence RNNs and SVDF execute without allocating") { check_runs_without_allocating<float>(); }

TEST_CASE("float16 RNN, sequence RNNs and SVDF execute without allocating") { check_runs_without_allocating<Half>(); }
