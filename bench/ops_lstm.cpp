// LSTM benchmarks, timed through a prepared model (Execution::run(request)), single thread,
// FLOAT32, batch 1, input 512, 512 cells, no projection, no peephole, no layer norm, TANH:
//  - lstm_step_f32_512x512: one LSTM step;
//  - lstm_sequence_f32_100x512x512: UNIDIRECTIONAL_SEQUENCE_LSTM over 100 time steps;
//  - lstm_while_f32_100x512x512: the same 100 steps as a WHILE loop whose body is one LSTM
//    (plus the counter's ADD; the condition is one LESS), each step reading the same input row
//    (the work per step is the same as the sequence's).
// Weights and biases are CONSTANT_REFERENCE operands (packed once at prepare). Counters: FLOPS
// (GFLOP/s shown as G/s), counting per step 2 * 4 * cell * (input + cell) for the gate products
// and 13 * cell for the rest (4 bias additions, 3 for the cell update, 1 for o * act(c), and
// 3 sigmoids + 2 tanh counted as one each); ns_per_step for the two 100-step cases, so the
// WHILE loop's overhead per step against the sequence operation shows.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "bench_models.hpp"

namespace {

using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::Subgraph;
namespace nb = nnhal::bench;

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr std::uint32_t kInput = 512, kCell = 512, kSteps = 100;

double step_flops() { return 2.0 * 4 * kCell * (kInput + kCell) + 13.0 * kCell; }

std::uint32_t add(Subgraph& g, OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime life) {
  Operand op;
  op.type = type;
  op.dimensions = std::move(dims);
  op.lifetime = life;
  g.operands.push_back(std::move(op));
  return static_cast<std::uint32_t>(g.operands.size() - 1);
}

/// A scalar CONSTANT_COPY operand of `g` (value bytes in the model's operandValues).
template <class T>
std::uint32_t scalar(Model& m, Subgraph& g, OperandType type, T value) {
  auto& bytes = m.operandValues;
  bytes.resize((bytes.size() + 3) / 4 * 4);
  const auto at = static_cast<std::uint32_t>(bytes.size());
  bytes.resize(at + sizeof value);
  std::memcpy(bytes.data() + at, &value, sizeof value);
  const std::uint32_t i = add(g, type, {}, OperandLifeTime::CONSTANT_COPY);
  g.operands[i].location = {0, at, static_cast<std::uint32_t>(sizeof value)};
  return i;
}

void consume(Subgraph& g, OperationType type, nnhal::Vector<std::uint32_t> ins, nnhal::Vector<std::uint32_t> outs) {
  for (std::uint32_t i : ins) ++g.operands[i].numberOfConsumers;
  g.operations.push_back({type, std::move(ins), std::move(outs)});
}

/// The pool of the cell's constants: 8 weight matrices [cell, input or cell] and 4 biases,
/// each at a 64-byte boundary, with values in [-0.05, 0.05] (the states stay in tanh's range).
struct CellPool {
  std::size_t w_floats = std::size_t{kCell} * kInput, r_floats = std::size_t{kCell} * kCell;
  std::size_t offset(int k) const {  // k: 0..3 input, 4..7 recurrent, 8..11 biases
    return k < 4 ? k * w_floats : k < 8 ? 4 * w_floats + (k - 4) * r_floats : 4 * w_floats + 4 * r_floats + (k - 8) * kCell;
  }
  std::size_t total() const { return offset(12); }
};

/// Appends inputs 1..17 of an LSTM cell to `ins` (constants referring to pool 0, optional ones
/// omitted).
void cell_inputs(Subgraph& g, nnhal::Vector<std::uint32_t>& ins) {
  const CellPool p;
  auto constant = [&](int k, nnhal::Vector<std::uint32_t> dims) {
    const std::uint32_t i = add(g, F32, dims, OperandLifeTime::CONSTANT_REFERENCE);
    std::size_t n = 1;
    for (std::uint32_t d : dims) n *= d;
    g.operands[i].location = {0, static_cast<std::uint32_t>(p.offset(k) * 4), static_cast<std::uint32_t>(n * 4)};
    ins.push_back(i);
  };
  auto omitted = [&] { ins.push_back(add(g, F32, {}, OperandLifeTime::NO_VALUE)); };
  for (int k = 0; k < 4; ++k) constant(k, {kCell, kInput});
  for (int k = 4; k < 8; ++k) constant(k, {kCell, kCell});
  for (int k = 0; k < 3; ++k) omitted();  // peepholes
  for (int k = 8; k < 12; ++k) constant(k, {kCell});
  omitted(), omitted();  // projection
}

nb::OwnedModel with_pool() {
  nb::OwnedModel om;
  auto pool = std::make_unique<nb::AlignedFloats>(CellPool{}.total());
  nb::fill_uniform(pool->span(), -0.05f, 0.05f, 1);
  om.model.pools.push_back(pool->memory());
  om.pools.push_back(std::move(pool));
  return om;
}

/// main(x [1, input], h [1, cell], c [1, cell]) = LSTM -> scratch, h', c', output.
nb::OwnedModel step_model() {
  nb::OwnedModel om = with_pool();
  Model& m = om.model;
  Subgraph& g = m.main;
  const std::uint32_t x = add(g, F32, {1, kInput}, OperandLifeTime::SUBGRAPH_INPUT);
  nnhal::Vector<std::uint32_t> ins{x};
  cell_inputs(g, ins);
  const std::uint32_t h = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT);
  const std::uint32_t c = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT);
  ins.insert(ins.end(), {h, c, scalar(m, g, OperandType::INT32, std::int32_t{4}), scalar(m, g, OperandType::FLOAT32, 0.0f),
                         scalar(m, g, OperandType::FLOAT32, 0.0f)});
  nnhal::Vector<std::uint32_t> outs;
  for (std::uint32_t n : {4 * kCell, kCell, kCell, kCell})
    outs.push_back(add(g, F32, {1, n}, OperandLifeTime::SUBGRAPH_OUTPUT));
  consume(g, OperationType::LSTM, ins, outs);
  g.inputIndexes = {x, h, c};
  g.outputIndexes = outs;
  return om;
}

/// main(x [steps, 1, input], h, c) = UNIDIRECTIONAL_SEQUENCE_LSTM (time-major) -> [steps, 1, cell].
nb::OwnedModel sequence_model() {
  nb::OwnedModel om = with_pool();
  Model& m = om.model;
  Subgraph& g = m.main;
  const std::uint32_t x = add(g, F32, {kSteps, 1, kInput}, OperandLifeTime::SUBGRAPH_INPUT);
  nnhal::Vector<std::uint32_t> ins{x};
  cell_inputs(g, ins);
  const std::uint32_t h = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT);
  const std::uint32_t c = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT);
  ins.insert(ins.end(), {h, c, scalar(m, g, OperandType::INT32, std::int32_t{4}), scalar(m, g, OperandType::FLOAT32, 0.0f),
                         scalar(m, g, OperandType::FLOAT32, 0.0f), scalar(m, g, OperandType::BOOL, std::uint8_t{1})});
  for (int k = 0; k < 4; ++k) ins.push_back(add(g, F32, {}, OperandLifeTime::NO_VALUE));  // layer norm
  const std::uint32_t y = add(g, F32, {kSteps, 1, kCell}, OperandLifeTime::SUBGRAPH_OUTPUT);
  consume(g, OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {y});
  g.inputIndexes = {x, h, c};
  g.outputIndexes = {y};
  return om;
}

/// main(h0, c0, i0 [1] int32, limit [1] int32, x [1, input]) =
///   WHILE (i < limit) { h, c = LSTM(x, h, c); i = i + 1 } -> h, c, i.
nb::OwnedModel while_model() {
  nb::OwnedModel om = with_pool();
  Model& m = om.model;
  m.referenced.resize(2);
  constexpr auto I32 = OperandType::TENSOR_INT32;
  auto loop_inputs = [&](Subgraph& g) {
    nnhal::Vector<std::uint32_t> v{add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT),
                                 add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_INPUT),
                                 add(g, I32, {1}, OperandLifeTime::SUBGRAPH_INPUT),
                                 add(g, I32, {1}, OperandLifeTime::SUBGRAPH_INPUT),
                                 add(g, F32, {1, kInput}, OperandLifeTime::SUBGRAPH_INPUT)};
    g.inputIndexes = v;
    return v;
  };
  {
    Subgraph& cond = m.referenced[0];
    const auto in = loop_inputs(cond);
    const std::uint32_t less = add(cond, OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_OUTPUT);
    consume(cond, OperationType::LESS, {in[2], in[3]}, {less});
    cond.outputIndexes = {less};
  }
  {
    Subgraph& body = m.referenced[1];
    const auto in = loop_inputs(body);
    nnhal::Vector<std::uint32_t> ins{in[4]};
    cell_inputs(body, ins);
    ins.insert(ins.end(), {in[0], in[1], scalar(m, body, OperandType::INT32, std::int32_t{4}),
                           scalar(m, body, OperandType::FLOAT32, 0.0f), scalar(m, body, OperandType::FLOAT32, 0.0f)});
    const std::uint32_t scratch = add(body, F32, {1, 4 * kCell}, OperandLifeTime::TEMPORARY_VARIABLE);
    const std::uint32_t h = add(body, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_OUTPUT);
    const std::uint32_t c = add(body, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_OUTPUT);
    const std::uint32_t out = add(body, F32, {1, kCell}, OperandLifeTime::TEMPORARY_VARIABLE);
    consume(body, OperationType::LSTM, ins, {scratch, h, c, out});
    auto& bytes = m.operandValues;
    bytes.resize((bytes.size() + 3) / 4 * 4);
    const auto at = static_cast<std::uint32_t>(bytes.size());
    const std::int32_t one = 1;
    bytes.resize(at + 4);
    std::memcpy(bytes.data() + at, &one, 4);
    const std::uint32_t k1 = add(body, I32, {1}, OperandLifeTime::CONSTANT_COPY);
    body.operands[k1].location = {0, at, 4};
    const std::uint32_t next = add(body, I32, {1}, OperandLifeTime::SUBGRAPH_OUTPUT);
    consume(body, OperationType::ADD, {in[2], k1, scalar(m, body, OperandType::INT32, std::int32_t{0})}, {next});
    body.outputIndexes = {h, c, next};
  }
  Subgraph& g = m.main;
  const auto in = loop_inputs(g);
  Operand cond_ref;
  cond_ref.type = OperandType::SUBGRAPH;
  cond_ref.lifetime = OperandLifeTime::SUBGRAPH;
  cond_ref.location = {0, 0, 0};
  Operand body_ref = cond_ref;
  body_ref.location = {0, 1, 0};
  g.operands.push_back(cond_ref);
  const auto cond_i = static_cast<std::uint32_t>(g.operands.size() - 1);
  g.operands.push_back(body_ref);
  const auto body_i = static_cast<std::uint32_t>(g.operands.size() - 1);
  const std::uint32_t h = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_OUTPUT);
  const std::uint32_t c = add(g, F32, {1, kCell}, OperandLifeTime::SUBGRAPH_OUTPUT);
  const std::uint32_t i = add(g, I32, {1}, OperandLifeTime::SUBGRAPH_OUTPUT);
  consume(g, OperationType::WHILE, {cond_i, body_i, in[0], in[1], in[2], in[3], in[4]}, {h, c, i});
  g.outputIndexes = {h, c, i};
  return om;
}

void set_flops(benchmark::State& state, double steps) {
  state.counters["FLOPS"] = benchmark::Counter(steps * step_flops(), benchmark::Counter::kIsIterationInvariantRate,
                                               benchmark::Counter::kIs1000);
}

void set_ns_per_step(benchmark::State& state) {
  state.counters["ns_per_step"] = benchmark::Counter(static_cast<double>(state.iterations()) * kSteps,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void lstm_step_f32_512x512(benchmark::State& state) {
  const nb::OwnedModel om = step_model();
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  set_flops(state, 1);
}

void lstm_sequence_f32_100x512x512(benchmark::State& state) {
  const nb::OwnedModel om = sequence_model();
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  set_flops(state, kSteps);
  set_ns_per_step(state);
}

void lstm_while_f32_100x512x512(benchmark::State& state) {
  const nb::OwnedModel om = while_model();
  nb::OwnedRequest req(om.model);
  // inputs: h0, c0, i0, limit, x (pools 0..4); outputs h, c, i (pools 5..7)
  const std::int32_t zero = 0, steps = kSteps;
  std::memcpy(req.pool(2).data(), &zero, 4);
  std::memcpy(req.pool(3).data(), &steps, 4);
  if (!nb::run_model_loop(state, om.model, req)) return;
  std::int32_t done = 0;
  std::memcpy(&done, req.pool(7).data(), 4);
  if (done != steps) state.SkipWithError("the loop did not run 100 steps");
  set_flops(state, kSteps);
  set_ns_per_step(state);
}

}  // namespace

BENCHMARK(lstm_step_f32_512x512)->Unit(benchmark::kMicrosecond);
BENCHMARK(lstm_sequence_f32_100x512x512)->Unit(benchmark::kMicrosecond);
BENCHMARK(lstm_while_f32_100x512x512)->Unit(benchmark::kMicrosecond);
