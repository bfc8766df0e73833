// Kernels of RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN and SVDF
// (nnhal/kernels/rnn.hpp, unidirectional_sequence_rnn.hpp, bidirectional_sequence_rnn.hpp,
// svdf.hpp): float32 (with and without the workspace of the SIMD path) and float16, random
// sizes, activations, layouts, linking modes, merged outputs, state outputs and SVDF ranks,
// against plain references written here from the definitions; and the runtime errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "nnhal/kernels/bidirectional_sequence_rnn.hpp"
#include "nnhal/kernels/rnn.hpp"
#include "nnhal/kernels/svdf.hpp"
#include "nnhal/kernels/unidirectional_sequence_rnn.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::ErrorStatus;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;

/// The element type under test and whether the float32 node gets its workspace.
template <OperandType T, bool Workspace>
struct Mode {
  static constexpr OperandType type = T;
  static constexpr bool workspace = Workspace;
};
using F32Simd = Mode<F32, true>;
using F32Plain = Mode<F32, false>;
using F16Plain = Mode<F16, false>;

/// A value as stored in T.
template <OperandType T>
float round_to(float v) {
  if constexpr (T == F16) return static_cast<float>(Half(v));
  return v;
}

template <OperandType T>
std::vector<element_t<T>> stored(const std::vector<float>& v) {
  std::vector<element_t<T>> out;
  for (float x : v) out.push_back(element_t<T>(x));
  return out;
}

template <OperandType T>
std::vector<float> as_float(const std::vector<element_t<T>>& v) {
  std::vector<float> out;
  for (auto x : v) out.push_back(static_cast<float>(x));
  return out;
}

/// Random values in [-1, 1), already representable in T.
template <OperandType T>
std::vector<float> random_values(std::mt19937& rng, std::size_t n, float scale = 1.0f) {
  std::uniform_real_distribution<float> d(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = round_to<T>(d(rng));
  return v;
}

float apply_act(int act, float v) {
  switch (act) {
    case 1: return std::max(v, 0.0f);
    case 2: return std::min(std::max(v, -1.0f), 1.0f);
    case 3: return std::min(std::max(v, 0.0f), 6.0f);
    default: return v;
  }
}

/// Float32 results may differ from the plain reference by the SIMD kernel's summation order;
/// float16 ones by one rounding of the half result, carried through the recurrence.
template <OperandType T>
void check_close(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  const float tol = T == F16 ? 2e-3f : 1e-5f;
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element ", i, ": got ", got[i], ", want ", want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= tol + tol * std::fabs(want[i]));
  }
}

/// One direction of a basic RNN written from the definition: rows (t, b) of x and out at
/// `row(t, b)`, h_t = act(W x_t + W_aux aux_t + R h_{t-1} + b), rounded to T at each output.
struct Cell {
  std::vector<float> w, aux_w, r, bias, h0;
  std::size_t units = 0, input_size = 0, aux_size = 0;
};

template <OperandType T>
void reference_direction(const Cell& c, const std::vector<float>& x, const std::vector<float>* aux, std::size_t max_time,
                         std::size_t batch, bool time_major, bool backward, int act, std::vector<float>& out,
                         std::size_t out_stride, std::size_t out_offset, std::vector<float>& h_final) {
  auto row = [&](std::size_t t, std::size_t b) { return time_major ? t * batch + b : b * max_time + t; };
  std::vector<float> h = c.h0;
  for (std::size_t s = 0; s < max_time; ++s) {
    const std::size_t t = backward ? max_time - 1 - s : s;
    std::vector<float> next(batch * c.units);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t u = 0; u < c.units; ++u) {
        float acc = c.bias[u];
        for (std::size_t i = 0; i < c.input_size; ++i) acc += x[row(t, b) * c.input_size + i] * c.w[u * c.input_size + i];
        if (aux != nullptr)
          for (std::size_t i = 0; i < c.aux_size; ++i)
            acc += (*aux)[row(t, b) * c.aux_size + i] * c.aux_w[u * c.aux_size + i];
        for (std::size_t k = 0; k < c.units; ++k) acc += h[b * c.units + k] * c.r[u * c.units + k];
        const float v = round_to<T>(apply_act(act, acc));
        next[b * c.units + u] = v;
        out[row(t, b) * out_stride + out_offset + u] = v;
      }
    h = next;
  }
  h_final = h;
}

template <OperandType T>
Cell random_cell(std::mt19937& rng, std::size_t units, std::size_t input_size, std::size_t aux_size, std::size_t batch) {
  Cell c;
  c.units = units, c.input_size = input_size, c.aux_size = aux_size;
  c.w = random_values<T>(rng, units * input_size, 0.5f);
  c.aux_w = random_values<T>(rng, units * aux_size, 0.5f);
  c.r = random_values<T>(rng, units * units, 0.3f);
  c.bias = random_values<T>(rng, units);
  c.h0 = random_values<T>(rng, batch * units);
  return c;
}

int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
auto u32(std::size_t v) { return static_cast<std::uint32_t>(v); }

/// Adds a cell's weights, recurrent weights, bias and hidden state to `n`.
template <OperandType T>
void add_cell(KernelNode& n, const Cell& c, std::size_t batch) {
  n.tensor<T>(Dims{u32(c.units), u32(c.input_size)}, stored<T>(c.w));
  n.tensor<T>(Dims{u32(c.units), u32(c.units)}, stored<T>(c.r));
  n.tensor<T>(Dims{u32(c.units)}, stored<T>(c.bias));
  n.tensor<T>(Dims{u32(batch), u32(c.units)}, stored<T>(c.h0));
}

/// Adds an omitted input of type T.
template <OperandType T>
void omitted(KernelNode& n) {
  const std::uint32_t i = n.tensor<T>(Dims{0}, {});
  (void)i;
  n.in(n.io().input_count() - 1).lifetime = nnhal::OperandLifeTime::NO_VALUE;
  n.in(n.io().input_count() - 1).data = nullptr;
}

}  // namespace

TEST_CASE_TEMPLATE("RNN matches the reference cell", M, F32Simd, F16Plain) {
  constexpr OperandType T = M::type;
  std::mt19937 rng(11);
  for (int iter = 0; iter < 40; ++iter) {
    const std::size_t batch = static_cast<std::size_t>(pick(rng, 0, 3)), input = static_cast<std::size_t>(pick(rng, 1, 9));
    const std::size_t units = static_cast<std::size_t>(pick(rng, 1, 17));
    const int act = pick(rng, 0, 3);
    const Cell c = random_cell<T>(rng, units, input, 0, batch);
    const std::vector<float> x = random_values<T>(rng, batch * input);
    KernelNode n;
    n.tensor<T>(Dims{u32(batch), u32(input)}, stored<T>(x));
    add_cell<T>(n, c, batch);
    n.scalar<OperandType::INT32>(act);
    n.output(T);
    n.output(T);
    REQUIRE(n.run(kernels_of<OperationType::RNN>()));
    std::vector<float> want(batch * units), h;
    reference_direction<T>(c, x, nullptr, 1, batch, true, false, act, want, units, 0, h);
    CHECK(n.out(0).dims == Dims{u32(batch), u32(units)});
    CHECK(n.out(1).dims == Dims{u32(batch), u32(units)});
    check_close<T>(as_float<T>(n.values<T>(0)), want);
    check_close<T>(as_float<T>(n.values<T>(1)), want);
  }
}

TEST_CASE_TEMPLATE("UNIDIRECTIONAL_SEQUENCE_RNN matches the reference cell over time", M, F32Simd, F32Plain, F16Plain) {
  constexpr OperandType T = M::type;
  std::mt19937 rng(12);
  for (int iter = 0; iter < 60; ++iter) {
    const std::size_t max_time = static_cast<std::size_t>(pick(rng, 0, 5)), batch = static_cast<std::size_t>(pick(rng, 1, 3));
    const std::size_t input = static_cast<std::size_t>(pick(rng, 1, 7)), units = static_cast<std::size_t>(pick(rng, 1, 13));
    const bool time_major = pick(rng, 0, 1) == 1, state = pick(rng, 0, 1) == 1;
    const int act = pick(rng, 0, 3);
    const Cell c = random_cell<T>(rng, units, input, 0, batch);
    const std::vector<float> x = random_values<T>(rng, max_time * batch * input);
    KernelNode n;
    if constexpr (M::workspace) n.use_workspace();
    n.tensor<T>(time_major ? Dims{u32(max_time), u32(batch), u32(input)} : Dims{u32(batch), u32(max_time), u32(input)},
                stored<T>(x));
    add_cell<T>(n, c, batch);
    n.scalar<OperandType::INT32>(act);
    n.scalar<OperandType::INT32>(time_major ? 1 : 0);
    n.output(T);
    if (state) n.output(T);
    REQUIRE(n.run(kernels_of<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN>()));
    std::vector<float> want(max_time * batch * units), h;
    reference_direction<T>(c, x, nullptr, max_time, batch, time_major, false, act, want, units, 0, h);
    CHECK(n.out(0).dims ==
          (time_major ? Dims{u32(max_time), u32(batch), u32(units)} : Dims{u32(batch), u32(max_time), u32(units)}));
    check_close<T>(as_float<T>(n.values<T>(0)), want);
    if (state) check_close<T>(as_float<T>(n.values<T>(1)), h);
  }
}

TEST_CASE_TEMPLATE("BIDIRECTIONAL_SEQUENCE_RNN matches two reference cells", M, F32Simd, F32Plain, F16Plain) {
  constexpr OperandType T = M::type;
  std::mt19937 rng(13);
  for (int iter = 0; iter < 80; ++iter) {
    const std::size_t max_time = static_cast<std::size_t>(pick(rng, 1, 4)), batch = static_cast<std::size_t>(pick(rng, 1, 3));
    const std::size_t input = static_cast<std::size_t>(pick(rng, 1, 6)), aux_size = static_cast<std::size_t>(pick(rng, 1, 5));
    const std::size_t fw_units = static_cast<std::size_t>(pick(rng, 1, 9)), bw_units = static_cast<std::size_t>(pick(rng, 1, 9));
    const bool time_major = pick(rng, 0, 1) == 1, merge = pick(rng, 0, 1) == 1, states = pick(rng, 0, 1) == 1;
    const int linking = pick(rng, 0, 2);  // none, parallel, cross
    const int act = pick(rng, 0, 3);
    CAPTURE(iter);
    CAPTURE(linking);
    CAPTURE(merge);
    CAPTURE(states);
    const bool has_aux = linking != 0;
    const Cell fw = random_cell<T>(rng, fw_units, input, linking == 2 ? aux_size : 0, batch);
    const Cell bw = random_cell<T>(rng, bw_units, linking == 1 ? aux_size : input, linking == 2 ? aux_size : 0, batch);
    const std::vector<float> x = random_values<T>(rng, max_time * batch * input);
    const std::vector<float> aux = random_values<T>(rng, max_time * batch * aux_size);
    auto seq = [&](std::size_t last) {
      return time_major ? Dims{u32(max_time), u32(batch), u32(last)} : Dims{u32(batch), u32(max_time), u32(last)};
    };
    KernelNode n;
    if constexpr (M::workspace) n.use_workspace();
    n.tensor<T>(seq(input), stored<T>(x));
    add_cell<T>(n, fw, batch);
    add_cell<T>(n, bw, batch);
    if (has_aux)
      n.tensor<T>(seq(aux_size), stored<T>(aux));
    else
      omitted<T>(n);
    if (linking == 2) {
      n.tensor<T>(Dims{u32(fw_units), u32(aux_size)}, stored<T>(fw.aux_w));
      n.tensor<T>(Dims{u32(bw_units), u32(aux_size)}, stored<T>(bw.aux_w));
    } else {
      omitted<T>(n);
      omitted<T>(n);
    }
    n.scalar<OperandType::INT32>(act);
    n.scalar<OperandType::BOOL>(time_major ? 1 : 0);
    n.scalar<OperandType::BOOL>(merge ? 1 : 0);
    const std::size_t outputs = (merge ? 1 : 2) + (states ? 2 : 0);
    for (std::size_t i = 0; i < outputs; ++i) n.output(T);
    REQUIRE(n.run(kernels_of<OperationType::BIDIRECTIONAL_SEQUENCE_RNN>()));

    const std::size_t rows = max_time * batch;
    std::vector<float> fw_out(rows * (merge ? fw_units + bw_units : fw_units)), bw_out(rows * bw_units), fw_h, bw_h;
    const std::vector<float>* cross = linking == 2 ? &aux : nullptr;
    reference_direction<T>(fw, x, cross, max_time, batch, time_major, false, act, fw_out,
                           merge ? fw_units + bw_units : fw_units, 0, fw_h);
    reference_direction<T>(bw, linking == 1 ? aux : x, cross, max_time, batch, time_major, true, act,
                           merge ? fw_out : bw_out, merge ? fw_units + bw_units : bw_units, merge ? fw_units : 0, bw_h);
    CHECK(n.out(0).dims == seq(merge ? fw_units + bw_units : fw_units));
    check_close<T>(as_float<T>(n.values<T>(0)), fw_out);
    if (!merge) check_close<T>(as_float<T>(n.values<T>(1)), bw_out);
    if (states) {
      check_close<T>(as_float<T>(n.values<T>(outputs - 2)), fw_h);
      check_close<T>(as_float<T>(n.values<T>(outputs - 1)), bw_h);
    }
  }
}

namespace {

/// SVDF written from the definition (the reference's state layout and shift).
template <OperandType T>
void reference_svdf(std::size_t batch, std::size_t input, std::size_t units, std::size_t rank, std::size_t memory,
                    const std::vector<float>& x, const std::vector<float>& wf, const std::vector<float>& wt,
                    const std::vector<float>* bias, const std::vector<float>& state, int act, std::vector<float>& out,
                    std::vector<float>& state_out) {
  const std::size_t filters = units * rank;
  out.assign(batch * units, 0.0f);
  state_out.assign(batch * filters * memory, 0.0f);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<float> s(filters);
    for (std::size_t f = 0; f < filters; ++f) {
      float a = 0;
      for (std::size_t i = 0; i < input; ++i) a += wf[f * input + i] * x[b * input + i];
      std::vector<float> mem(state.begin() + static_cast<std::ptrdiff_t>((b * filters + f) * memory),
                             state.begin() + static_cast<std::ptrdiff_t>((b * filters + f + 1) * memory));
      mem[memory - 1] = a;
      float sum = 0;
      for (std::size_t m = 0; m < memory; ++m) sum += wt[f * memory + m] * mem[m];
      s[f] = sum;
      for (std::size_t m = 0; m + 1 < memory; ++m) state_out[(b * filters + f) * memory + m] = round_to<T>(mem[m + 1]);
    }
    for (std::size_t u = 0; u < units; ++u) {
      float acc = bias != nullptr ? (*bias)[u] : 0.0f;
      for (std::size_t r = 0; r < rank; ++r) acc += s[u * rank + r];
      out[b * units + u] = round_to<T>(apply_act(act, acc));
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("SVDF matches the reference filter", M, F32Simd, F32Plain, F16Plain) {
  constexpr OperandType T = M::type;
  std::mt19937 rng(14);
  for (int iter = 0; iter < 60; ++iter) {
    const std::size_t batch = static_cast<std::size_t>(pick(rng, 0, 3)), input = static_cast<std::size_t>(pick(rng, 1, 6));
    const std::size_t units = static_cast<std::size_t>(pick(rng, 1, 5)), rank = static_cast<std::size_t>(pick(rng, 1, 3));
    const std::size_t memory = static_cast<std::size_t>(pick(rng, 1, 5)), filters = units * rank;
    const bool has_bias = pick(rng, 0, 1) == 1;
    const int act = pick(rng, 0, 3);
    const auto x = random_values<T>(rng, batch * input), wf = random_values<T>(rng, filters * input);
    const auto wt = random_values<T>(rng, filters * memory), bias = random_values<T>(rng, units);
    const auto state = random_values<T>(rng, batch * filters * memory);
    KernelNode n;
    if constexpr (M::workspace) n.use_workspace();
    n.tensor<T>(Dims{u32(batch), u32(input)}, stored<T>(x));
    n.tensor<T>(Dims{u32(filters), u32(input)}, stored<T>(wf));
    n.tensor<T>(Dims{u32(filters), u32(memory)}, stored<T>(wt));
    if (has_bias)
      n.tensor<T>(Dims{u32(units)}, stored<T>(bias));
    else
      omitted<T>(n);
    n.tensor<T>(Dims{u32(batch), u32(filters * memory)}, stored<T>(state));
    n.scalar<OperandType::INT32>(static_cast<std::int32_t>(rank));
    n.scalar<OperandType::INT32>(act);
    n.output(T);
    n.output(T);
    REQUIRE(n.run(kernels_of<OperationType::SVDF>()));
    std::vector<float> out, state_out;
    reference_svdf<T>(batch, input, units, rank, memory, x, wf, wt, has_bias ? &bias : nullptr, state, act, out,
                      state_out);
    CHECK(n.out(0).dims == Dims{u32(batch), u32(filters * memory)});
    CHECK(n.out(1).dims == Dims{u32(batch), u32(units)});
    check_close<T>(as_float<T>(n.values<T>(1)), out);
    check_close<T>(as_float<T>(n.values<T>(0)), state_out);
  }
}

TEST_CASE("recurrent kernels refuse bad runtime values with INVALID_ARGUMENT") {
  auto status = [](const nnhal::Status& s) { return s ? ErrorStatus::NONE : s.error().status(); };
  auto rnn = [](int act) {
    KernelNode n;
    n.tensor<F32>(Dims{1, 2}, {1, 2});
    n.tensor<F32>(Dims{3, 2}, std::vector<float>(6, 0.5f));
    n.tensor<F32>(Dims{3, 3}, std::vector<float>(9, 0.5f));
    n.tensor<F32>(Dims{3}, {0, 0, 0});
    n.tensor<F32>(Dims{1, 3}, {0, 0, 0});
    n.scalar<OperandType::INT32>(act);
    n.output(F32);
    n.output(F32);
    return n;
  };
  {
    KernelNode ok = rnn(3);
    CHECK(ok.run(kernels_of<OperationType::RNN>()));
    KernelNode bad = rnn(4);
    CHECK(status(bad.run(kernels_of<OperationType::RNN>())) == ErrorStatus::INVALID_ARGUMENT);
  }
  auto uni = [](int time_major) {
    KernelNode n;
    n.tensor<F32>(Dims{1, 1, 2}, {1, 2});
    n.tensor<F32>(Dims{3, 2}, std::vector<float>(6, 0.5f));
    n.tensor<F32>(Dims{3, 3}, std::vector<float>(9, 0.5f));
    n.tensor<F32>(Dims{3}, {0, 0, 0});
    n.tensor<F32>(Dims{1, 3}, {0, 0, 0});
    n.scalar<OperandType::INT32>(0);
    n.scalar<OperandType::INT32>(time_major);
    n.output(F32);
    return n;
  };
  {
    KernelNode ok = uni(1);
    CHECK(ok.run(kernels_of<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN>()));
    KernelNode bad = uni(2);
    CHECK(status(bad.run(kernels_of<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN>())) == ErrorStatus::INVALID_ARGUMENT);
  }
  // BIDIRECTIONAL: auxiliary weights without the auxiliary input, and an output count that does
  // not fit merge_outputs.
  auto bi = [](bool aux_weights, bool merge, std::size_t outputs) {
    KernelNode n;
    n.tensor<F32>(Dims{1, 1, 2}, {1, 2});
    for (int dir = 0; dir < 2; ++dir) {
      n.tensor<F32>(Dims{3, 2}, std::vector<float>(6, 0.5f));
      n.tensor<F32>(Dims{3, 3}, std::vector<float>(9, 0.5f));
      n.tensor<F32>(Dims{3}, {0, 0, 0});
      n.tensor<F32>(Dims{1, 3}, {0, 0, 0});
    }
    omitted<F32>(n);
    if (aux_weights) {
      n.tensor<F32>(Dims{3, 2}, std::vector<float>(6, 0.5f));
      n.tensor<F32>(Dims{3, 2}, std::vector<float>(6, 0.5f));
    } else {
      omitted<F32>(n);
      omitted<F32>(n);
    }
    n.scalar<OperandType::INT32>(0);
    n.scalar<OperandType::BOOL>(0);
    n.scalar<OperandType::BOOL>(merge ? 1 : 0);
    for (std::size_t i = 0; i < outputs; ++i) n.output(F32);
    return n;
  };
  {
    KernelNode ok = bi(false, true, 3);
    CHECK(ok.run(kernels_of<OperationType::BIDIRECTIONAL_SEQUENCE_RNN>()));
    KernelNode weights_alone = bi(true, false, 2);
    CHECK(status(weights_alone.run(kernels_of<OperationType::BIDIRECTIONAL_SEQUENCE_RNN>())) ==
          ErrorStatus::INVALID_ARGUMENT);
    KernelNode count = bi(false, true, 2);
    CHECK(status(count.run(kernels_of<OperationType::BIDIRECTIONAL_SEQUENCE_RNN>())) == ErrorStatus::INVALID_ARGUMENT);
  }
  // SVDF: a rank that does not divide num_filters, and a state of the documented
  // (memory_size - 1) * num_filters size.
  auto svdf = [](int rank, std::uint32_t state) {
    KernelNode n;
    n.tensor<F32>(Dims{1, 2}, {1, 2});
    n.tensor<F32>(Dims{4, 2}, std::vector<float>(8, 0.5f));
    n.tensor<F32>(Dims{4, 3}, std::vector<float>(12, 0.5f));
    omitted<F32>(n);
    n.tensor<F32>(Dims{1, state}, std::vector<float>(state, 0.0f));
    n.scalar<OperandType::INT32>(rank);
    n.scalar<OperandType::INT32>(0);
    n.output(F32);
    n.output(F32);
    return n;
  };
  {
    KernelNode ok = svdf(2, 12);
    CHECK(ok.run(kernels_of<OperationType::SVDF>()));
    KernelNode rank = svdf(3, 12);
    CHECK(status(rank.run(kernels_of<OperationType::SVDF>())) == ErrorStatus::INVALID_ARGUMENT);
    KernelNode state = svdf(2, 8);
    CHECK(status(state.run(kernels_of<OperationType::SVDF>())) == ErrorStatus::INVALID_ARGUMENT);
  }
}
