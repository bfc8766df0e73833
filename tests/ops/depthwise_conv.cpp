// DEPTHWISE_CONV_2D kernels: every type (float32, float16, quant8 asymm / signed with a same-type
// or a per-channel filter) on random shapes, filter sizes, strides, dilations, explicit and
// implicit paddings, depth multipliers, zero points, activations and both layouts, run through
// the kernel table as the executor does (so the SIMD paths the node selects are what runs),
// against a plain reference written here (double sums for float, int64 sums for 8-bit);
// zero-sized batch; shape and parameter errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "ops/kernel_test_util.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_ops_depthwise_conv {

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::test::KernelNode;

namespace {

constexpr auto kOp = nnhal::OperationType::DEPTHWISE_CONV_2D;

/// One random problem in NHWC terms.
struct Problem {
  std::uint32_t n, h, w, c, mult, fh, fw;
  std::int32_t stride_w, stride_h, dil_w, dil_h;
  bool explicit_form, nchw, with_dilation;
  std::int32_t scheme;                       // implicit form
  std::int32_t pl, pr, pt, pb;               // explicit form (or derived)
  std::int32_t act;
  std::uint32_t oh, ow;
  std::uint32_t depth() const { return c * mult; }
};

std::int64_t eff(std::int64_t f, std::int64_t d) { return (f - 1) * d + 1; }

/// Reference padding of an implicit scheme (SAME: total = (ceil(in / s) - 1) * s + eff - in).
void same_padding(std::int64_t in, std::int64_t s, std::int64_t e, std::int32_t& head, std::int32_t& tail) {
  const std::int64_t out = (in + s - 1) / s;
  const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * s + e - in);
  head = static_cast<std::int32_t>(total / 2), tail = static_cast<std::int32_t>(total - total / 2);
}

Problem random_problem(std::mt19937& g, bool force_3x3 = false) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  for (;;) {
    Problem p{};
    p.n = static_cast<std::uint32_t>(pick(1, 2));
    p.h = static_cast<std::uint32_t>(pick(1, 12));
    p.w = static_cast<std::uint32_t>(pick(1, 21));
    p.c = static_cast<std::uint32_t>(pick(1, 37));
    p.mult = pick(0, 3) == 0 ? static_cast<std::uint32_t>(pick(2, 3)) : 1;
    p.fh = static_cast<std::uint32_t>(force_3x3 ? 3 : pick(1, 4));
    p.fw = static_cast<std::uint32_t>(force_3x3 ? 3 : pick(1, 4));
    p.stride_w = force_3x3 ? pick(1, 2) : pick(1, 3);
    p.stride_h = force_3x3 ? p.stride_w : pick(1, 3);
    p.with_dilation = !force_3x3 && pick(0, 2) == 0;
    p.dil_w = p.with_dilation ? pick(1, 3) : 1;
    p.dil_h = p.with_dilation ? pick(1, 3) : 1;
    p.nchw = pick(0, 2) == 0;
    p.explicit_form = pick(0, 1) == 0;
    p.act = pick(0, 3);
    const std::int64_t ew = eff(p.fw, p.dil_w), eh = eff(p.fh, p.dil_h);
    if (p.explicit_form) {
      p.pl = pick(0, static_cast<int>(ew - 1)), p.pr = pick(0, static_cast<int>(ew - 1));
      p.pt = pick(0, static_cast<int>(eh - 1)), p.pb = pick(0, static_cast<int>(eh - 1));
    } else {
      p.scheme = pick(1, 2);
      if (p.scheme == 1) {
        same_padding(p.w, p.stride_w, ew, p.pl, p.pr);
        same_padding(p.h, p.stride_h, eh, p.pt, p.pb);
      } else {
        p.pl = p.pr = p.pt = p.pb = 0;
      }
    }
    const std::int64_t sw = p.w + p.pl + p.pr - ew, sh = p.h + p.pt + p.pb - eh;
    if (sw < 0 || sh < 0) continue;
    p.ow = static_cast<std::uint32_t>(sw / p.stride_w + 1), p.oh = static_cast<std::uint32_t>(sh / p.stride_h + 1);
    return p;
  }
}

/// Element offset in an image of either layout (ops/kernel_test_util.hpp).
constexpr auto at = &nnhal::test::image_offset;
using nnhal::test::image_dims;

/// Calls f(b, y, x, oc, list of (input offset, filter offset)) per output in the reference's tap
/// order, offsets into the stored input and the [1, fh, fw, depth] filter.
template <class F>
void for_each_output(const Problem& p, F&& f) {
  std::vector<std::pair<std::size_t, std::size_t>> taps;
  for (std::size_t b = 0; b < p.n; ++b)
    for (std::size_t y = 0; y < p.oh; ++y)
      for (std::size_t x = 0; x < p.ow; ++x)
        for (std::size_t ic = 0; ic < p.c; ++ic)
          for (std::size_t m = 0; m < p.mult; ++m) {
            const std::size_t oc = ic * p.mult + m;
            taps.clear();
            for (std::int64_t ky = 0; ky < p.fh; ++ky)
              for (std::int64_t kx = 0; kx < p.fw; ++kx) {
                const std::int64_t iy = static_cast<std::int64_t>(y) * p.stride_h - p.pt + ky * p.dil_h;
                const std::int64_t ix = static_cast<std::int64_t>(x) * p.stride_w - p.pl + kx * p.dil_w;
                if (iy < 0 || ix < 0 || iy >= p.h || ix >= p.w) continue;
                taps.emplace_back(at(p.nchw, p.h, p.w, p.c, b, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix), ic),
                                  (static_cast<std::size_t>(ky) * p.fw + static_cast<std::size_t>(kx)) * p.depth() + oc);
              }
            f(at(p.nchw, p.oh, p.ow, p.depth(), b, y, x, oc), oc, taps);
          }
}

/// Adds the scalars of p's form to `node`.
void add_scalars(KernelNode& node, const Problem& p) {
  using nnhal::OperandType;
  if (p.explicit_form) {
    for (std::int32_t v : {p.pl, p.pr, p.pt, p.pb}) node.scalar<OperandType::INT32>(v);
  } else {
    node.scalar<OperandType::INT32>(p.scheme);
  }
  node.scalar<OperandType::INT32>(p.stride_w);
  node.scalar<OperandType::INT32>(p.stride_h);
  node.scalar<OperandType::INT32>(static_cast<std::int32_t>(p.mult));
  node.scalar<OperandType::INT32>(p.act);
  // The layout flag is needed for NCHW or dilation; NHWC without dilation tries both forms.
  if (p.nchw || p.with_dilation || p.h % 2 == 0) node.scalar<OperandType::BOOL>(p.nchw ? 1 : 0);
  if (p.with_dilation) {
    node.scalar<OperandType::INT32>(p.dil_w);
    node.scalar<OperandType::INT32>(p.dil_h);
  }
}

double act_lo(std::int32_t act) { return act == 1 || act == 3 ? 0.0 : act == 2 ? -1.0 : -std::numeric_limits<double>::infinity(); }
double act_hi(std::int32_t act) { return act == 3 ? 6.0 : act == 2 ? 1.0 : std::numeric_limits<double>::infinity(); }

template <OperandType T>
void check_float(const Problem& p, std::mt19937& g) {
  using E = nnhal::element_t<T>;
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<E> in(std::size_t{p.n} * p.h * p.w * p.c), filter(std::size_t{p.fh} * p.fw * p.depth()), bias(p.depth());
  for (auto* v : {&in, &filter, &bias})
    for (auto& x : *v) x = E(u(g));
  KernelNode node;
  node.tensor<T>(image_dims(p.nchw, p.n, p.h, p.w, p.c), in);
  node.tensor<T>({1, p.fh, p.fw, p.depth()}, filter);
  node.tensor<T>({p.depth()}, bias);
  add_scalars(node, p);
  node.output(T);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  REQUIRE(node.out(0).dims == image_dims(p.nchw, p.n, p.oh, p.ow, p.depth()));
  const auto got = node.values<T>(0);
  constexpr double u24 = 1.0 / 16777216.0;
  const bool half = T == OperandType::TENSOR_FLOAT16;
  for_each_output(p, [&](std::size_t o, std::size_t oc, const auto& taps) {
    double sum = static_cast<float>(bias[oc]), abs_sum = std::fabs(sum);
    for (auto [i, f] : taps) {
      const double prod = static_cast<double>(static_cast<float>(in[i])) * static_cast<float>(filter[f]);
      sum += prod, abs_sum += std::fabs(prod);
    }
    const double want = std::clamp(sum, act_lo(p.act), act_hi(p.act));
    double bound = static_cast<double>(taps.size() + 2) * u24 * abs_sum * 1.01 + 1e-30;
    if (half) bound += std::fabs(want) * (1.0 / 2048.0) + u24;
    const double diff = std::fabs(static_cast<double>(static_cast<float>(got[o])) - want);
    if (!(diff <= bound)) {
      CAPTURE(o);
      CAPTURE(want);
      CHECK(diff <= bound);
    }
  });
}

template <OperandType T, bool kPerChannel>
void check_quant(const Problem& p, std::mt19937& g) {
  using E = nnhal::element_t<T>;
  using F = std::conditional_t<kPerChannel, std::int8_t, E>;
  constexpr OperandType FT = kPerChannel ? OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL : T;
  const std::int32_t qmin = std::numeric_limits<E>::min(), qmax = std::numeric_limits<E>::max();
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  auto scale = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(g); };
  const std::int32_t in_zp = pick(qmin, qmax), f_zp = kPerChannel ? 0 : pick(qmin, qmax), out_zp = pick(qmin, qmax);
  const float in_s = scale(0.01f, 0.1f), out_s = scale(0.02f, 0.3f);
  nnhal::Vector<float> f_scales(kPerChannel ? p.depth() : 1);
  for (float& s : f_scales) s = scale(0.005f, 0.05f);
  std::vector<E> in(std::size_t{p.n} * p.h * p.w * p.c);
  std::vector<F> filter(std::size_t{p.fh} * p.fw * p.depth());
  std::vector<std::int32_t> bias(p.depth());
  for (auto& x : in) x = static_cast<E>(pick(qmin, qmax));
  for (auto& x : filter) x = static_cast<F>(pick(std::numeric_limits<F>::min(), std::numeric_limits<F>::max()));
  for (auto& x : bias) x = pick(-3000, 3000);

  KernelNode node;
  node.tensor<T>(image_dims(p.nchw, p.n, p.h, p.w, p.c), in, in_s, in_zp);
  node.tensor<FT>({1, p.fh, p.fw, p.depth()}, filter, kPerChannel ? 0.0f : f_scales[0], f_zp);
  nnhal::SymmPerChannelQuantParams channel{f_scales, 3};
  if (kPerChannel) node.in(1).channel_quant = &channel;
  node.tensor<OperandType::TENSOR_INT32>({p.depth()}, bias, kPerChannel ? 0.0f : in_s * f_scales[0], 0);
  add_scalars(node, p);
  node.output(T, out_s, out_zp);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  REQUIRE(node.out(0).dims == image_dims(p.nchw, p.n, p.oh, p.ow, p.depth()));
  const auto got = node.values<T>(0);
  const auto q = [&](double r) { return out_zp + static_cast<std::int32_t>(std::lround(r / out_s)); };
  const std::int32_t lo = p.act == 0 ? qmin : std::max(qmin, q(act_lo(p.act)));
  const std::int32_t hi = p.act == 0 || p.act == 1 ? qmax : std::min(qmax, q(act_hi(p.act)));
  for_each_output(p, [&](std::size_t o, std::size_t oc, const auto& taps) {
    std::int64_t acc = bias[oc];
    for (auto [i, f] : taps) acc += (std::int64_t{in[i]} - in_zp) * (std::int64_t{filter[f]} - f_zp);
    const float fs = f_scales[kPerChannel ? oc : 0];
    const auto m = nnhal::quant::quantize_multiplier(static_cast<double>(in_s * fs) / static_cast<double>(out_s));
    const std::int32_t r = nnhal::quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift) + out_zp;
    const std::int32_t want = std::clamp(r, lo, hi);
    if (got[o] != want) {
      CAPTURE(o);
      CAPTURE(acc);
      CHECK(static_cast<std::int32_t>(got[o]) == want);
    }
  });
}

}  // namespace

TEST_CASE("DEPTHWISE_CONV_2D every type against a plain reference on random problems") {
  std::mt19937 g(2024);
  for (int i = 0; i < 160; ++i) {
    const Problem p = random_problem(g, i % 3 == 0);
    CAPTURE(i);
    INFO("n=" << p.n << " h=" << p.h << " w=" << p.w << " c=" << p.c << " mult=" << p.mult << " f=" << p.fh << "x"
              << p.fw << " s=" << p.stride_h << "," << p.stride_w << " d=" << p.dil_h << "," << p.dil_w
              << " explicit=" << p.explicit_form << " nchw=" << p.nchw << " pads=" << p.pl << "," << p.pr << ","
              << p.pt << "," << p.pb << " act=" << p.act);
    check_float<OperandType::TENSOR_FLOAT32>(p, g);
    check_float<OperandType::TENSOR_FLOAT16>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM, false>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM, true>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED, false>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED, true>(p, g);
  }
}

TEST_CASE("DEPTHWISE_CONV_2D 3x3 rows: wide images, stride 1 and 2, channel tails") {
  std::mt19937 g(77);
  for (std::uint32_t c : {1u, 3u, 4u, 8u, 15u, 16u, 17u, 32u, 33u, 48u}) {
    for (std::int32_t s : {1, 2}) {
      Problem p{};
      p.n = 1, p.h = 7, p.w = 29, p.c = c, p.mult = 1, p.fh = p.fw = 3;
      p.stride_w = p.stride_h = s, p.dil_w = p.dil_h = 1;
      p.explicit_form = false, p.scheme = 1, p.nchw = false, p.with_dilation = false, p.act = 0;
      same_padding(p.w, s, 3, p.pl, p.pr);
      same_padding(p.h, s, 3, p.pt, p.pb);
      p.ow = (p.w + s - 1) / s, p.oh = (p.h + s - 1) / s;
      CAPTURE(c);
      CAPTURE(s);
      check_float<OperandType::TENSOR_FLOAT32>(p, g);
      check_quant<OperandType::TENSOR_QUANT8_ASYMM, false>(p, g);
      check_quant<OperandType::TENSOR_QUANT8_ASYMM, true>(p, g);
      check_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED, true>(p, g);
    }
  }
}

TEST_CASE("DEPTHWISE_CONV_2D zero-sized batch") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({0, 3, 3, 2}, {});
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 2, 2, 2}, std::vector<float>(8, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({2}, {1, 2});
  for (std::int32_t v : {1, 1, 1, 1}) node.scalar<OperandType::INT32>(v);  // SAME, strides, multiplier 1
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  CHECK(node.out(0).dims == Dims{0, 3, 3, 2});

  KernelNode q;
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({0, 2, 2, 1}, {}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 1, 1, 1}, {3}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_INT32>({1}, {0}, 0.25f, 0);
  for (std::int32_t v : {2, 1, 1, 1, 0}) q.scalar<OperandType::INT32>(v);  // VALID
  q.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(q.run(nnhal::test::kernels_of<kOp>()));
  CHECK(q.out(0).dims == Dims{0, 2, 2, 1});
}

namespace {
/// A float NHWC node 1x4x4x2, filter [1, 2, 2, fd], bias [bd], explicit padding `pad`, strides,
/// multiplier and activation as given.
KernelNode bad_node(Dims filter, std::uint32_t bias_len, std::int32_t pad, std::int32_t stride, std::int32_t mult,
                    std::int32_t act = 0, std::int32_t dilation = 1) {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 4, 4, 2}, std::vector<float>(32, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>(filter, std::vector<float>(filter.element_count(), 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({bias_len}, std::vector<float>(bias_len, 0.0f));
  for (std::int32_t v : {pad, pad, pad, pad, stride, stride, mult, act}) node.scalar<OperandType::INT32>(v);
  node.scalar<OperandType::BOOL>(0);
  node.scalar<OperandType::INT32>(dilation);
  node.scalar<OperandType::INT32>(dilation);
  node.output(OperandType::TENSOR_FLOAT32);
  return node;
}
}  // namespace

TEST_CASE("DEPTHWISE_CONV_2D shape and parameter errors") {
  const auto& k = nnhal::test::kernels_of<kOp>();
  CHECK(bad_node({1, 2, 2, 2}, 2, 0, 1, 1).infer(k));       // the valid baseline
  CHECK(bad_node({1, 2, 2, 4}, 4, 1, 2, 2).infer(k));       // multiplier 2
  CHECK_FALSE(bad_node({2, 2, 2, 2}, 2, 0, 1, 1).infer(k)); // filter dimension 0 != 1
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 3, 0, 1, 1).infer(k)); // bias length
  CHECK_FALSE(bad_node({1, 2, 2, 3}, 3, 0, 1, 1).infer(k)); // depth_in * multiplier != depth_out
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 1, 2).infer(k)); // multiplier mismatch
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 1, 0).infer(k)); // multiplier 0
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 0, 1).infer(k)); // stride 0
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, -1, 1).infer(k));  // negative stride
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 2, 1, 1).infer(k)); // padding >= effective filter
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, -1, 1, 1).infer(k));  // negative padding
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 1, 1, 7).infer(k));  // activation code
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 1, 1, 0, 0).infer(k));  // dilation 0
  CHECK_FALSE(bad_node({1, 5, 5, 2}, 2, 0, 1, 1).infer(k)); // filter larger than the input
  CHECK_FALSE(bad_node({1, 2, 2, 2}, 2, 0, 1, 1, 0, 4).infer(k));  // dilated filter larger than the input
  CHECK_FALSE(bad_node({1, 2, 2}, 2, 0, 1, 1).infer(k));    // filter rank 3

  // Quantized: the bias scale must be input scale * filter scale.
  KernelNode q;
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2, 2, 1}, {1, 2, 3, 4}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 1, 1, 1}, {3}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_INT32>({1}, {0}, 0.3f, 0);
  for (std::int32_t v : {2, 1, 1, 1, 0}) q.scalar<OperandType::INT32>(v);
  q.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(q.infer(k));
  CHECK_FALSE(q.select(k));

  // Per-channel: one scale per output channel, checked when it runs.
  KernelNode pc;
  pc.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2, 2, 2}, std::vector<std::uint8_t>(8, 1), 0.5f, 0);
  pc.tensor<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>({1, 1, 1, 2}, {1, 2}, 0.0f, 0);
  const nnhal::SymmPerChannelQuantParams three{{0.5f, 0.5f, 0.5f}, 3};
  pc.in(1).channel_quant = &three;
  pc.tensor<OperandType::TENSOR_INT32>({2}, {0, 0}, 0.0f, 0);
  for (std::int32_t v : {2, 1, 1, 1, 0}) pc.scalar<OperandType::INT32>(v);
  pc.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  CHECK_FALSE(pc.run(k));
  const nnhal::SymmPerChannelQuantParams none{{}, 3};
  pc.in(1).channel_quant = &none;
  CHECK_FALSE(pc.select(k));
}

}  // namespace test_ops_depthwise_conv
