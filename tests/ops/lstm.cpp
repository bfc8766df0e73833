// Kernel tests of LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM (FLOAT32
// and FLOAT16) against a plain reference written from the operations' definition: per gate, a
// separate matrix-vector product for the input, auxiliary input and recurrent weights, gate-major
// loops, no packing, no SIMD. Random cells cover CIFG, peephole, projection (+ bias), layer
// normalization, clips, every activation, both layouts, the auxiliary-input modes and merged
// outputs; weights given as constants (packed at prepare) and as runtime inputs (packed into
// the workspace per run) must give the same result. Runtime faults get errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/bidirectional_sequence_lstm.hpp"
#include "nnhal/kernels/lstm.hpp"
#include "nnhal/kernels/unidirectional_sequence_lstm.hpp"
#include "ops/kernel_test_util.hpp"

namespace nnhal::test {
namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;

/// One cell's configuration.
struct Cell {
  std::uint32_t input = 0, aux = 0, cell = 0, output = 0;
  bool cifg = false, peephole = false, projection = false, projection_bias = false, layer_norm = false;
};

/// Parameters shared by the cells of a node.
struct Params {
  std::int32_t activation = 4;
  float cell_clip = 0.0f, proj_clip = 0.0f;
};

/// A cell's weights as floats (already rounded to the element type under test).
struct Weights {
  std::vector<float> w[4], r[4], a[4], peep[3], bias[4], ln[4], proj, proj_bias;
};

template <class E>
float rounded(float v) {
  return static_cast<float>(E(v));
}

template <class E>
std::vector<float> random_vec(std::mt19937& rng, std::size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = rounded<E>(d(rng));
  return v;
}

template <class E>
Weights random_weights(std::mt19937& rng, const Cell& c) {
  Weights w;
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    w.w[g] = random_vec<E>(rng, std::size_t{c.cell} * c.input, -0.6f, 0.6f);
    w.r[g] = random_vec<E>(rng, std::size_t{c.cell} * c.output, -0.6f, 0.6f);
    if (c.aux != 0) w.a[g] = random_vec<E>(rng, std::size_t{c.cell} * c.aux, -0.6f, 0.6f);
    w.bias[g] = random_vec<E>(rng, c.cell, -0.5f, 0.5f);
    if (c.layer_norm) w.ln[g] = random_vec<E>(rng, c.cell, 0.5f, 1.5f);
  }
  if (c.peephole)
    for (int g = c.cifg ? 1 : 0; g < 3; ++g) w.peep[g] = random_vec<E>(rng, c.cell, -0.5f, 0.5f);
  if (c.projection) w.proj = random_vec<E>(rng, std::size_t{c.output} * c.cell, -0.5f, 0.5f);
  if (c.projection_bias) w.proj_bias = random_vec<E>(rng, c.output, -0.3f, 0.3f);
  return w;
}

float act(std::int32_t a, float x) {
  switch (a) {
    case 1: return std::max(0.0f, x);
    case 3: return std::min(6.0f, std::max(0.0f, x));
    case 4: return std::tanh(x);
    case 6: return 1.0f / (1.0f + std::exp(-x));
    default: return x;
  }
}

float sigm(float x) { return 1.0f / (1.0f + std::exp(-x)); }

float clamp_abs(float v, float limit) { return limit > 0.0f ? std::min(limit, std::max(-limit, v)) : v; }

/// Layer normalization of one gate vector, then * weights + bias.
void normalize(std::vector<float>& v, const std::vector<float>& weights, const std::vector<float>& bias) {
  const auto n = static_cast<float>(v.size());
  float mean = 0.0f;
  for (float x : v) mean += x;
  mean /= n;
  float var = 0.0f;
  for (float x : v) var += x * x;
  var = var / n - mean * mean;
  const float inv = 1.0f / std::sqrt(var == 0.0f ? 1e-8f : var);
  for (std::size_t j = 0; j < v.size(); ++j) v[j] = (v[j] - mean) * inv * weights[j] + bias[j];
}

/// One step for one batch row: x (input), aux (or empty), h / c updated in place.
void ref_step(const Cell& c, const Params& p, const Weights& w, const float* x, const float* aux, std::vector<float>& h,
              std::vector<float>& cs) {
  std::vector<float> gate[4];
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && c.cifg) continue;
    gate[g].assign(c.cell, 0.0f);
    for (std::uint32_t u = 0; u < c.cell; ++u) {
      float in_sum = 0.0f, aux_sum = 0.0f, rec_sum = 0.0f;
      for (std::uint32_t k = 0; k < c.input; ++k) in_sum += w.w[g][u * c.input + k] * x[k];
      for (std::uint32_t k = 0; k < c.aux; ++k) aux_sum += w.a[g][u * c.aux + k] * aux[k];
      for (std::uint32_t k = 0; k < c.output; ++k) rec_sum += w.r[g][u * c.output + k] * h[k];
      gate[g][u] = (c.layer_norm ? 0.0f : w.bias[g][u]) + in_sum + aux_sum + rec_sum;
    }
  }
  // input and forget gates: peephole on the previous cell state
  for (int g = c.cifg ? 1 : 0; g < 2; ++g) {
    if (c.peephole)
      for (std::uint32_t u = 0; u < c.cell; ++u) gate[g][u] += w.peep[g][u] * cs[u];
    if (c.layer_norm) normalize(gate[g], w.ln[g], w.bias[g]);
    for (float& v : gate[g]) v = sigm(v);
  }
  if (c.layer_norm) normalize(gate[2], w.ln[2], w.bias[2]);
  for (std::uint32_t u = 0; u < c.cell; ++u) {
    const float f = gate[1][u], g = act(p.activation, gate[2][u]);
    const float i = c.cifg ? 1.0f - f : gate[0][u];
    cs[u] = clamp_abs(f * cs[u] + g * i, p.cell_clip);
  }
  if (c.peephole)
    for (std::uint32_t u = 0; u < c.cell; ++u) gate[3][u] += w.peep[2][u] * cs[u];
  if (c.layer_norm) normalize(gate[3], w.ln[3], w.bias[3]);
  std::vector<float> hidden(c.cell);
  for (std::uint32_t u = 0; u < c.cell; ++u) hidden[u] = sigm(gate[3][u]) * act(p.activation, cs[u]);
  if (!c.projection) {
    h = hidden;
    return;
  }
  for (std::uint32_t o = 0; o < c.output; ++o) {
    float s = 0.0f;
    for (std::uint32_t u = 0; u < c.cell; ++u) s += w.proj[o * c.cell + u] * hidden[u];
    h[o] = clamp_abs(s + (c.projection_bias ? w.proj_bias[o] : 0.0f), p.proj_clip);
  }
}

/// A sequence [time][batch][n] (time-major, the reference's own layout) and its final states.
struct RefRun {
  std::vector<float> out, h, c;
};

/// Runs a cell over x ([time][batch][input], time-major) from states h0, c0.
RefRun ref_sequence(const Cell& c, const Params& p, const Weights& w, const std::vector<float>& x,
                    const std::vector<float>& aux, const std::vector<float>& h0, const std::vector<float>& c0,
                    std::uint32_t time, std::uint32_t batch, bool forward) {
  RefRun r;
  r.out.assign(std::size_t{time} * batch * c.output, 0.0f);
  r.h = h0, r.c = c0;
  for (std::uint32_t b = 0; b < batch; ++b) {
    std::vector<float> h(h0.begin() + b * c.output, h0.begin() + (b + 1) * c.output);
    std::vector<float> cs(c0.begin() + b * c.cell, c0.begin() + (b + 1) * c.cell);
    for (std::uint32_t s = 0; s < time; ++s) {
      const std::uint32_t t = forward ? s : time - 1 - s;
      const std::size_t row = std::size_t{t} * batch + b;
      ref_step(c, p, w, x.data() + row * c.input, aux.empty() ? nullptr : aux.data() + row * c.aux, h, cs);
      std::copy(h.begin(), h.end(), r.out.begin() + static_cast<std::ptrdiff_t>(row * c.output));
    }
    std::copy(h.begin(), h.end(), r.h.begin() + b * c.output);
    std::copy(cs.begin(), cs.end(), r.c.begin() + b * c.cell);
  }
  return r;
}

/// Element [t][b][j] of a time-major sequence moved to the layout `time_major` selects.
std::vector<float> relayout(const std::vector<float>& tm, std::uint32_t time, std::uint32_t batch, std::uint32_t n,
                            bool time_major) {
  if (time_major) return tm;
  std::vector<float> out(tm.size());
  for (std::uint32_t t = 0; t < time; ++t)
    for (std::uint32_t b = 0; b < batch; ++b)
      for (std::uint32_t j = 0; j < n; ++j)
        out[(std::size_t{b} * time + t) * n + j] = tm[(std::size_t{t} * batch + b) * n + j];
  return out;
}

template <OperandType T>
std::vector<element_t<T>> as(const std::vector<float>& v) {
  std::vector<element_t<T>> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = element_t<T>(v[i]);
  return out;
}

/// Adds a tensor, omitted (NO_VALUE) when `values` is empty.
template <OperandType T>
void add(KernelNode& node, const Dims& dims, const std::vector<float>& values) {
  node.tensor<T>(values.empty() ? Dims{0} : dims, as<T>(values));
  if (values.empty()) node.in(node.io().input_count() - 1).lifetime = OperandLifeTime::NO_VALUE;
}

/// Inputs 1..17 of a cell (LSTM order).
template <OperandType T>
void add_cell(KernelNode& node, const Cell& c, const Weights& w) {
  for (int g = 0; g < 4; ++g) add<T>(node, Dims{c.cell, c.input}, w.w[g]);
  for (int g = 0; g < 4; ++g) add<T>(node, Dims{c.cell, c.output}, w.r[g]);
  for (int g = 0; g < 3; ++g) add<T>(node, Dims{c.cell}, w.peep[g]);
  for (int g = 0; g < 4; ++g) add<T>(node, Dims{c.cell}, w.bias[g]);
  add<T>(node, Dims{c.output, c.cell}, w.proj);
  add<T>(node, Dims{c.output}, w.proj_bias);
}

template <OperandType T>
void add_layer_norm(KernelNode& node, const Cell& c, const Weights& w) {
  for (int g = 0; g < 4; ++g) add<T>(node, Dims{c.cell}, w.ln[g]);
}

template <OperandType T>
void add_scalars(KernelNode& node, const Params& p) {
  node.scalar<OperandType::INT32>(p.activation);
  if constexpr (T == F32) {
    node.scalar<OperandType::FLOAT32>(p.cell_clip);
    node.scalar<OperandType::FLOAT32>(p.proj_clip);
  } else {
    node.scalar<OperandType::FLOAT16>(Half(p.cell_clip));
    node.scalar<OperandType::FLOAT16>(Half(p.proj_clip));
  }
}

/// Marks every tensor input but the data and state inputs (the weights) constant.
void weights_constant(KernelNode& node, std::initializer_list<std::size_t> not_weights) {
  const std::size_t n = node.io().input_count();
  for (std::size_t i = 0; i < n; ++i) {
    RtOperand& op = node.in(i);
    if (!is_tensor(op.type) || !op.has_value()) continue;
    if (std::find(not_weights.begin(), not_weights.end(), i) != not_weights.end()) continue;
    op.lifetime = OperandLifeTime::CONSTANT_COPY;
  }
}

template <OperandType T>
void check_close(const std::vector<element_t<T>>& got, const std::vector<float>& ref) {
  REQUIRE(got.size() == ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const float g = static_cast<float>(got[i]), r = ref[i];
    CAPTURE(i);
    CAPTURE(r);
    CAPTURE(g);
    // float32: the kernel sums the gate products in another order (one packed matrix, SIMD
    // lanes) than the reference; float16: computed in float, rounded to half once per output.
    const float tol = T == F32 ? 2e-5f * std::max(1.0f, std::abs(r)) : 2e-3f * std::max(0.05f, std::abs(r));
    REQUIRE(std::abs(g - r) <= tol);
  }
}

/// Layer normalization computes the variance as mean(v^2) - mean(v)^2 (the reference's
/// formula), which cancels badly for a gate vector of two or three nearly equal elements: a
/// difference in the last bit of a gate sum (summation order) then moves the result far more
/// than rounding. The random cells with layer normalization have at least 4 cells.
Cell with_layer_norm_size(Cell c) {
  if (c.layer_norm && c.cell < 4) {
    c.output = c.projection ? c.output : 4;
    c.cell = 4;
  }
  return c;
}

Cell random_cell(std::mt19937& rng, std::uint32_t input, bool allow_layer_norm) {
  auto coin = [&] { return std::uniform_int_distribution<int>(0, 1)(rng) == 1; };
  auto size = [&](int lo, int hi) { return static_cast<std::uint32_t>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  Cell c;
  c.input = input;
  c.cell = size(1, 19);
  c.cifg = coin();
  c.peephole = coin();
  c.projection = coin();
  c.projection_bias = c.projection && coin();
  c.output = c.projection ? size(1, 11) : c.cell;
  c.layer_norm = allow_layer_norm && coin();
  return with_layer_norm_size(c);
}

Params random_params(std::mt19937& rng) {
  static constexpr std::int32_t kActs[] = {0, 1, 3, 4, 6};
  Params p;
  p.activation = kActs[std::uniform_int_distribution<int>(0, 4)(rng)];
  const int clips = std::uniform_int_distribution<int>(0, 3)(rng);
  p.cell_clip = (clips & 1) != 0 ? 0.75f : 0.0f;
  p.proj_clip = (clips & 2) != 0 ? 0.5f : 0.0f;
  return p;
}

template <OperandType T>
void check_lstm(std::uint32_t seed) {
  using E = element_t<T>;
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 60; ++iter) {
    CAPTURE(iter);
    const std::uint32_t batch = std::uniform_int_distribution<std::uint32_t>(1, 3)(rng);
    const bool long_form = iter % 3 != 0;  // 27 inputs (layer norm possible) or 23
    const Cell c = random_cell(rng, std::uniform_int_distribution<std::uint32_t>(1, 17)(rng), long_form);
    const Params p = random_params(rng);
    const Weights w = random_weights<E>(rng, c);
    const auto x = random_vec<E>(rng, std::size_t{batch} * c.input, -1.0f, 1.0f);
    const auto h0 = random_vec<E>(rng, std::size_t{batch} * c.output, -0.5f, 0.5f);
    const auto c0 = random_vec<E>(rng, std::size_t{batch} * c.cell, -0.5f, 0.5f);
    const RefRun ref = ref_sequence(c, p, w, x, {}, h0, c0, 1, batch, true);
    for (bool constant : {false, true}) {
      CAPTURE(constant);
      KernelNode node;
      node.use_workspace();
      add<T>(node, Dims{batch, c.input}, x);
      add_cell<T>(node, c, w);
      add<T>(node, Dims{batch, c.output}, h0);
      add<T>(node, Dims{batch, c.cell}, c0);
      add_scalars<T>(node, p);
      if (long_form) add_layer_norm<T>(node, c, w);
      for (int o = 0; o < 4; ++o) node.output(T);
      if (constant) weights_constant(node, {0, 18, 19});
      REQUIRE(node.run(kernels_of<OperationType::LSTM>()));
      CHECK(node.out(0).dims == Dims{batch, (c.cifg ? 3 : 4) * c.cell});
      CHECK(node.out(3).dims == Dims{batch, c.output});
      check_close<T>(node.values<T>(3), ref.out);
      check_close<T>(node.values<T>(1), ref.h);
      check_close<T>(node.values<T>(2), ref.c);
    }
  }
}

template <OperandType T>
void check_unidirectional(std::uint32_t seed) {
  using E = element_t<T>;
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 40; ++iter) {
    CAPTURE(iter);
    const std::uint32_t batch = std::uniform_int_distribution<std::uint32_t>(1, 3)(rng);
    const std::uint32_t time = std::uniform_int_distribution<std::uint32_t>(1, 5)(rng);
    const bool time_major = iter % 2 == 0, states = iter % 4 < 2;
    const Cell c = random_cell(rng, std::uniform_int_distribution<std::uint32_t>(1, 13)(rng), true);
    const Params p = random_params(rng);
    const Weights w = random_weights<E>(rng, c);
    const auto x = random_vec<E>(rng, std::size_t{time} * batch * c.input, -1.0f, 1.0f);
    const auto h0 = random_vec<E>(rng, std::size_t{batch} * c.output, -0.5f, 0.5f);
    const auto c0 = random_vec<E>(rng, std::size_t{batch} * c.cell, -0.5f, 0.5f);
    const RefRun ref = ref_sequence(c, p, w, x, {}, h0, c0, time, batch, true);
    const Dims in_dims = time_major ? Dims{time, batch, c.input} : Dims{batch, time, c.input};
    for (bool constant : {false, true}) {
      CAPTURE(constant);
      KernelNode node;
      node.use_workspace();
      add<T>(node, in_dims, relayout(x, time, batch, c.input, time_major));
      add_cell<T>(node, c, w);
      add<T>(node, Dims{batch, c.output}, h0);
      add<T>(node, Dims{batch, c.cell}, c0);
      add_scalars<T>(node, p);
      node.scalar<OperandType::BOOL>(time_major ? 1 : 0);
      add_layer_norm<T>(node, c, w);
      for (int o = 0; o < (states ? 3 : 1); ++o) node.output(T);
      if (constant) weights_constant(node, {0, 18, 19});
      REQUIRE(node.run(kernels_of<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM>()));
      check_close<T>(node.values<T>(0), relayout(ref.out, time, batch, c.output, time_major));
      if (states) {
        check_close<T>(node.values<T>(1), ref.h);
        check_close<T>(node.values<T>(2), ref.c);
      }
    }
  }
}

enum class AuxMode { None, Cross, Parallel };

template <OperandType T>
void check_bidirectional(std::uint32_t seed) {
  using E = element_t<T>;
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 40; ++iter) {
    CAPTURE(iter);
    const std::uint32_t batch = std::uniform_int_distribution<std::uint32_t>(1, 3)(rng);
    const std::uint32_t time = std::uniform_int_distribution<std::uint32_t>(1, 4)(rng);
    const bool time_major = iter % 2 == 0, merge = iter % 4 < 2, states = iter % 8 < 4;
    const auto mode = static_cast<AuxMode>(iter % 3);
    const std::uint32_t input = std::uniform_int_distribution<std::uint32_t>(1, 9)(rng);
    // cross linking: the auxiliary input has the input's size (the reference reads that many)
    const std::uint32_t aux_size =
        mode == AuxMode::Cross ? input : std::uniform_int_distribution<std::uint32_t>(1, 9)(rng);
    Cell fw = random_cell(rng, input, true);
    Cell bw = random_cell(rng, mode == AuxMode::Parallel ? aux_size : input, true);
    // the same optional parts in both directions (the reference applies one set to both)
    bw.cifg = fw.cifg, bw.peephole = fw.peephole, bw.layer_norm = fw.layer_norm;
    bw = with_layer_norm_size(bw);
    if (mode == AuxMode::Cross) fw.aux = bw.aux = aux_size;
    const Params p = random_params(rng);
    const Weights wf = random_weights<E>(rng, fw), wb = random_weights<E>(rng, bw);
    const auto x = random_vec<E>(rng, std::size_t{time} * batch * input, -1.0f, 1.0f);
    const auto aux = mode == AuxMode::None ? std::vector<float>{}
                                           : random_vec<E>(rng, std::size_t{time} * batch * aux_size, -1.0f, 1.0f);
    const auto fh = random_vec<E>(rng, std::size_t{batch} * fw.output, -0.5f, 0.5f);
    const auto fc = random_vec<E>(rng, std::size_t{batch} * fw.cell, -0.5f, 0.5f);
    const auto bh = random_vec<E>(rng, std::size_t{batch} * bw.output, -0.5f, 0.5f);
    const auto bc = random_vec<E>(rng, std::size_t{batch} * bw.cell, -0.5f, 0.5f);
    const std::vector<float> cross_aux = mode == AuxMode::Cross ? aux : std::vector<float>{};
    const RefRun rf = ref_sequence(fw, p, wf, x, cross_aux, fh, fc, time, batch, true);
    const RefRun rb = ref_sequence(bw, p, wb, mode == AuxMode::Parallel ? aux : x, cross_aux, bh, bc, time, batch, false);
    std::vector<float> merged;
    for (std::size_t row = 0; row < std::size_t{time} * batch; ++row) {
      merged.insert(merged.end(), rf.out.begin() + static_cast<std::ptrdiff_t>(row * fw.output),
                    rf.out.begin() + static_cast<std::ptrdiff_t>((row + 1) * fw.output));
      merged.insert(merged.end(), rb.out.begin() + static_cast<std::ptrdiff_t>(row * bw.output),
                    rb.out.begin() + static_cast<std::ptrdiff_t>((row + 1) * bw.output));
    }
    auto dims3 = [&](std::uint32_t n) { return time_major ? Dims{time, batch, n} : Dims{batch, time, n}; };
    for (bool constant : {false, true}) {
      CAPTURE(constant);
      KernelNode node;
      node.use_workspace();
      add<T>(node, dims3(input), relayout(x, time, batch, input, time_major));
      add_cell<T>(node, fw, wf);
      add_cell<T>(node, bw, wb);
      add<T>(node, Dims{batch, fw.output}, fh);
      add<T>(node, Dims{batch, fw.cell}, fc);
      add<T>(node, Dims{batch, bw.output}, bh);
      add<T>(node, Dims{batch, bw.cell}, bc);
      add<T>(node, dims3(aux_size), aux.empty() ? aux : relayout(aux, time, batch, aux_size, time_major));
      for (int g = 0; g < 4; ++g) add<T>(node, Dims{fw.cell, aux_size}, wf.a[g]);
      for (int g = 0; g < 4; ++g) add<T>(node, Dims{bw.cell, aux_size}, wb.a[g]);
      add_scalars<T>(node, p);
      node.scalar<OperandType::BOOL>(merge ? 1 : 0);
      node.scalar<OperandType::BOOL>(time_major ? 1 : 0);
      add_layer_norm<T>(node, fw, wf);
      add_layer_norm<T>(node, bw, wb);
      const int outputs = (merge ? 1 : 2) + (states ? 4 : 0);
      for (int o = 0; o < outputs; ++o) node.output(T);
      if (constant) weights_constant(node, {0, 35, 36, 37, 38, 39});
      REQUIRE(node.run(kernels_of<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM>()));
      if (merge) {
        check_close<T>(node.values<T>(0), relayout(merged, time, batch, fw.output + bw.output, time_major));
      } else {
        check_close<T>(node.values<T>(0), relayout(rf.out, time, batch, fw.output, time_major));
        check_close<T>(node.values<T>(1), relayout(rb.out, time, batch, bw.output, time_major));
      }
      if (states) {
        const std::size_t first = merge ? 1 : 2;
        check_close<T>(node.values<T>(first), rf.h);
        check_close<T>(node.values<T>(first + 1), rf.c);
        check_close<T>(node.values<T>(first + 2), rb.h);
        check_close<T>(node.values<T>(first + 3), rb.c);
      }
    }
  }
}

/// A plain 23-input FLOAT32 LSTM node (batch 2, input 3, 4 cells) with `p` and, when
/// `bad_state`, an output state of the wrong shape.
void lstm_node(KernelNode& node, const Params& p, bool bad_state = false) {
  std::mt19937 rng(7);
  Cell c;
  c.input = 3, c.cell = 4, c.output = 4;
  const Weights w = random_weights<float>(rng, c);
  add<F32>(node, Dims{2, 3}, random_vec<float>(rng, 6, -1.0f, 1.0f));
  add_cell<F32>(node, c, w);
  add<F32>(node, bad_state ? Dims{2, 3} : Dims{2, 4}, std::vector<float>(bad_state ? 6 : 8, 0.0f));
  add<F32>(node, Dims{2, 4}, std::vector<float>(8, 0.0f));
  add_scalars<F32>(node, p);
  for (int o = 0; o < 4; ++o) node.output(F32);
}

}  // namespace

TEST_CASE("LSTM: random cells against a plain reference") {
  check_lstm<F32>(1);
  check_lstm<F16>(2);
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM: random cells and layouts against a plain reference") {
  check_unidirectional<F32>(3);
  check_unidirectional<F16>(4);
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary modes, merged outputs and layouts against a plain reference") {
  check_bidirectional<F32>(5);
  check_bidirectional<F16>(6);
}

TEST_CASE("LSTM family: runtime faults are errors") {
  const OpKernel& k = kernels_of<OperationType::LSTM>();
  for (std::int32_t bad : {2, 5, 7, -1}) {
    KernelNode node;
    node.use_workspace();
    lstm_node(node, {bad, 0.0f, 0.0f});
    const Status s = node.run(k);
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  for (float clip : {-1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    KernelNode node;
    node.use_workspace();
    lstm_node(node, {4, clip, 0.0f});
    CHECK_FALSE(node.run(k));
    KernelNode node2;
    node2.use_workspace();
    lstm_node(node2, {4, 0.0f, clip});
    CHECK_FALSE(node2.run(k));
  }
  {
    KernelNode node;
    node.use_workspace();
    lstm_node(node, {4, 0.0f, 0.0f}, true);
    CHECK_FALSE(node.run(k));
  }
  {
    // The kernel never runs without the workspace it planned: an error, not a crash.
    KernelNode node;
    lstm_node(node, {4, 0.0f, 0.0f});
    const Status s = node.run(k);
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == ErrorStatus::GENERAL_FAILURE);
  }
  {
    // A batch larger at execution than planned at prepare is refused.
    KernelNode node;
    node.use_workspace();
    lstm_node(node, {4, 0.0f, 0.0f});
    REQUIRE(node.infer(k));
    auto fn = node.select(k);
    REQUIRE(fn);
    REQUIRE((*fn)(node.io()));
    node.in(0).dims = Dims{3, 3};
    node.in(18).dims = Dims{3, 4};
    node.in(19).dims = Dims{3, 4};
    CHECK_FALSE((*fn)(node.io()));
  }
}

}  // namespace nnhal::test
