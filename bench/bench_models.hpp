#pragma once
/// \file
/// Building blocks for benchmarks that run through the public execution path: a Model built
/// from the HAL structs (constants in memory pools the benchmark owns), PreparedModel::prepare,
/// one Execution, and a Request whose arguments live in 64-byte-aligned pools. Timing
/// `Execution::run(request)` then counts request validation, binding and kernel dispatch, as a
/// driver would see them.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/model.hpp"

// The kernels and the executor are compiled once, in the nnhal_default_kernels library
// (NNHAL_EXTERN_DEFAULT_KERNELS; see the top-level CMakeLists.txt).
NNHAL_EXTERN_KERNEL_SET(nnhal::AllKernels);
NNHAL_EXTERN_EXECUTION(nnhal::SteadyClock);

namespace nnhal::bench {

/// Floats at a 64-byte-aligned address that never moves (memory pools point into it).
class AlignedFloats {
 public:
  explicit AlignedFloats(std::size_t n)
      : n_(n), data_(static_cast<float*>(::operator new[](bytes_for(n), std::align_val_t{64}))) {
    std::memset(data_.get(), 0, bytes_for(n));
  }
  float* data() noexcept { return data_.get(); }
  const float* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return n_; }
  std::span<float> span() noexcept { return {data_.get(), n_}; }
  /// The whole block as HAL memory.
  Memory memory() noexcept { return {reinterpret_cast<std::byte*>(data_.get()), bytes_for(n_)}; }

 private:
  static std::size_t bytes_for(std::size_t n) { return (n == 0 ? 1 : n) * sizeof(float); }
  struct Free {
    void operator()(float* p) const noexcept { ::operator delete[](p, std::align_val_t{64}); }
  };
  std::size_t n_;
  std::unique_ptr<float, Free> data_;
};

/// Deterministic values uniform in [lo, hi].
inline void fill_uniform(std::span<float> v, float lo, float hi, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (float& f : v) f = dist(gen);
}

/// Product of the dimensions.
inline std::size_t element_count(const nnhal::Vector<std::uint32_t>& dims) {
  std::size_t n = 1;
  for (std::uint32_t d : dims) n *= d;
  return n;
}

/// A Model together with the memory its CONSTANT_REFERENCE operands live in (Model::pools
/// point into `pools`, which must outlive every prepared model made from it).
struct OwnedModel {
  Model model;
  std::vector<std::unique_ptr<AlignedFloats>> pools;
};

/// Appends an operand to main and returns its index.
inline std::uint32_t add_operand(Model& m, OperandType type, nnhal::Vector<std::uint32_t> dims,
                                 OperandLifeTime lifetime) {
  Operand op;
  op.type = type;
  op.dimensions = std::move(dims);
  op.lifetime = lifetime;
  m.main.operands.push_back(std::move(op));
  return static_cast<std::uint32_t>(m.main.operands.size() - 1);
}

/// Appends a 4-byte scalar CONSTANT_COPY operand of `type` holding `value`.
template <class T>
inline std::uint32_t add_scalar_constant(Model& m, OperandType type, T value) {
  static_assert(sizeof(T) == 4);
  const std::uint32_t index = add_operand(m, type, {}, OperandLifeTime::CONSTANT_COPY);
  // Keep inline constants 4-byte aligned inside operandValues.
  while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
  const auto offset = static_cast<std::uint32_t>(m.operandValues.size());
  m.operandValues.resize(offset + sizeof value);
  std::memcpy(m.operandValues.data() + offset, &value, sizeof value);
  m.main.operands[index].location = {0, offset, sizeof value};
  return index;
}

/// Appends an INT32 scalar CONSTANT_COPY operand holding `value`.
inline std::uint32_t add_int32_constant(Model& m, std::int32_t value) {
  return add_scalar_constant(m, OperandType::INT32, value);
}

/// Appends a FLOAT32 scalar CONSTANT_COPY operand holding `value`.
inline std::uint32_t add_float32_constant(Model& m, float value) {
  return add_scalar_constant(m, OperandType::FLOAT32, value);
}

/// Appends a CONSTANT_COPY operand of `type` (a 4-byte element type: TENSOR_INT32, INT32, ...)
/// holding `values`, of shape `dims` (empty for a scalar).
inline std::uint32_t add_int32_values(Model& m, OperandType type, nnhal::Vector<std::uint32_t> dims,
                                      const std::vector<std::int32_t>& values) {
  const std::uint32_t index = add_operand(m, type, std::move(dims), OperandLifeTime::CONSTANT_COPY);
  while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
  const auto offset = static_cast<std::uint32_t>(m.operandValues.size());
  const auto bytes = static_cast<std::uint32_t>(values.size() * sizeof(std::int32_t));
  m.operandValues.resize(offset + bytes);
  if (bytes != 0) std::memcpy(m.operandValues.data() + offset, values.data(), bytes);
  m.main.operands[index].location = {0, offset, bytes};
  return index;
}

/// Appends a BOOL scalar CONSTANT_COPY operand.
inline std::uint32_t add_bool_constant(Model& m, bool value) {
  const std::uint32_t index = add_operand(m, OperandType::BOOL, {}, OperandLifeTime::CONSTANT_COPY);
  const auto offset = static_cast<std::uint32_t>(m.operandValues.size());
  m.operandValues.push_back(value ? 1 : 0);
  m.main.operands[index].location = {0, offset, 1};
  return index;
}

/// Appends one operation and sets numberOfConsumers of its inputs.
inline void add_operation(Model& m, OperationType type, nnhal::Vector<std::uint32_t> inputs,
                          nnhal::Vector<std::uint32_t> outputs) {
  for (std::uint32_t i : inputs) ++m.main.operands[i].numberOfConsumers;
  m.main.operations.push_back(Operation{type, std::move(inputs), std::move(outputs)});
}

/// output = act(input0 OP input1) on TENSOR_FLOAT32 of the same shape `dims`; both inputs are
/// model inputs. OP is ADD, SUB, MUL or DIV.
inline OwnedModel binary_f32_model(OperationType op, const nnhal::Vector<std::uint32_t>& dims,
                                   FusedActivationFunc act = FusedActivationFunc::NONE) {
  OwnedModel om;
  Model& m = om.model;
  const auto a = add_operand(m, OperandType::TENSOR_FLOAT32, dims, OperandLifeTime::SUBGRAPH_INPUT);
  const auto b = add_operand(m, OperandType::TENSOR_FLOAT32, dims, OperandLifeTime::SUBGRAPH_INPUT);
  const auto fuse = add_int32_constant(m, static_cast<std::int32_t>(act));
  const auto out =
      add_operand(m, OperandType::TENSOR_FLOAT32, dims, OperandLifeTime::SUBGRAPH_OUTPUT);
  add_operation(m, op, {a, b, fuse}, {out});
  m.main.inputIndexes = {a, b};
  m.main.outputIndexes = {out};
  return om;
}

/// Quantization of a quantized operand (scale, zero point); unused for float operands.
struct Quant {
  float scale = 0.0f;
  std::int32_t zero_point = 0;
};

/// output = act(input0 OP input1) of the same shape `dims` and type `type` (ADD, SUB, MUL or
/// DIV); both inputs are model inputs, with quantization `in` (both) and `out`.
inline OwnedModel binary_model(OperationType op, OperandType type, const nnhal::Vector<std::uint32_t>& dims,
                               Quant in = {}, Quant out = {},
                               FusedActivationFunc act = FusedActivationFunc::NONE) {
  OwnedModel om;
  Model& m = om.model;
  const auto a = add_operand(m, type, dims, OperandLifeTime::SUBGRAPH_INPUT);
  const auto b = add_operand(m, type, dims, OperandLifeTime::SUBGRAPH_INPUT);
  const auto fuse = add_int32_constant(m, static_cast<std::int32_t>(act));
  const auto o = add_operand(m, type, dims, OperandLifeTime::SUBGRAPH_OUTPUT);
  for (auto [index, q] : {std::pair{a, in}, std::pair{b, in}, std::pair{o, out}}) {
    m.main.operands[index].scale = q.scale;
    m.main.operands[index].zeroPoint = q.zero_point;
  }
  add_operation(m, op, {a, b, fuse}, {o});
  m.main.inputIndexes = {a, b};
  m.main.outputIndexes = {o};
  return om;
}

/// One operation `op` with a single tensor input of `type` and shape `in_dims` (a model input),
/// the constant operands `make_constants(model)` returns after it, and one output of shape
/// `out_dims`; quantized operands all get `q`.
template <class MakeConstants>
OwnedModel unary_model(OperationType op, OperandType type, const nnhal::Vector<std::uint32_t>& in_dims,
                       const nnhal::Vector<std::uint32_t>& out_dims, MakeConstants&& make_constants,
                       Quant q = {}) {
  OwnedModel om;
  Model& m = om.model;
  const auto x = add_operand(m, type, in_dims, OperandLifeTime::SUBGRAPH_INPUT);
  nnhal::Vector<std::uint32_t> inputs{x};
  for (std::uint32_t c : make_constants(m)) inputs.push_back(c);
  const auto y = add_operand(m, type, out_dims, OperandLifeTime::SUBGRAPH_OUTPUT);
  for (std::uint32_t i : {x, y}) {
    m.main.operands[i].scale = q.scale;
    m.main.operands[i].zeroPoint = q.zero_point;
  }
  add_operation(m, op, std::move(inputs), {y});
  m.main.inputIndexes = {x};
  m.main.outputIndexes = {y};
  return om;
}

/// SOFTMAX over the last axis of a [batch, channels] tensor of `type`, beta 1. A quantized input
/// has quantization `in`; the output has the fixed 1/256 scale (zero point 0, or -128 signed).
inline OwnedModel softmax_model(OperandType type, std::uint32_t batch, std::uint32_t channels, Quant in = {}) {
  OwnedModel om;
  Model& m = om.model;
  const auto x = add_operand(m, type, {batch, channels}, OperandLifeTime::SUBGRAPH_INPUT);
  m.main.operands[x].scale = in.scale;
  m.main.operands[x].zeroPoint = in.zero_point;
  const auto beta = add_float32_constant(m, 1.0f);
  const auto y = add_operand(m, type, {batch, channels}, OperandLifeTime::SUBGRAPH_OUTPUT);
  if (type != OperandType::TENSOR_FLOAT32) {
    m.main.operands[y].scale = 1.0f / 256.0f;
    m.main.operands[y].zeroPoint = type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ? -128 : 0;
  }
  add_operation(m, OperationType::SOFTMAX, {x, beta}, {y});
  m.main.inputIndexes = {x};
  m.main.outputIndexes = {y};
  return om;
}

/// output[batch, units] = act(input[batch, input_size] x weights^T + bias). Weights
/// [units, input_size] and bias [units] are CONSTANT_REFERENCE operands in one memory pool
/// (weights at offset 0, bias after them at a 64-byte boundary), filled with values in [-1, 1].
inline OwnedModel fully_connected_f32_model(std::uint32_t batch, std::uint32_t input_size,
                                            std::uint32_t units,
                                            FusedActivationFunc act = FusedActivationFunc::NONE,
                                            std::uint32_t seed = 1) {
  OwnedModel om;
  Model& m = om.model;
  const std::size_t w_count = std::size_t{units} * input_size;
  const std::size_t bias_offset = (w_count + 15) / 16 * 16;  // floats; 64-byte boundary
  auto pool = std::make_unique<AlignedFloats>(bias_offset + units);
  fill_uniform(pool->span().subspan(0, w_count), -1.0f, 1.0f, seed);
  fill_uniform(pool->span().subspan(bias_offset, units), -1.0f, 1.0f, seed + 1);
  m.pools.push_back(pool->memory());
  om.pools.push_back(std::move(pool));

  const auto in = add_operand(m, OperandType::TENSOR_FLOAT32, {batch, input_size},
                              OperandLifeTime::SUBGRAPH_INPUT);
  const auto w = add_operand(m, OperandType::TENSOR_FLOAT32, {units, input_size},
                             OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[w].location = {0, 0, static_cast<std::uint32_t>(w_count * sizeof(float))};
  const auto bias =
      add_operand(m, OperandType::TENSOR_FLOAT32, {units}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[bias].location = {0, static_cast<std::uint32_t>(bias_offset * sizeof(float)),
                                    static_cast<std::uint32_t>(units * sizeof(float))};
  const auto fuse = add_int32_constant(m, static_cast<std::int32_t>(act));
  const auto out =
      add_operand(m, OperandType::TENSOR_FLOAT32, {batch, units}, OperandLifeTime::SUBGRAPH_OUTPUT);
  add_operation(m, OperationType::FULLY_CONNECTED, {in, w, bias, fuse}, {out});
  m.main.inputIndexes = {in};
  m.main.outputIndexes = {out};
  return om;
}

/// The 8-bit FULLY_CONNECTED of `type` (TENSOR_QUANT8_ASYMM or _SIGNED): input scale 1/128,
/// weights scale 1/256 (zero point 128 / 0, pseudo-random bytes), int32 bias, output scale 1/16
/// (zero point 128 / 0), activation NONE; weights and bias CONSTANT_REFERENCE in one pool.
inline OwnedModel fully_connected_q8_model(OperandType type, std::uint32_t batch, std::uint32_t input_size,
                                           std::uint32_t units, std::uint32_t seed = 1) {
  OwnedModel om;
  Model& m = om.model;
  const bool is_signed = type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const std::int32_t zero = is_signed ? 0 : 128;
  const std::size_t w_bytes = std::size_t{units} * input_size;
  const std::size_t bias_offset = (w_bytes + 63) / 64 * 64;
  auto pool = std::make_unique<AlignedFloats>((bias_offset + std::size_t{units} * 4 + 3) / 4);
  auto* bytes = reinterpret_cast<std::uint8_t*>(pool->data());
  std::uint32_t state = seed;
  for (std::size_t i = 0; i < w_bytes; ++i) {
    state = state * 1664525u + 1013904223u;
    bytes[i] = static_cast<std::uint8_t>(state >> 24);
  }
  for (std::uint32_t u = 0; u < units; ++u) {
    const std::int32_t b = static_cast<std::int32_t>(u * 97 % 4001) - 2000;
    std::memcpy(bytes + bias_offset + std::size_t{u} * 4, &b, 4);
  }
  m.pools.push_back(pool->memory());
  om.pools.push_back(std::move(pool));
  const auto in = add_operand(m, type, {batch, input_size}, OperandLifeTime::SUBGRAPH_INPUT);
  m.main.operands[in].scale = 1.0f / 128, m.main.operands[in].zeroPoint = zero;
  const auto w = add_operand(m, type, {units, input_size}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[w].location = {0, 0, static_cast<std::uint32_t>(w_bytes)};
  m.main.operands[w].scale = 1.0f / 256, m.main.operands[w].zeroPoint = zero;
  const auto bias = add_operand(m, OperandType::TENSOR_INT32, {units}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[bias].location = {0, static_cast<std::uint32_t>(bias_offset), units * 4};
  m.main.operands[bias].scale = 1.0f / 128 / 256;
  const auto fuse = add_int32_constant(m, 0);
  const auto out = add_operand(m, type, {batch, units}, OperandLifeTime::SUBGRAPH_OUTPUT);
  m.main.operands[out].scale = 1.0f / 16, m.main.operands[out].zeroPoint = zero;
  add_operation(m, OperationType::FULLY_CONNECTED, {in, w, bias, fuse}, {out});
  m.main.inputIndexes = {in};
  m.main.outputIndexes = {out};
  return om;
}

/// A Request with one aligned pool per model input and output, sized from the declared (fully
/// specified) shapes and types of main's inputs and outputs. Float inputs are filled with values
/// in [-1, 1], 8-bit quantized ones with uniform random bytes.
class OwnedRequest {
 public:
  explicit OwnedRequest(const Model& m, std::uint32_t seed = 7) {
    for (int pass = 0; pass < 2; ++pass) {
      const bool is_output = pass == 1;
      const auto& indexes = is_output ? m.main.outputIndexes : m.main.inputIndexes;
      for (std::uint32_t index : indexes) {
        const Operand& operand = m.main.operands[index];
        const std::size_t n = element_count(operand.dimensions);
        const std::size_t bytes = n * element_size(operand.type);
        auto buf = std::make_unique<AlignedFloats>((bytes + sizeof(float) - 1) / sizeof(float));
        if (!is_output) fill(*buf, operand.type, n, seed++);
        RequestArgument arg;
        arg.location = {static_cast<std::uint32_t>(buffers_.size()), 0, static_cast<std::uint32_t>(bytes)};
        (is_output ? request.outputs : request.inputs).push_back(arg);
        request.pools.push_back({buf->memory(), 0});
        buffers_.push_back(std::move(buf));
      }
    }
  }
  /// Values of pool `i` (inputs first, then outputs).
  AlignedFloats& pool(std::size_t i) { return *buffers_[i]; }

  Request request;

 private:
  static void fill(AlignedFloats& buf, OperandType type, std::size_t n, std::uint32_t seed) {
    if (type == OperandType::TENSOR_FLOAT32) {
      fill_uniform(buf.span().subspan(0, n), -1.0f, 1.0f, seed);
      return;
    }
    std::mt19937 gen(seed);
    auto* bytes = reinterpret_cast<std::uint8_t*>(buf.data());
    for (std::size_t i = 0; i < n * element_size(type); ++i) bytes[i] = static_cast<std::uint8_t>(gen());
  }
  std::vector<std::unique_ptr<AlignedFloats>> buffers_;
};

/// The execution type PreparedModel::create_execution() returns (default clock).
using DefaultExecution =
    std::remove_cvref_t<decltype(*std::declval<const PreparedModel&>().create_execution())>;

/// A prepared model and one execution of it.
struct Runner {
  std::optional<PreparedModel> prepared;
  std::optional<DefaultExecution> execution;
  std::string error;  ///< empty when both were created
};

/// Prepares `m` and creates an execution; on failure `error` says which step failed and why.
inline Runner make_runner(const Model& m, const PrepareOptions& options = {}) {
  Runner r;
  auto p = PreparedModel::prepare(m, options);
  if (!p) {
    r.error = std::string("prepare: ") + p.error().c_str();
    return r;
  }
  r.prepared.emplace(std::move(*p));
  auto e = r.prepared->create_execution();
  if (!e) {
    r.error = std::string("create_execution: ") + e.error().c_str();
    return r;
  }
  r.execution.emplace(std::move(*e));
  return r;
}

/// The benchmark loop every model benchmark shares: prepare once, run once to check that the
/// model runs, then time `execution.run(request)`. Returns false (and marks the benchmark
/// skipped with the reason) when something fails.
inline bool run_model_loop(benchmark::State& state, const Model& m, OwnedRequest& req,
                           const PrepareOptions& options = {}) {
  Runner r = make_runner(m, options);
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return false;
  }
  if (auto s = r.execution->run(req.request); !s) {
    state.SkipWithError((std::string("run: ") + s.error().c_str()).c_str());
    return false;
  }
  for (auto _ : state) {
    const Status s = r.execution->run(req.request);
    if (!s) {
      state.SkipWithError((std::string("run: ") + s.error().c_str()).c_str());
      return false;
    }
    benchmark::ClobberMemory();
  }
  return true;
}

}  // namespace nnhal::bench
