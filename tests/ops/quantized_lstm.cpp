// Kernels of QUANTIZED_LSTM and QUANTIZED_16BIT_LSTM (nnhal/kernels/quantized_lstm.hpp,
// quantized_16bit_lstm.hpp) against plain references written here from the definition (the
// reference implementation's integer steps: whole-batch gate buffers, effective biases from the
// zero points, gemmlowp fixed point written generically over the raw type), on random sizes,
// scales, zero points and every combination of CIFG, peephole, layer normalization, projection
// (with and without bias) and clipping; the runtime errors; and a run that allocates nothing.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../support/counting_allocator.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/quantized_16bit_lstm.hpp"
#include "nnhal/kernels/quantized_lstm.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

// ---- gemmlowp fixed point, generic over the raw type (int16 or int32) ------------------------

template <class Raw>
constexpr int kBits = 8 * static_cast<int>(sizeof(Raw));

template <class Raw>
Raw narrow(std::int64_t v) {  // two's complement wrap
  return static_cast<Raw>(v);
}
template <class Raw>
Raw srdhm(Raw a, Raw b) {
  if (a == b && a == std::numeric_limits<Raw>::min()) return std::numeric_limits<Raw>::max();
  const std::int64_t ab = std::int64_t{a} * b;
  const std::int64_t nudge = ab >= 0 ? (std::int64_t{1} << (kBits<Raw> - 2)) : 1 - (std::int64_t{1} << (kBits<Raw> - 2));
  return static_cast<Raw>((ab + nudge) / (std::int64_t{1} << (kBits<Raw> - 1)));
}
std::int64_t rdbp(std::int64_t x, int e) {  // on values of 32 bits at most
  const std::int64_t mask = (std::int64_t{1} << e) - 1;
  const std::int64_t rem = x & mask;
  const std::int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (rem > threshold ? 1 : 0);
}
template <class Raw>
Raw srmbp(Raw x, int e) {  // SaturatingRoundingMultiplyByPOT
  if (e <= 0) return static_cast<Raw>(rdbp(x, -e));
  const std::int64_t threshold = (std::int64_t{1} << (kBits<Raw> - 1 - e)) - 1;
  if (x > threshold) return std::numeric_limits<Raw>::max();
  if (x < -threshold) return std::numeric_limits<Raw>::min();
  return static_cast<Raw>(std::int64_t{x} * (std::int64_t{1} << e));
}
template <class Raw>
Raw konst(std::int32_t v32) {  // RescaleConstantInitializer
  return static_cast<Raw>(rdbp(v32, 32 - kBits<Raw>));
}

template <class Raw>
struct G {
  Raw raw;
  int ib;  // integer bits
  int frac() const { return kBits<Raw> - 1 - ib; }
};
template <class Raw>
G<Raw> g_one(int ib) {
  return {ib == 0 ? std::numeric_limits<Raw>::max() : static_cast<Raw>(std::int64_t{1} << (kBits<Raw> - 1 - ib)), ib};
}
template <class Raw>
G<Raw> add(G<Raw> a, G<Raw> b) { return {narrow<Raw>(std::int64_t{a.raw} + b.raw), a.ib}; }
template <class Raw>
G<Raw> sub(G<Raw> a, G<Raw> b) { return {narrow<Raw>(std::int64_t{a.raw} - b.raw), a.ib}; }
template <class Raw>
G<Raw> mul(G<Raw> a, G<Raw> b) { return {srdhm(a.raw, b.raw), a.ib + b.ib}; }
template <class Raw>
G<Raw> resc(G<Raw> a, int ib) { return {srmbp(a.raw, a.ib - ib), ib}; }

template <class Raw>
G<Raw> exp_interval(G<Raw> a) {  // a in [-1/4, 0), Q0
  const G<Raw> c{konst<Raw>(1895147668), 0}, third{konst<Raw>(715827883), 0};
  const G<Raw> x = add(a, G<Raw>{static_cast<Raw>(std::int64_t{1} << (kBits<Raw> - 1 - 3)), 0});
  const G<Raw> x2 = resc(mul(x, x), 0), x3 = resc(mul(x2, x), 0), x4 = resc(mul(x2, x2), 0);
  const G<Raw> x4_4{srmbp(x4.raw, -2), 0};
  const G<Raw> poly{srmbp(add(resc(mul(add(x4_4, x3), third), 0), x2).raw, -1), 0};
  return add(c, resc(mul(c, add(x, poly)), 0));
}
template <class Raw>
G<Raw> exp_neg(G<Raw> a) {
  const int fb = a.frac();
  const G<Raw> quarter{static_cast<Raw>(std::int64_t{1} << (fb - 2)), a.ib};
  const G<Raw> mask = sub(quarter, G<Raw>{1, a.ib});
  const G<Raw> amq = sub(G<Raw>{static_cast<Raw>(a.raw & mask.raw), a.ib}, quarter);
  G<Raw> r = exp_interval(resc(amq, 0));
  const Raw rem = sub(amq, a).raw;
  const std::int32_t mults[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int e = -2; e <= 4; ++e)
    if (a.ib > e && (rem & (std::int64_t{1} << (fb + e))) != 0) r = mul(r, G<Raw>{konst<Raw>(mults[e + 2]), 0});
  if (a.ib > 5 && a.raw < konst<Raw>(-(1 << (36 - a.ib)))) r = G<Raw>{0, 0};
  if (a.raw == 0) r = g_one<Raw>(0);
  return r;
}
template <class Raw>
G<Raw> newton(G<Raw> a, bool minus) {
  const G<Raw> half{static_cast<Raw>(nnhal::fixed::rounding_half_sum(a.raw, g_one<Raw>(0).raw)), 0};
  G<Raw> x = add(G<Raw>{konst<Raw>(1515870810), 2}, mul(half, G<Raw>{konst<Raw>(-1010580540), 2}));
  for (int i = 0; i < 3; ++i) x = add(x, resc(mul(x, sub(g_one<Raw>(2), mul(half, x))), 2));
  return minus ? resc(sub(x, g_one<Raw>(2)), 0) : resc(G<Raw>{x.raw, 1}, 0);
}
template <class Raw>
Raw logistic(Raw v, int ib) {
  if (v == 0) return konst<Raw>(1 << 30);
  const G<Raw> a{v, ib};
  const G<Raw> abs = v > 0 ? a : G<Raw>{narrow<Raw>(-std::int64_t{v}), ib};
  const G<Raw> pos = newton(exp_neg(G<Raw>{narrow<Raw>(-std::int64_t{abs.raw}), ib}), false);
  return v > 0 ? pos.raw : sub(g_one<Raw>(0), pos).raw;
}
template <class Raw>
Raw tanh(Raw v, int ib) {
  if (v == 0) return 0;
  const Raw n = v < 0 ? v : narrow<Raw>(-std::int64_t{v});
  const G<Raw> t = newton(exp_neg(G<Raw>{n, ib + 1}), true);
  return v < 0 ? narrow<Raw>(-std::int64_t{t.raw}) : t.raw;
}

std::int32_t mbqm(std::int32_t x, const nnhal::quant::Multiplier& m) {
  return nnhal::quant::multiply_by_quantized_multiplier(x, m.value, m.shift);
}
std::int64_t clamp(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

template <int I>
void check_int32_twin(std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                  std::numeric_limits<std::int32_t>::max());
  for (int k = 0; k < 4000; ++k) {
    const std::int32_t v = k < 3 ? std::array<std::int32_t, 3>{0, std::numeric_limits<std::int32_t>::min(), -1}[k] : any(rng);
    CHECK(logistic<std::int32_t>(v, I) == nnhal::fixed::logistic(nnhal::fixed::Fixed<I>::from_raw(v)).raw);
    CHECK(tanh<std::int32_t>(v, I) == nnhal::fixed::tanh(nnhal::fixed::Fixed<I>::from_raw(v)).raw);
  }
}

template <int I>
void check_int16_all() {
  int bad_l = 0, bad_t = 0;
  for (std::int32_t v = -32768; v <= 32767; ++v) {
    const auto r = static_cast<std::int16_t>(v);
    bad_l += logistic<std::int16_t>(r, I) != nnhal::fixed16::logistic(nnhal::fixed16::F<I>::from_raw(r)).raw;
    bad_t += tanh<std::int16_t>(r, I) != nnhal::fixed16::tanh(nnhal::fixed16::F<I>::from_raw(r)).raw;
  }
  CHECK(bad_l == 0);
  CHECK(bad_t == 0);
}

}  // namespace

TEST_CASE("test reference: generic gemmlowp logistic and tanh equal the library's int32 ones") {
  std::mt19937 rng(7);
  check_int32_twin<0>(rng);
  check_int32_twin<3>(rng);
  check_int32_twin<4>(rng);
  check_int32_twin<6>(rng);
}

TEST_CASE("int16 logistic and tanh (kernels/common/quantized_lstm.hpp) on every input") {
  check_int16_all<0>();
  check_int16_all<3>();
  check_int16_all<4>();
  check_int16_all<5>();
  check_int16_all<6>();
  // Landmarks: logistic(0) = 1/2, tanh(0) = 0, both saturate near +-1 at the extremes.
  CHECK(nnhal::fixed16::logistic(nnhal::fixed16::F<3>::from_raw(0)).raw == 16384);
  CHECK(nnhal::fixed16::tanh(nnhal::fixed16::F<3>::from_raw(32767)).raw >= 32760);
  CHECK(nnhal::fixed16::tanh(nnhal::fixed16::F<3>::from_raw(-32768)).raw <= -32760);
}

// ---- QUANTIZED_LSTM ------------------------------------------------------------------------

namespace {

constexpr auto QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr auto QS8 = OperandType::TENSOR_QUANT8_SYMM;
constexpr auto QS16 = OperandType::TENSOR_QUANT16_SYMM;
constexpr auto TI32 = OperandType::TENSOR_INT32;

struct QCase {
  std::uint32_t B = 1, I = 1, U = 1, O = 1;
  bool cifg = false, peephole = false, layer_norm = false, projection = false, proj_bias = false;
  float cell_clip = 0, proj_clip = 0;
  float in_scale = 1, out_scale = 1, hidden_scale = 1, cell_scale = 1, proj_scale = 1;
  std::int32_t in_zp = 0, out_zp = 0, hidden_zp = 0;
  std::array<float, 4> w_in_scale{}, w_rec_scale{}, peep_scale{}, norm_scale{}, inter{};
  std::vector<std::int8_t> x, h;
  std::vector<std::int16_t> c;
  std::array<std::vector<std::int8_t>, 4> w_in, w_rec;
  std::array<std::vector<std::int16_t>, 4> peep, norm;
  std::array<std::vector<std::int32_t>, 4> bias;
  std::vector<std::int8_t> proj;
  std::vector<std::int32_t> pbias;
};

template <class T>
std::vector<T> random_values(std::mt19937& rng, std::size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(d(rng));
  return v;
}

QCase random_qcase(std::mt19937& rng, unsigned combo) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto real = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  QCase k;
  k.cifg = (combo & 1) != 0;
  k.peephole = (combo & 2) != 0;
  k.layer_norm = (combo & 4) != 0;
  k.projection = (combo & 8) != 0;
  k.proj_bias = k.projection && pick(0, 1) == 1;
  k.B = static_cast<std::uint32_t>(pick(1, 3));
  k.I = static_cast<std::uint32_t>(pick(1, 9));
  k.U = static_cast<std::uint32_t>(pick(1, 12));
  k.O = k.projection ? static_cast<std::uint32_t>(pick(1, 9)) : k.U;
  k.in_scale = real(0.004f, 0.02f);
  k.out_scale = real(0.002f, 0.03f);
  k.hidden_scale = real(0.003f, 0.02f);
  k.cell_scale = std::ldexp(1.0f, -pick(9, 15));
  k.proj_scale = real(0.002f, 0.01f);
  k.in_zp = pick(-20, 20);
  k.out_zp = pick(-20, 20);
  k.hidden_zp = pick(-10, 10);
  if (pick(0, 2) == 0) k.cell_clip = real(0.05f, 4.0f);
  if (pick(0, 2) == 0) k.proj_clip = real(0.05f, 0.6f);
  for (std::size_t g = 0; g < 4; ++g) {
    k.w_in_scale[g] = real(0.002f, 0.01f);
    k.w_rec_scale[g] = real(0.002f, 0.01f);
    k.peep_scale[g] = real(0.5f, 4.0f);
    k.norm_scale[g] = real(1e-5f, 1e-4f);
    k.inter[g] = real(0.002f, 0.01f);
    k.w_in[g] = random_values<std::int8_t>(rng, std::size_t{k.U} * k.I, -127, 127);
    k.w_rec[g] = random_values<std::int8_t>(rng, std::size_t{k.U} * k.O, -127, 127);
    k.peep[g] = random_values<std::int16_t>(rng, k.U, -200, 200);
    k.norm[g] = random_values<std::int16_t>(rng, k.U, 1000, 30000);
    k.bias[g] = random_values<std::int32_t>(rng, k.U, -3000000, 3000000);
  }
  k.x = random_values<std::int8_t>(rng, std::size_t{k.B} * k.I, -128, 127);
  k.h = random_values<std::int8_t>(rng, std::size_t{k.B} * k.O, -128, 127);
  k.c = random_values<std::int16_t>(rng, std::size_t{k.B} * k.U, -20000, 20000);
  k.proj = random_values<std::int8_t>(rng, std::size_t{k.O} * k.U, -127, 127);
  k.pbias = random_values<std::int32_t>(rng, k.O, -2000, 2000);
  return k;
}

struct QResult {
  std::vector<std::int8_t> out_state, output;
  std::vector<std::int16_t> cell;
};

nnhal::quant::Multiplier qm(double real) { return nnhal::quant::quantize_multiplier(real); }

/// The reference step, whole-batch buffers, in the reference implementation's order.
QResult reference(const QCase& k) {
  const std::uint32_t B = k.B, U = k.U, O = k.O, I = k.I;
  int cell_shift = 0;
  {
    const float l = std::log2(k.cell_scale);
    cell_shift = static_cast<int>(std::lround(l));
  }
  // Effective biases: -zero point times the weights' row sums.
  auto eff_bias = [](const std::vector<std::int8_t>& w, std::uint32_t rows, std::uint32_t cols, std::int32_t zp,
                     const std::vector<std::int32_t>* b) {
    std::vector<std::int32_t> out(rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
      std::int64_t sum = 0;
      for (std::uint32_t c = 0; c < cols; ++c) sum += w[std::size_t{r} * cols + c];
      out[r] = static_cast<std::int32_t>((b ? (*b)[r] : 0) + sum * zp);
    }
    return out;
  };
  auto matmul_acc = [&](const std::vector<std::int8_t>& in, std::uint32_t n_in, const std::vector<std::int32_t>& eb,
                        const std::vector<std::int8_t>& w, std::uint32_t n_out, const nnhal::quant::Multiplier& m,
                        std::int32_t out_zp, auto* out, std::int64_t lo, std::int64_t hi) {
    for (std::uint32_t b = 0; b < B; ++b)
      for (std::uint32_t r = 0; r < n_out; ++r) {
        std::int64_t acc = eb[r];
        for (std::uint32_t c = 0; c < n_in; ++c) acc += std::int64_t{in[std::size_t{b} * n_in + c]} * w[std::size_t{r} * n_in + c];
        std::int64_t v = std::int64_t{mbqm(static_cast<std::int32_t>(acc), m)} + out_zp + out[std::size_t{b} * n_out + r];
        out[std::size_t{b} * n_out + r] = static_cast<std::remove_reference_t<decltype(*out)>>(clamp(v, lo, hi));
      }
  };
  std::array<std::vector<std::int16_t>, 4> gate;
  for (auto& g : gate) g.assign(std::size_t{B} * U, 0);
  std::vector<std::int16_t> cell(std::size_t{B} * U);

  auto gate_pre = [&](std::size_t g, const std::vector<std::int16_t>& cell_for_peephole) {
    std::int16_t* dst = gate[g].data();
    matmul_acc(k.x, I, eff_bias(k.w_in[g], U, I, -k.in_zp, nullptr), k.w_in[g], U,
               qm(static_cast<float>(k.w_in_scale[g] * k.in_scale / k.inter[g])), 0, dst, -32768, 32767);
    matmul_acc(k.h, O, eff_bias(k.w_rec[g], U, O, -k.out_zp, nullptr), k.w_rec[g], U,
               qm(static_cast<float>(k.w_rec_scale[g] * k.out_scale / k.inter[g])), 0, dst, -32768, 32767);
    if (k.peephole && g != 2) {
      const auto m = qm(static_cast<float>(std::pow(2.0, cell_shift) * k.peep_scale[g] / k.inter[g]));
      for (std::uint32_t b = 0; b < B; ++b)
        for (std::uint32_t u = 0; u < U; ++u) {
          const std::size_t i = std::size_t{b} * U + u;
          dst[i] = static_cast<std::int16_t>(clamp(std::int64_t{mbqm(k.peep[g][u] * cell_for_peephole[i], m)} + dst[i], -32768, 32767));
        }
    }
    if (k.layer_norm) {
      const auto m = qm(k.norm_scale[g]);
      const float lim = 10000.0f * k.norm_scale[g];
      const std::int32_t limit = lim >= 1.0f ? 1 : static_cast<std::int32_t>(lim);
      for (std::uint32_t b = 0; b < B; ++b) {
        std::int16_t* row = dst + std::size_t{b} * U;
        std::int64_t sum = 0, sq = 0;
        for (std::uint32_t u = 0; u < U; ++u) sum += row[u], sq += std::int64_t{row[u]} * row[u];
        const auto mean = static_cast<std::int32_t>(sum * 1024 / U);
        const std::int64_t var = sq * ((1 << 20) / U) - std::int64_t{mean} * mean;
        auto var2 = static_cast<std::int32_t>(var / (1 << 20));
        if (var2 < 1) var2 = limit;
        const auto inv = nnhal::fixed::inv_sqrt_multiplier(var2);
        for (std::uint32_t u = 0; u < U; ++u) {
          const std::int32_t r = mbqm(1024 * row[u] - mean, inv);
          const auto v3 = static_cast<std::int32_t>(std::int64_t{r} * k.norm[g][u] + k.bias[g][u]);
          const std::int64_t v3w = v3;
          const auto v4 = static_cast<std::int32_t>((v3w > 0 ? v3w + 512 : v3w - 512) / 1024);
          row[u] = static_cast<std::int16_t>(clamp(mbqm(v4, {m.value, m.shift + 12}), -32768, 32767));
        }
      }
    }
  };
  auto sigmoid = [&](std::size_t g) {
    for (auto& v : gate[g]) v = logistic<std::int16_t>(v, 3);
  };
  gate_pre(1, k.c);
  sigmoid(1);
  gate_pre(2, k.c);
  for (auto& v : gate[2]) v = tanh<std::int16_t>(v, 3);
  if (k.cifg) {
    for (std::size_t i = 0; i < gate[0].size(); ++i) gate[0][i] = static_cast<std::int16_t>(32767 - gate[1][i]);
  } else {
    gate_pre(0, k.c);
    sigmoid(0);
  }
  const std::int16_t cclip = k.cell_clip > 0 ? static_cast<std::int16_t>(std::min(k.cell_clip / k.cell_scale, 32767.0f)) : 0;
  for (std::size_t i = 0; i < cell.size(); ++i) {
    const auto a = static_cast<std::int16_t>(rdbp(std::int32_t{gate[1][i]} * k.c[i], 15));
    const auto b = static_cast<std::int16_t>(rdbp(std::int32_t{gate[0][i]} * gate[2][i], 30 + cell_shift));
    std::int64_t v = clamp(std::int64_t{a} + b, -32768, 32767);
    if (cclip > 0) v = clamp(v, -cclip, cclip);
    cell[i] = static_cast<std::int16_t>(v);
  }
  gate_pre(3, cell);
  sigmoid(3);
  const auto hm = qm(static_cast<float>(std::pow(2.0, -15) / k.hidden_scale * std::pow(2.0, -15)));
  std::vector<std::int8_t> hidden(std::size_t{B} * U);
  for (std::size_t i = 0; i < hidden.size(); ++i) {
    const std::int16_t th = tanh<std::int16_t>(cell[i], cell_shift + 15);
    hidden[i] = static_cast<std::int8_t>(clamp(mbqm(std::int32_t{gate[3][i]} * th, hm) - k.hidden_zp, -128, 127));
  }
  QResult r;
  r.cell = cell;
  if (k.projection) {
    r.output.assign(std::size_t{B} * O, 0);
    const std::vector<std::int32_t> zero(O, 0);
    matmul_acc(hidden, U, eff_bias(k.proj, O, U, k.hidden_zp, k.proj_bias ? &k.pbias : &zero), k.proj, O,
               qm(static_cast<float>(k.proj_scale * k.hidden_scale / k.out_scale)), k.out_zp, r.output.data(), -128, 127);
    if (k.proj_clip > 0) {
      const auto pc = static_cast<std::int8_t>(std::min(k.proj_clip / k.proj_scale, 127.0f));
      for (auto& v : r.output) v = static_cast<std::int8_t>(clamp(v, -pc, pc));
    }
  } else {
    r.output = hidden;
  }
  r.out_state = r.output;
  return r;
}

/// The node of case k; `tweak` may change it before the outputs are added.
template <class Tweak>
void build(KernelNode& n, const QCase& k, Tweak&& tweak) {
  n.use_workspace();  // the gate rows come from the workspace
  n.tensor<QAS8>(Dims{k.B, k.I}, k.x, k.in_scale, k.in_zp);
  for (std::size_t g = 0; g < 4; ++g) {
    if (g == 0 && k.cifg)
      n.omitted(QS8);
    else
      n.tensor<QS8>(Dims{k.U, k.I}, k.w_in[g], k.w_in_scale[g]);
  }
  for (std::size_t g = 0; g < 4; ++g) {
    if (g == 0 && k.cifg)
      n.omitted(QS8);
    else
      n.tensor<QS8>(Dims{k.U, k.O}, k.w_rec[g], k.w_rec_scale[g]);
  }
  for (std::size_t g : {0, 1, 3}) {
    if (!k.peephole || (g == 0 && k.cifg))
      n.omitted(QS16);
    else
      n.tensor<QS16>(Dims{k.U}, k.peep[g], k.peep_scale[g]);
  }
  for (std::size_t g = 0; g < 4; ++g) {
    if (g == 0 && k.cifg)
      n.omitted(TI32);
    else
      n.tensor<TI32>(Dims{k.U}, k.bias[g]);
  }
  if (k.projection)
    n.tensor<QS8>(Dims{k.O, k.U}, k.proj, k.proj_scale);
  else
    n.omitted(QS8);
  if (k.proj_bias)
    n.tensor<TI32>(Dims{k.O}, k.pbias);
  else
    n.omitted(TI32);
  n.tensor<QAS8>(Dims{k.B, k.O}, k.h, k.out_scale, k.out_zp);
  n.tensor<QS16>(Dims{k.B, k.U}, k.c, k.cell_scale);
  for (std::size_t g = 0; g < 4; ++g) {
    if (!k.layer_norm || (g == 0 && k.cifg))
      n.omitted(QS16);
    else
      n.tensor<QS16>(Dims{k.U}, k.norm[g], k.norm_scale[g]);
  }
  n.scalar<OperandType::FLOAT32>(k.cell_clip);
  n.scalar<OperandType::FLOAT32>(k.proj_clip);
  for (float s : k.inter) n.scalar<OperandType::FLOAT32>(s);
  n.scalar<OperandType::INT32>(k.hidden_zp);
  n.scalar<OperandType::FLOAT32>(k.hidden_scale);
  tweak(n);
  n.output(QAS8, k.out_scale, k.out_zp);
  n.output(QS16, k.cell_scale);
  n.output(QAS8, k.out_scale, k.out_zp);
}
void build(KernelNode& n, const QCase& k) {
  build(n, k, [](KernelNode&) {});
}

const nnhal::OpKernel& qlstm() { return kernels_of<OperationType::QUANTIZED_LSTM>(); }

}  // namespace

TEST_CASE("QUANTIZED_LSTM matches the reference over every optional-input combination") {
  std::mt19937 rng(2024);
  std::set<int> outputs, cells;  // the cases are not trivial: results spread over the ranges
  for (unsigned combo = 0; combo < 16; ++combo) {
    for (int rep = 0; rep < 12; ++rep) {
      const QCase k = random_qcase(rng, combo);
      CAPTURE(combo);
      CAPTURE(rep);
      CAPTURE(k.B);
      CAPTURE(k.I);
      CAPTURE(k.U);
      CAPTURE(k.O);
      KernelNode n;
      build(n, k);
      const nnhal::Status s = n.run(qlstm());
      INFO("error: " << (s ? std::string("none") : std::string(s.error().message())));
      REQUIRE(s.has_value());
      const QResult want = reference(k);
      CHECK(n.out(0).dims == Dims{k.B, k.O});
      CHECK(n.out(1).dims == Dims{k.B, k.U});
      CHECK(n.values<QAS8>(0) == want.out_state);
      CHECK(n.values<QS16>(1) == want.cell);
      CHECK(n.values<QAS8>(2) == want.output);
      outputs.insert(want.output.begin(), want.output.end());
      cells.insert(want.cell.begin(), want.cell.end());
    }
  }
  CHECK(outputs.size() > 150);
  CHECK(cells.size() > 1000);
}

TEST_CASE("QUANTIZED_LSTM saturates: extreme values, cell state and clips") {
  std::mt19937 rng(99);
  for (unsigned combo : {4u, 7u, 12u, 15u}) {
    QCase k = random_qcase(rng, combo);
    for (auto& v : k.x) v = v < 0 ? -128 : 127;
    for (auto& v : k.c) v = v < 0 ? -32768 : 32767;
    k.cell_clip = 0.5f;
    k.proj_clip = 0.01f;
    KernelNode n;
    build(n, k);
    REQUIRE(n.run(qlstm()).has_value());
    const QResult want = reference(k);
    CHECK(n.values<QS16>(1) == want.cell);
    CHECK(n.values<QAS8>(2) == want.output);
  }
}

TEST_CASE("QUANTIZED_LSTM refuses what the reference cannot compute") {
  std::mt19937 rng(5);
  const QCase base = random_qcase(rng, 0);  // no CIFG, no peephole, no layer norm, no projection
  auto refused = [&](const QCase& k, auto tweak, const char* fact) {
    INFO("expected: " << fact);
    KernelNode n;
    build(n, k, tweak);
    const nnhal::Status s = n.run(qlstm());
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
    const std::string msg(s.error().message());
    CAPTURE(msg);
    CHECK(msg.find("QUANTIZED_LSTM") != std::string::npos);
    CHECK(msg.find(fact) != std::string::npos);
  };
  auto omit = [](std::size_t i) {
    return [i](KernelNode& n) { n.in(i).lifetime = nnhal::OperandLifeTime::NO_VALUE; };
  };
  // Optional groups given in part (the request may omit any optional subgraph input).
  refused(base, omit(5), "given together");
  refused(base, omit(12), "input gate bias is required");
  {
    QCase k = base;
    k.cifg = true;
    refused(k, [&](KernelNode& n) { n.in(12).lifetime = nnhal::OperandLifeTime::SUBGRAPH_INPUT; n.in(12).dims = Dims{k.U}; n.in(12).data = n.in(13).data; }, "given under CIFG");
  }
  {
    QCase k = base;
    k.peephole = true;
    refused(k, omit(11), "peephole");
    k.peephole = false;
    k.layer_norm = true;
    refused(k, omit(22), "layer-norm");
    k.cifg = true;
    refused(k, [&](KernelNode& n) { n.in(20).lifetime = nnhal::OperandLifeTime::SUBGRAPH_INPUT; n.in(20).dims = Dims{k.U}; n.in(20).data = n.in(21).data; }, "under CIFG");
  }
  refused(base, omit(13), "required input 13");
  // Shapes.
  refused(base, [](KernelNode& n) { n.in(19).dims = Dims{n.in(19).dims[0] + 1, n.in(19).dims[1]}; }, "input 19");
  {
    QCase k = base;
    k.projection = true;
    refused(k, [](KernelNode& n) { n.in(16).dims = Dims{n.in(16).dims[1], n.in(16).dims[0] + 1}; }, "input 16");
  }
  {
    QCase k = base;  // without projection the output size must be num_units
    k.O = k.U + 1;
    for (auto& w : k.w_rec) w.assign(std::size_t{k.U} * k.O, 1);
    k.h.assign(std::size_t{k.B} * k.O, 0);
    refused(k, [](KernelNode&) {}, "without projection");
  }
  // Scales and scalars.
  {
    QCase k = base;
    k.cell_scale = 0.001f;  // not a power of two
    refused(k, [](KernelNode&) {}, "cell state scale");
    k.cell_scale = std::ldexp(1.0f, -8);  // above 2^-9
    refused(k, [](KernelNode&) {}, "cell state scale");
    k.cell_scale = std::ldexp(1.0f, -16);  // below 2^-15
    refused(k, [](KernelNode&) {}, "cell state scale");
  }
  {
    QCase k = base;
    k.hidden_zp = 200;
    refused(k, [](KernelNode&) {}, "zero point 200");
  }
  {
    QCase k = base;
    k.inter[1] = 0.0f;  // infinite forget-gate multipliers
    refused(k, [](KernelNode&) {}, "effective scale of gate 1");
  }
}

TEST_CASE("QUANTIZED_LSTM: a zero batch computes nothing and succeeds") {
  std::mt19937 rng(11);
  QCase k = random_qcase(rng, 15);
  k.B = 0;
  k.x.clear();
  k.h.clear();
  k.c.clear();
  KernelNode n;
  build(n, k);
  REQUIRE(n.run(qlstm()).has_value());
  CHECK(n.out(2).dims == Dims{0, k.O});
}

// ---- QUANTIZED_16BIT_LSTM ------------------------------------------------------------------

namespace {

constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;

struct Q16Case {
  std::uint32_t B = 1, I = 1, O = 1;
  float w_scale = 1;
  std::int32_t w_zp = 0;
  std::vector<std::uint8_t> x, h;
  std::vector<std::int16_t> c;
  std::array<std::vector<std::uint8_t>, 4> wi, wr;
  std::array<std::vector<std::int32_t>, 4> bias;
};

Q16Case random_q16(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Q16Case k;
  k.B = static_cast<std::uint32_t>(pick(1, 3));
  k.I = static_cast<std::uint32_t>(pick(1, 7));
  k.O = static_cast<std::uint32_t>(pick(1, 7));
  k.w_scale = std::uniform_real_distribution<float>(0.001f, 0.02f)(rng);
  k.w_zp = pick(90, 160);
  k.x = random_values<std::uint8_t>(rng, std::size_t{k.B} * k.I, 0, 255);
  k.h = random_values<std::uint8_t>(rng, std::size_t{k.B} * k.O, 0, 255);
  k.c = random_values<std::int16_t>(rng, std::size_t{k.B} * k.O, -32768, 32767);
  for (std::size_t g = 0; g < 4; ++g) {
    k.wi[g] = random_values<std::uint8_t>(rng, std::size_t{k.O} * k.I, 0, 255);
    k.wr[g] = random_values<std::uint8_t>(rng, std::size_t{k.O} * k.O, 0, 255);
    k.bias[g] = random_values<std::int32_t>(rng, k.O, -40000, 40000);
  }
  return k;
}

/// The reference: the eight weight matrices concatenated into one [4 * O, O + I] matrix (gate
/// blocks input, cell, forget, output; recurrent weights in the first O columns), the activations
/// concatenated as [input, previous output], one fully connected layer to Q3.12, then the cell.
std::pair<std::vector<std::int16_t>, std::vector<std::uint8_t>> reference16(const Q16Case& k) {
  const std::uint32_t B = k.B, I = k.I, O = k.O, depth = I + O;
  const std::size_t order[4] = {0, 2, 1, 3};  // block -> gate input position (input, cell, forget, output)
  std::vector<std::uint8_t> W(std::size_t{4} * O * depth);
  std::vector<std::int32_t> bias(std::size_t{4} * O);
  for (std::size_t blk = 0; blk < 4; ++blk) {
    const std::size_t g = order[blk];
    for (std::uint32_t r = 0; r < O; ++r) {
      for (std::uint32_t c = 0; c < O; ++c) W[(blk * O + r) * depth + c] = k.wr[g][std::size_t{r} * O + c];
      for (std::uint32_t c = 0; c < I; ++c) W[(blk * O + r) * depth + O + c] = k.wi[g][std::size_t{r} * I + c];
      bias[blk * O + r] = k.bias[g][r];
    }
  }
  const auto m = qm(4096.0 * static_cast<double>(k.w_scale / 128.0f));
  std::vector<std::int16_t> activ(std::size_t{B} * 4 * O);
  for (std::uint32_t b = 0; b < B; ++b) {
    std::vector<std::uint8_t> concat(k.x.begin() + b * I, k.x.begin() + (b + 1) * I);
    concat.insert(concat.end(), k.h.begin() + b * O, k.h.begin() + (b + 1) * O);
    for (std::uint32_t oc = 0; oc < 4 * O; ++oc) {
      std::int64_t acc = bias[oc];
      for (std::uint32_t d = 0; d < depth; ++d) acc += (concat[d] - 128) * (W[std::size_t{oc} * depth + d] - k.w_zp);
      activ[std::size_t{b} * 4 * O + oc] = static_cast<std::int16_t>(clamp(mbqm(static_cast<std::int32_t>(acc), m), -32768, 32767));
    }
  }
  std::vector<std::int16_t> cell(std::size_t{B} * O);
  std::vector<std::uint8_t> out(std::size_t{B} * O);
  using G16 = G<std::int16_t>;
  for (std::uint32_t b = 0; b < B; ++b)
    for (std::uint32_t c = 0; c < O; ++c) {
      const std::int16_t* a = activ.data() + std::size_t{b} * 4 * O;
      const G16 ig{logistic<std::int16_t>(a[c], 3), 0}, mg{tanh<std::int16_t>(a[O + c], 3), 0};
      const G16 fg{logistic<std::int16_t>(a[2 * O + c], 3), 0}, og{logistic<std::int16_t>(a[3 * O + c], 3), 0};
      const G16 state{k.c[std::size_t{b} * O + c], 4};
      const G16 fs = mul(fg, state);
      const std::int16_t im = resc(mul(ig, mg), 4).raw;
      const auto ns = static_cast<std::int16_t>(clamp(std::int32_t{im} + fs.raw, -32768, 32767));
      const G16 act = mul(og, G16{tanh<std::int16_t>(resc(G16{ns, 4}, 3).raw, 3), 0});
      cell[std::size_t{b} * O + c] = ns;
      out[std::size_t{b} * O + c] = static_cast<std::uint8_t>(128 + clamp(rdbp(act.raw, 8), -128, 127));
    }
  return {cell, out};
}

template <class Tweak>
void build16(KernelNode& n, const Q16Case& k, Tweak&& tweak) {
  n.use_workspace();
  n.tensor<QA8>(Dims{k.B, k.I}, k.x, 1.0f / 128.0f, 128);
  for (std::size_t g = 0; g < 4; ++g) n.tensor<QA8>(Dims{k.O, k.I}, k.wi[g], k.w_scale, k.w_zp);
  for (std::size_t g = 0; g < 4; ++g) n.tensor<QA8>(Dims{k.O, k.O}, k.wr[g], k.w_scale, k.w_zp);
  for (std::size_t g = 0; g < 4; ++g) n.tensor<TI32>(Dims{k.O}, k.bias[g], k.w_scale / 128.0f);
  n.tensor<QS16>(Dims{k.B, k.O}, k.c, 1.0f / 2048.0f);
  n.tensor<QA8>(Dims{k.B, k.O}, k.h, 1.0f / 128.0f, 128);
  tweak(n);
  n.output(QS16, 1.0f / 2048.0f);
  n.output(QA8, 1.0f / 128.0f, 128);
}

}  // namespace

TEST_CASE("QUANTIZED_16BIT_LSTM matches the reference on random sizes") {
  std::mt19937 rng(16);
  const auto& impl = kernels_of<OperationType::QUANTIZED_16BIT_LSTM>();
  int unequal_sizes = 0;
  std::set<int> outputs;
  for (int rep = 0; rep < 60; ++rep) {
    const Q16Case k = random_q16(rng);
    unequal_sizes += k.I != k.O;
    CAPTURE(rep);
    KernelNode n;
    build16(n, k, [](KernelNode&) {});
    const nnhal::Status s = n.run(impl);
    INFO("error: " << (s ? std::string("none") : std::string(s.error().message())));
    REQUIRE(s.has_value());
    const auto want = reference16(k);
    CHECK(n.out(0).dims == Dims{k.B, k.O});
    CHECK(n.values<QS16>(0) == want.first);
    CHECK(n.values<QA8>(1) == want.second);
    outputs.insert(want.second.begin(), want.second.end());
  }
  CHECK(unequal_sizes > 10);
  CHECK(outputs.size() > 100);  // the concatenation order matters only then
}

TEST_CASE("QUANTIZED_16BIT_LSTM refuses other quantizations and shapes") {
  std::mt19937 rng(17);
  const Q16Case k = random_q16(rng);
  const auto& impl = kernels_of<OperationType::QUANTIZED_16BIT_LSTM>();
  auto refused = [&](auto tweak, const char* fact) {
    INFO("expected: " << fact);
    KernelNode n;
    build16(n, k, tweak);
    const nnhal::Status s = n.run(impl);
    REQUIRE_FALSE(s.has_value());
    const std::string msg(s.error().message());
    CAPTURE(msg);
    CHECK(msg.find("QUANTIZED_16BIT_LSTM") != std::string::npos);
    CHECK(msg.find(fact) != std::string::npos);
  };
  refused([](KernelNode& n) { n.in(0).scale = 0.01f; }, "scale 1/128");
  refused([](KernelNode& n) { n.in(14).zero_point = 127; }, "zero point 128");
  refused([](KernelNode& n) { n.in(6).scale *= 2.0f; }, "one scale");
  refused([](KernelNode& n) { n.in(3).zero_point += 1; }, "one scale and zero point");
  refused([](KernelNode& n) { n.in(11).scale *= 1.5f; }, "bias scale");
  refused([](KernelNode& n) { n.in(13).scale = 1.0f / 1024.0f; }, "2^-11");
  refused([](KernelNode& n) { n.in(13).zero_point = 1; }, "2^-11");
  refused([](KernelNode& n) { n.in(2).dims = Dims{n.in(2).dims[0] + 1, n.in(2).dims[1]}; }, "input 2");
  refused([](KernelNode& n) { n.in(13).dims = Dims{n.in(13).dims[0] + 1, n.in(13).dims[1]}; }, "input 13");
  refused([](KernelNode& n) { n.in(1).scale = 0.0f; }, "scale is 0");
}

TEST_CASE("the quantized LSTM kernels allocate nothing while running") {
  std::mt19937 rng(31);
  for (unsigned combo : {15u, 1u, 6u}) {  // every optional input given; CIFG; peephole + layer norm
    const QCase k = random_qcase(rng, combo);
    KernelNode n;
    build(n, k);
    REQUIRE(n.infer(qlstm()).has_value());
    auto fn = n.select(qlstm());
    REQUIRE(fn.has_value());
    bool ok = false;
    CHECK(nnhal::test::allocations_during([&] { ok = (*fn)(n.io()).has_value(); }) == 0);
    CHECK(ok);
    CHECK(n.values<QAS8>(2) == reference(k).output);
  }
  {
    const Q16Case k = random_q16(rng);
    const auto& impl = kernels_of<OperationType::QUANTIZED_16BIT_LSTM>();
    KernelNode n;
    build16(n, k, [](KernelNode&) {});
    REQUIRE(n.infer(impl).has_value());
    auto fn = n.select(impl);
    REQUIRE(fn.has_value());
    bool ok = false;
    CHECK(nnhal::test::allocations_during([&] { ok = (*fn)(n.io()).has_value(); }) == 0);
    CHECK(ok);
    CHECK(n.values<QA8>(1) == reference16(k).second);
  }
}
