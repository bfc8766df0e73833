// CONV_2D and GROUPED_CONV_2D kernels against a convolution written here (double sums for the
// float types, exact int64 accumulation for the quantized ones) on random geometries: both
// layouts, explicit and implicit padding, strides, dilations (CONV_2D), groups
// (GROUPED_CONV_2D), zero points, every activation, same-type and per-channel filters. Every
// path is taken: the plain kernels (runtime filters, NCHW, groups), the packed FLOAT32 kernel
// with weights packed at prepare (constant filter) and packed per run into the workspace
// (filter given as a model input), the same two for the 8-bit SIMD kernel, and the zero-sized
// batch.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "nnhal/kernels/conv_2d.hpp"
#include "nnhal/kernels/grouped_conv_2d.hpp"
#include "ops/kernel_test_util.hpp"
#include "support/run_model.hpp"
#include "validate/model_fixtures.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;

namespace {

constexpr OperandType F32 = OperandType::TENSOR_FLOAT32, F16 = OperandType::TENSOR_FLOAT16,
                      QA8 = OperandType::TENSOR_QUANT8_ASYMM, QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                      QPC8 = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, I32 = OperandType::TENSOR_INT32;

/// One convolution's geometry, in logical NHWC terms.
struct Geo {
  std::uint32_t n = 1, h = 1, w = 1, ic = 1, oc = 1, fh = 1, fw = 1, groups = 1;
  std::int32_t sh = 1, sw = 1, dh = 1, dw = 1;
  std::int32_t pt = 0, pb = 0, pl = 0, pr = 0;  ///< explicit paddings (or those the scheme gives)
  bool nchw = false, explicit_pad = true, layout_input = true, dilation_input = false;
  std::int32_t scheme = 0, act = 0;
  std::uint32_t oh = 0, ow = 0;
};

/// Paddings of an implicit scheme, from operations.md's formula (SAME: total split head-first).
void apply_scheme(Geo& g) {
  auto pad = [](std::int64_t in, std::int64_t s, std::int64_t d, std::int64_t f, std::int32_t& head, std::int32_t& tail) {
    const std::int64_t out = (in + s - 1) / s;
    const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * s + (f - 1) * d + 1 - in);
    head = static_cast<std::int32_t>(total / 2);
    tail = static_cast<std::int32_t>(total - total / 2);
  };
  if (g.scheme == 1) {
    pad(g.h, g.sh, g.dh, g.fh, g.pt, g.pb);
    pad(g.w, g.sw, g.dw, g.fw, g.pl, g.pr);
  } else {
    g.pt = g.pb = g.pl = g.pr = 0;
  }
}

void finish_geo(Geo& g) {
  if (!g.explicit_pad) apply_scheme(g);
  g.oh = static_cast<std::uint32_t>((g.h + g.pt + g.pb - (g.fh - 1) * g.dh - 1) / g.sh + 1);
  g.ow = static_cast<std::uint32_t>((g.w + g.pl + g.pr - (g.fw - 1) * g.dw - 1) / g.sw + 1);
}

/// A random valid geometry; grouped convolutions have no dilation.
Geo random_geo(std::mt19937& gen, bool grouped) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  Geo g;
  g.n = static_cast<std::uint32_t>(pick(1, 2));
  g.groups = grouped ? static_cast<std::uint32_t>(pick(1, 3)) : 1;
  g.ic = g.groups * static_cast<std::uint32_t>(pick(1, 4));
  g.oc = g.groups * static_cast<std::uint32_t>(pick(1, 5));
  g.fh = static_cast<std::uint32_t>(pick(1, 3)), g.fw = static_cast<std::uint32_t>(pick(1, 3));
  g.sh = pick(1, 3), g.sw = pick(1, 3);
  g.dilation_input = !grouped && pick(0, 1) == 1;
  if (g.dilation_input) g.dh = pick(1, 3), g.dw = pick(1, 3);
  g.nchw = pick(0, 1) == 1;
  g.layout_input = grouped || g.dilation_input || g.nchw || pick(0, 1) == 1;
  g.explicit_pad = pick(0, 1) == 1;
  g.scheme = pick(0, 2);
  const int eff_h = static_cast<int>((g.fh - 1) * g.dh + 1), eff_w = static_cast<int>((g.fw - 1) * g.dw + 1);
  g.pt = pick(0, eff_h - 1), g.pb = pick(0, eff_h - 1), g.pl = pick(0, eff_w - 1), g.pr = pick(0, eff_w - 1);
  g.h = static_cast<std::uint32_t>(pick(1, 7)), g.w = static_cast<std::uint32_t>(pick(1, 7));
  const int ph = g.explicit_pad ? g.pt + g.pb : 0, pw = g.explicit_pad ? g.pl + g.pr : 0;
  while (static_cast<int>(g.h) + ph < eff_h) ++g.h;
  while (static_cast<int>(g.w) + pw < eff_w) ++g.w;
  g.act = pick(0, 3);
  finish_geo(g);
  return g;
}

Dims image_dims(const Geo& g, std::uint32_t n, std::uint32_t h, std::uint32_t w, std::uint32_t c) {
  return g.nchw ? Dims{n, c, h, w} : Dims{n, h, w, c};
}

/// Index of logical (b, y, x, c) in an image of the geometry's layout.
std::size_t at(const Geo& g, std::size_t H, std::size_t W, std::size_t C, std::size_t b, std::size_t y, std::size_t x,
               std::size_t c) {
  return g.nchw ? ((b * C + c) * H + y) * W + x : ((b * H + y) * W + x) * C + c;
}

/// The scalars of the node after input, filter and bias, for CONV_2D or GROUPED_CONV_2D.
void add_scalars(KernelNode& node, const Geo& g, bool grouped) {
  using nnhal::OperandType;
  if (g.explicit_pad)
    for (std::int32_t v : {g.pl, g.pr, g.pt, g.pb}) node.scalar<OperandType::INT32>(v);
  else
    node.scalar<OperandType::INT32>(g.scheme);
  node.scalar<OperandType::INT32>(g.sw);
  node.scalar<OperandType::INT32>(g.sh);
  if (grouped) node.scalar<OperandType::INT32>(static_cast<std::int32_t>(g.groups));
  node.scalar<OperandType::INT32>(g.act);
  if (g.layout_input) node.scalar<OperandType::BOOL>(g.nchw ? 1 : 0);
  if (g.dilation_input) {
    node.scalar<OperandType::INT32>(g.dw);
    node.scalar<OperandType::INT32>(g.dh);
  }
}

/// Calls f(b, oy, ox, oc, term) where term(fn) calls fn(input index, filter index) for every tap
/// inside the input: the convolution's loop nest, written independently of the library.
template <class F>
void for_each_term(const Geo& g, F&& f) {
  const std::uint32_t gi = g.ic / g.groups, go = g.oc / g.groups;
  for (std::uint32_t b = 0; b < g.n; ++b)
    for (std::uint32_t oy = 0; oy < g.oh; ++oy)
      for (std::uint32_t ox = 0; ox < g.ow; ++ox)
        for (std::uint32_t oc = 0; oc < g.oc; ++oc) {
          auto terms = [&](auto&& fn) {
            for (std::uint32_t fy = 0; fy < g.fh; ++fy)
              for (std::uint32_t fx = 0; fx < g.fw; ++fx) {
                const std::int64_t iy = std::int64_t{oy} * g.sh - g.pt + std::int64_t{fy} * g.dh;
                const std::int64_t ix = std::int64_t{ox} * g.sw - g.pl + std::int64_t{fx} * g.dw;
                if (iy < 0 || ix < 0 || iy >= g.h || ix >= g.w) continue;
                for (std::uint32_t k = 0; k < gi; ++k) {
                  const std::size_t c = std::size_t{oc / go} * gi + k;
                  fn(at(g, g.h, g.w, g.ic, b, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix), c),
                     ((std::size_t{oc} * g.fh + fy) * g.fw + fx) * gi + k);
                }
              }
          };
          f(at(g, g.oh, g.ow, g.oc, b, oy, ox, oc), oc, terms);
        }
}

const double kInf = std::numeric_limits<double>::infinity();
double act_lo(std::int32_t a) { return a == 0 ? -kInf : (a == 2 ? -1.0 : 0.0); }
double act_hi(std::int32_t a) { return a == 0 || a == 1 ? kInf : (a == 2 ? 1.0 : 6.0); }

template <OperandType T>
const nnhal::OpKernel& kernels_for(bool grouped) {
  (void)T;
  return grouped ? nnhal::test::kernels_of<OperationType::GROUPED_CONV_2D>() : nnhal::test::kernels_of<OperationType::CONV_2D>();
}

/// Float (FLOAT32 or FLOAT16) node on geometry g; `constant_filter` marks filter and bias as
/// constants (the FLOAT32 kernel then packs them at prepare).
template <OperandType T>
void check_float(const Geo& g, bool grouped, bool constant_filter, std::uint32_t seed) {
  using E = nnhal::element_t<T>;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  auto values = [&](std::size_t n) {
    std::vector<E> v(n);
    for (E& e : v) e = E(dist(gen));
    return v;
  };
  const auto x = values(std::size_t{g.n} * g.h * g.w * g.ic);
  const auto w = values(std::size_t{g.oc} * g.fh * g.fw * (g.ic / g.groups));
  const auto bias = values(g.oc);
  KernelNode node;
  node.tensor<T>(image_dims(g, g.n, g.h, g.w, g.ic), x);
  node.tensor<T>({g.oc, g.fh, g.fw, g.ic / g.groups}, w);
  node.tensor<T>({g.oc}, bias);
  if (constant_filter) node.in(1).lifetime = node.in(2).lifetime = nnhal::OperandLifeTime::CONSTANT_COPY;
  add_scalars(node, g, grouped);
  node.output(T);
  REQUIRE(node.run(kernels_for<T>(grouped)));
  REQUIRE(node.out(0).dims == image_dims(g, g.n, g.oh, g.ow, g.oc));
  const auto got = node.values<T>(0);
  const double u = T == F32 ? 1.0 / 16777216.0 : 1.0 / 2048.0;
  std::size_t bad = 0;
  for_each_term(g, [&](std::size_t o, std::uint32_t oc, auto&& terms) {
    double sum = static_cast<float>(bias[oc]), abs_sum = std::fabs(sum);
    std::size_t count = 1;
    terms([&](std::size_t xi, std::size_t wi) {
      const double p = static_cast<double>(static_cast<float>(x[xi])) * static_cast<float>(w[wi]);
      sum += p, abs_sum += std::fabs(p), ++count;
    });
    const double want = std::clamp(sum, act_lo(g.act), act_hi(g.act));
    // Float sums: (count + 1) roundings of 2^-24; half adds one rounding of the result (2^-11).
    const double bound = static_cast<double>(count + 1) * (1.0 / 16777216.0) * abs_sum * 1.01 +
                         (T == F16 ? u * std::fabs(want) : 0.0) + 1e-30;
    const double have = static_cast<float>(got[o]);
    if (!(std::fabs(have - want) <= bound) && bad++ < 3) {
      CAPTURE(o);
      CHECK(have == doctest::Approx(want));
    }
  });
  CHECK(bad == 0);
}

/// Quantized node: input/output T, filter F (T or per-channel), random zero points and scales.
template <OperandType T, OperandType F>
void check_quant(const Geo& g, bool grouped, std::uint32_t seed) {
  using E = nnhal::element_t<T>;
  using W = nnhal::element_t<F>;
  std::mt19937 gen(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  constexpr int qmin = T == QA8 ? 0 : -128, qmax = T == QA8 ? 255 : 127;
  const std::int32_t zx = pick(qmin, qmax), zo = pick(qmin, qmax);
  const std::int32_t zw = F == QPC8 ? 0 : pick(qmin, qmax);
  const float sx = 0.01f * static_cast<float>(pick(1, 100)), so = 0.02f * static_cast<float>(pick(1, 100));
  nnhal::Vector<float> sw(F == QPC8 ? g.oc : 1);
  for (float& s : sw) s = 0.005f * static_cast<float>(pick(1, 100));
  auto bytes = [&](std::size_t n, int lo, int hi) {
    std::vector<std::int32_t> v(n);
    for (auto& e : v) e = pick(lo, hi);
    return v;
  };
  const auto xi = bytes(std::size_t{g.n} * g.h * g.w * g.ic, qmin, qmax);
  const auto wi = bytes(std::size_t{g.oc} * g.fh * g.fw * (g.ic / g.groups), F == QPC8 ? -127 : qmin, F == QPC8 ? 127 : qmax);
  const auto bias = bytes(g.oc, -3000, 3000);
  KernelNode node;
  node.tensor<T>(image_dims(g, g.n, g.h, g.w, g.ic), std::vector<E>(xi.begin(), xi.end()), sx, zx);
  node.tensor<F>({g.oc, g.fh, g.fw, g.ic / g.groups}, std::vector<W>(wi.begin(), wi.end()), F == QPC8 ? 0.0f : sw[0], zw);
  nnhal::SymmPerChannelQuantParams channel{sw, 0};
  if (F == QPC8) node.in(1).channel_quant = &channel;
  node.tensor<I32>({g.oc}, bias, F == QPC8 ? 0.0f : sx * sw[0], 0);
  add_scalars(node, g, grouped);
  node.output(T, so, zo);
  REQUIRE(node.run(kernels_for<T>(grouped)));
  REQUIRE(node.out(0).dims == image_dims(g, g.n, g.oh, g.ow, g.oc));
  const auto got = node.values<T>(0);
  // Activation bounds in the quantized domain (operations.md), then the storage range.
  auto q = [&](double r) { return zo + static_cast<std::int32_t>(std::lround(r / so)); };
  const std::int32_t lo = g.act == 0 ? qmin : std::max(qmin, q(act_lo(g.act)));
  const std::int32_t hi = g.act == 0 || g.act == 1 ? qmax : std::min(qmax, q(act_hi(g.act)));
  std::size_t bad = 0;
  for_each_term(g, [&](std::size_t o, std::uint32_t oc, auto&& terms) {
    std::int64_t acc = bias[oc];
    terms([&](std::size_t x_at, std::size_t w_at) { acc += std::int64_t{xi[x_at] - zx} * (wi[w_at] - zw); });
    const double real = static_cast<double>(sx * sw[F == QPC8 ? oc : 0]) / so;
    // TFLite's fixed-point rescaling (exact), and within 1 of the real-valued result.
    const auto m = nnhal::quant::quantize_multiplier(real);
    const std::int64_t exact = std::clamp<std::int64_t>(
        nnhal::quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift) + zo, lo, hi);
    const double ideal = std::clamp(static_cast<double>(acc) * real + zo, static_cast<double>(lo), static_cast<double>(hi));
    const std::int64_t have = got[o];
    if ((have != exact || std::fabs(static_cast<double>(have) - ideal) > 1.0) && bad++ < 3) {
      CAPTURE(o);
      CAPTURE(acc);
      CAPTURE(ideal);
      CHECK(have == exact);
    }
  });
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("CONV_2D / GROUPED_CONV_2D float kernels on random geometries (layouts, padding, dilation, groups)") {
  std::mt19937 gen(42);
  for (int i = 0; i < 120; ++i) {
    const bool grouped = i % 3 == 2;
    const Geo g = random_geo(gen, grouped);
    CAPTURE(i);
    CAPTURE(grouped);
    CAPTURE(g.nchw);
    CAPTURE(g.explicit_pad);
    const auto seed = static_cast<std::uint32_t>(100 + i);
    check_float<F32>(g, grouped, false, seed);
    check_float<F32>(g, grouped, true, seed);  // packed at prepare when NHWC, one group
    check_float<F16>(g, grouped, false, seed);
  }
}

TEST_CASE("CONV_2D / GROUPED_CONV_2D quantized kernels: zero points, scales, per-channel filters") {
  std::mt19937 gen(7);
  for (int i = 0; i < 80; ++i) {
    const bool grouped = i % 3 == 2;
    const Geo g = random_geo(gen, grouped);
    CAPTURE(i);
    CAPTURE(grouped);
    const auto seed = static_cast<std::uint32_t>(500 + i);
    check_quant<QA8, QA8>(g, grouped, seed);
    check_quant<QA8, QPC8>(g, grouped, seed + 1);
    check_quant<QAS8, QAS8>(g, grouped, seed + 2);
    check_quant<QAS8, QPC8>(g, grouped, seed + 3);
  }
}

TEST_CASE("CONV_2D zero-sized batch: output [0, ...], nothing computed") {
  for (bool nchw : {false, true}) {
    Geo g;
    g.n = 0, g.h = 3, g.w = 3, g.ic = 2, g.oc = 3, g.fh = 2, g.fw = 2, g.nchw = nchw;
    finish_geo(g);
    KernelNode node;
    node.tensor<F32>(image_dims(g, 0, 3, 3, 2), {});
    node.tensor<F32>({3, 2, 2, 2}, std::vector<float>(24, 1.0f));
    node.tensor<F32>({3}, {1, 2, 3});
    add_scalars(node, g, false);
    node.output(F32);
    REQUIRE(node.run(nnhal::test::kernels_of<OperationType::CONV_2D>()));
    CHECK(node.out(0).dims == image_dims(g, 0, 2, 2, 3));
  }
}

namespace {

/// A one-CONV_2D model (NHWC, explicit padding, ReLU6) with the filter and bias either
/// constants or model inputs.
struct ConvModel {
  nnhal::test::malformed::ModelFixture f;
  std::vector<float> x, w, bias;
};

ConvModel conv_model(const Geo& g, bool constant_filter, std::uint32_t seed) {
  namespace fx = nnhal::test::malformed;
  ConvModel cm;
  nnhal::Model& m = cm.f.model;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  auto values = [&](std::size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = dist(gen);
    return v;
  };
  cm.x = values(std::size_t{g.n} * g.h * g.w * g.ic);
  cm.w = values(std::size_t{g.oc} * g.fh * g.fw * g.ic);
  cm.bias = values(g.oc);
  auto constant = [&](const std::vector<float>& v, nnhal::Vector<std::uint32_t> dims) {
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    const auto at = static_cast<std::uint32_t>(m.operandValues.size());
    m.operandValues.resize(at + v.size() * 4);
    std::memcpy(m.operandValues.data() + at, v.data(), v.size() * 4);
    return fx::copy_constant(F32, std::move(dims), at, static_cast<std::uint32_t>(v.size() * 4));
  };
  nnhal::Vector<nnhal::Operand> ops;
  ops.push_back(fx::make_operand(F32, {g.n, g.h, g.w, g.ic}, fx::kInput));
  if (constant_filter) {
    ops.push_back(constant(cm.w, {g.oc, g.fh, g.fw, g.ic}));
    ops.push_back(constant(cm.bias, {g.oc}));
  } else {
    ops.push_back(fx::make_operand(F32, {g.oc, g.fh, g.fw, g.ic}, fx::kInput));
    ops.push_back(fx::make_operand(F32, {g.oc}, fx::kInput));
  }
  for (std::int32_t v : {g.pl, g.pr, g.pt, g.pb, g.sw, g.sh, g.act}) {
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    ops.push_back(fx::copy_constant(OperandType::INT32, {}, fx::append_value(m, v), 4));
  }
  ops.push_back(fx::make_operand(F32, {g.n, g.oh, g.ow, g.oc}, fx::kOutput));
  m.main.operands = ops;
  nnhal::Vector<std::uint32_t> ins;
  for (std::uint32_t i = 0; i < 10; ++i) ins.push_back(i);
  m.main.operations = {nnhal::Operation{OperationType::CONV_2D, ins, {10}}};
  m.main.inputIndexes = constant_filter ? nnhal::Vector<std::uint32_t>{0} : nnhal::Vector<std::uint32_t>{0, 1, 2};
  m.main.outputIndexes = {10};
  fx::fix_consumers(m);
  return cm;
}

}  // namespace

TEST_CASE("CONV_2D FLOAT32 through a prepared model: weights packed at prepare, and per run from inputs") {
  std::mt19937 gen(99);
  for (int i = 0; i < 24; ++i) {
    Geo g = random_geo(gen, false);
    g.nchw = false, g.explicit_pad = true, g.dh = g.dw = 1, g.act = 3;
    g.pt = std::min<std::int32_t>(g.pt, static_cast<std::int32_t>(g.fh) - 1), g.pb = std::min<std::int32_t>(g.pb, static_cast<std::int32_t>(g.fh) - 1);
    g.pl = std::min<std::int32_t>(g.pl, static_cast<std::int32_t>(g.fw) - 1), g.pr = std::min<std::int32_t>(g.pr, static_cast<std::int32_t>(g.fw) - 1);
    g.h = std::max(g.h, g.fh), g.w = std::max(g.w, g.fw);
    g.oc = static_cast<std::uint32_t>(1 + (i * 7) % 40), g.ic = static_cast<std::uint32_t>(1 + i % 9);
    finish_geo(g);
    for (bool constant_filter : {true, false}) {
      CAPTURE(i);
      CAPTURE(constant_filter);
      ConvModel cm = conv_model(g, constant_filter, static_cast<std::uint32_t>(900 + i));
      std::vector<nnhal::test::Arg> inputs{nnhal::test::arg_of(cm.x)};
      if (!constant_filter) {
        inputs.push_back(nnhal::test::arg_of(cm.w));
        inputs.push_back(nnhal::test::arg_of(cm.bias));
      }
      const std::size_t n_out = std::size_t{g.n} * g.oh * g.ow * g.oc;
      const auto r = nnhal::test::run_model<nnhal::OpSet<OperationType::CONV_2D>>(
          cm.f.model, inputs, {nnhal::test::output_of(n_out * 4)});
      const std::string error = r.status.has_value() ? std::string() : std::string(r.status.error().c_str());
      INFO(error);
      REQUIRE(r.status.has_value());
      CHECK(r.guards_intact);
      const auto got = r.output<float>(0);
      REQUIRE(got.size() == n_out);
      std::size_t bad = 0;
      for_each_term(g, [&](std::size_t o, std::uint32_t oc, auto&& terms) {
        double sum = cm.bias[oc], abs_sum = std::fabs(sum);
        std::size_t count = 1;
        terms([&](std::size_t xi, std::size_t wi) {
          const double p = static_cast<double>(cm.x[xi]) * cm.w[wi];
          sum += p, abs_sum += std::fabs(p), ++count;
        });
        const double want = std::clamp(sum, 0.0, 6.0);
        if (!(std::fabs(got[o] - want) <= static_cast<double>(count + 1) * (1.0 / 16777216.0) * abs_sum * 1.01 + 1e-30))
          ++bad;
      });
      CHECK(bad == 0);
    }
  }
}

namespace {

/// Runs a one-CONV_2D quantized model (NHWC, SAME padding, stride 1, RELU) with input/output T
/// and filter F, filter and bias constants or model inputs, and checks every output against
/// int64 sums rescaled as TFLite does.
template <OperandType T, OperandType F>
void check_quant_model(const Geo& g, bool constant_filter, std::uint32_t seed, bool centered_filter = false) {
  namespace fx = nnhal::test::malformed;
  using E = nnhal::element_t<T>;
  using W = nnhal::element_t<F>;
  std::mt19937 gen(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  constexpr int qmin = T == QA8 ? 0 : -128, qmax = T == QA8 ? 255 : 127;
  const std::int32_t zx = pick(qmin, qmax), zo = pick(qmin, qmax);
  // A centered filter (zero point 128 unsigned, 0 signed) has every weight minus its zero
  // point in int8: the quad form of the 8-bit kernel applies where it is compiled.
  const std::int32_t zw = F == QPC8 ? 0 : (centered_filter ? (qmin + qmax + 1) / 2 : pick(qmin, qmax));
  const float sx = 0.05f, so = 0.5f;
  nnhal::Vector<float> sw(F == QPC8 ? g.oc : 1);
  for (float& s : sw) s = 0.01f * static_cast<float>(pick(1, 30));
  std::vector<E> x(std::size_t{g.n} * g.h * g.w * g.ic);
  std::vector<W> w(std::size_t{g.oc} * g.fh * g.fw * g.ic);
  std::vector<std::int32_t> bias(g.oc);
  for (auto& v : x) v = static_cast<E>(pick(qmin, qmax));
  for (auto& v : w) v = static_cast<W>(F == QPC8 ? pick(-127, 127) : pick(qmin, qmax));
  for (auto& v : bias) v = pick(-5000, 5000);

  nnhal::Model m;
  auto bytes_constant = [&](OperandType type, const void* data, std::size_t n, nnhal::Vector<std::uint32_t> dims) {
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    const auto at = static_cast<std::uint32_t>(m.operandValues.size());
    m.operandValues.resize(at + n);
    std::memcpy(m.operandValues.data() + at, data, n);
    return fx::copy_constant(type, std::move(dims), at, static_cast<std::uint32_t>(n));
  };
  nnhal::Operand in = fx::make_operand(T, {g.n, g.h, g.w, g.ic}, fx::kInput);
  in.scale = sx, in.zeroPoint = zx;
  nnhal::Operand filter = constant_filter ? bytes_constant(F, w.data(), w.size(), {g.oc, g.fh, g.fw, g.ic})
                                          : fx::make_operand(F, {g.oc, g.fh, g.fw, g.ic}, fx::kInput);
  nnhal::Operand b = constant_filter ? bytes_constant(I32, bias.data(), bias.size() * 4, {g.oc})
                                     : fx::make_operand(I32, {g.oc}, fx::kInput);
  if (F == QPC8) {
    filter.channelQuant = nnhal::SymmPerChannelQuantParams{sw, 0};
  } else {
    filter.scale = sw[0], filter.zeroPoint = zw;
    b.scale = sx * sw[0];
  }
  nnhal::Vector<nnhal::Operand> ops{in, filter, b};
  for (std::int32_t v : {1, 1, 1, 1}) {  // SAME, stride 1 x 1, RELU
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    ops.push_back(fx::copy_constant(OperandType::INT32, {}, fx::append_value(m, v), 4));
  }
  nnhal::Operand out = fx::make_operand(T, {g.n, g.h, g.w, g.oc}, fx::kOutput);
  out.scale = so, out.zeroPoint = zo;
  ops.push_back(out);
  m.main.operands = ops;
  m.main.operations = {nnhal::Operation{OperationType::CONV_2D, {0, 1, 2, 3, 4, 5, 6}, {7}}};
  m.main.inputIndexes = constant_filter ? nnhal::Vector<std::uint32_t>{0} : nnhal::Vector<std::uint32_t>{0, 1, 2};
  m.main.outputIndexes = {7};
  fx::fix_consumers(m);

  std::vector<nnhal::test::Arg> inputs{nnhal::test::arg_of(x)};
  if (!constant_filter) {
    inputs.push_back(nnhal::test::arg_of(w));
    inputs.push_back(nnhal::test::arg_of(bias));
  }
  const std::size_t n_out = std::size_t{g.n} * g.h * g.w * g.oc;
  const auto r = nnhal::test::run_model<nnhal::OpSet<OperationType::CONV_2D>>(m, inputs, {nnhal::test::output_of(n_out)});
  const std::string error = r.status.has_value() ? std::string() : std::string(r.status.error().c_str());
  INFO(error);
  REQUIRE(r.status.has_value());
  CHECK(r.guards_intact);
  const auto got = r.output<E>(0);
  REQUIRE(got.size() == n_out);
  // SAME with stride 1: output size = input size; the geometry's paddings follow the scheme.
  Geo same = g;
  same.explicit_pad = false, same.scheme = 1, same.sh = same.sw = same.dh = same.dw = 1, same.nchw = false;
  finish_geo(same);
  const std::int32_t lo = std::max(qmin, zo), hi = qmax;
  std::size_t bad = 0;
  for_each_term(same, [&](std::size_t o, std::uint32_t oc, auto&& terms) {
    std::int64_t acc = bias[oc];
    terms([&](std::size_t xi, std::size_t wi) { acc += (std::int64_t{x[xi]} - zx) * (std::int64_t{w[wi]} - zw); });
    const auto mq = nnhal::quant::quantize_multiplier(static_cast<double>(sx * sw[F == QPC8 ? oc : 0]) / so);
    const std::int64_t want = std::clamp<std::int64_t>(
        nnhal::quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), mq.value, mq.shift) + zo, lo, hi);
    if (got[o] != want) ++bad;
  });
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("CONV_2D 8-bit through a prepared model: SIMD path with weights packed at prepare and per run") {
  std::mt19937 gen(5);
  for (int i = 0; i < 16; ++i) {
    Geo g;
    g.n = static_cast<std::uint32_t>(1 + i % 2);
    g.h = static_cast<std::uint32_t>(2 + i % 5), g.w = static_cast<std::uint32_t>(3 + (i * 3) % 7);
    g.ic = static_cast<std::uint32_t>(1 + (i * 5) % 11), g.oc = static_cast<std::uint32_t>(1 + (i * 13) % 70);
    g.fh = static_cast<std::uint32_t>(1 + i % 3), g.fw = static_cast<std::uint32_t>(1 + (i / 3) % 3);
    CAPTURE(i);
    for (bool constant_filter : {true, false}) {
      CAPTURE(constant_filter);
      const auto seed = static_cast<std::uint32_t>(2000 + 8 * i);
      check_quant_model<QA8, QA8>(g, constant_filter, seed);
      check_quant_model<QA8, QPC8>(g, constant_filter, seed + 1);
      check_quant_model<QAS8, QAS8>(g, constant_filter, seed + 2);
      check_quant_model<QAS8, QPC8>(g, constant_filter, seed + 3);
      check_quant_model<QA8, QA8>(g, constant_filter, seed + 4, true);
      check_quant_model<QAS8, QAS8>(g, constant_filter, seed + 5, true);
    }
  }
}
