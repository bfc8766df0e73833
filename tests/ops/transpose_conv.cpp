// TRANSPOSE_CONV_2D kernels: every type (float32, float16, quant8 asymm / signed with a same-type
// or a per-channel filter) on random shapes, filters, strides, paddings (explicit, including the
// negative right / bottom padding the reference allows, and the implicit form with its
// output-shape tensor), zero points, activations and both layouts, against a plain scatter
// reference written here (double sums for float, int64 for 8-bit); zero-sized batch; errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/transpose_conv_2d.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::test::KernelNode;

namespace {

constexpr auto kOp = nnhal::OperationType::TRANSPOSE_CONV_2D;

struct Problem {
  std::uint32_t n, h, w, c, k, fh, fw;  // c = depth in, k = depth out
  std::int32_t stride_w, stride_h;
  bool explicit_form, nchw;
  std::int32_t scheme, shape_h, shape_w;  // implicit form: scheme, output-shape tensor values
  std::int32_t pl, pr, pt, pb;            // explicit, or derived from the implicit form
  std::int32_t act;
  std::uint32_t oh, ow;
};

/// The reference's transpose-conv padding of an implicit scheme for an output of `out`.
void transpose_padding(std::int32_t out, std::int32_t s, std::int32_t f, std::int32_t scheme, std::int32_t& head,
                       std::int32_t& tail) {
  head = tail = 0;
  if (scheme != 1) return;
  const std::int32_t blocks = (out + s - 1) / s;
  const std::int32_t total = (blocks - 1) * s + f - out;
  if (total > 0) head = total / 2;
  tail = total - head;
}

Problem random_problem(std::mt19937& g) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  for (;;) {
    Problem p{};
    p.n = static_cast<std::uint32_t>(pick(1, 2));
    p.h = static_cast<std::uint32_t>(pick(1, 6));
    p.w = static_cast<std::uint32_t>(pick(1, 7));
    p.c = static_cast<std::uint32_t>(pick(1, 9));
    p.k = static_cast<std::uint32_t>(pick(1, 7));
    p.fh = static_cast<std::uint32_t>(pick(1, 4));
    p.fw = static_cast<std::uint32_t>(pick(1, 4));
    p.stride_w = pick(1, 3), p.stride_h = pick(1, 3);
    p.nchw = pick(0, 1) == 1;
    p.explicit_form = pick(0, 1) == 1;
    p.act = pick(0, 3);
    if (p.explicit_form) {
      p.pl = pick(0, 2), p.pt = pick(0, 2), p.pr = pick(-1, 2), p.pb = pick(-1, 2);
    } else {
      p.scheme = pick(1, 2);
      p.shape_h = static_cast<std::int32_t>(p.h) * p.stride_h + pick(-1, 1);
      p.shape_w = static_cast<std::int32_t>(p.w) * p.stride_w + pick(-1, 1);
      if (p.shape_h < 1 || p.shape_w < 1) continue;
      transpose_padding(p.shape_h, p.stride_h, static_cast<std::int32_t>(p.fh), p.scheme, p.pt, p.pb);
      transpose_padding(p.shape_w, p.stride_w, static_cast<std::int32_t>(p.fw), p.scheme, p.pl, p.pr);
    }
    const std::int64_t oh = std::int64_t{p.h} * p.stride_h + p.fh - p.stride_h - p.pt - p.pb;
    const std::int64_t ow = std::int64_t{p.w} * p.stride_w + p.fw - p.stride_w - p.pl - p.pr;
    if (oh <= 0 || ow <= 0) continue;
    p.oh = static_cast<std::uint32_t>(oh), p.ow = static_cast<std::uint32_t>(ow);
    return p;
  }
}

/// Element offset in an image of either layout (ops/kernel_test_util.hpp).
constexpr auto at = &nnhal::test::image_offset;
using nnhal::test::image_dims;

/// Scatter, as the reference: f(output offset, input offset, filter offset) for every product
/// that lands inside the output.
template <class F>
void for_each_product(const Problem& p, F&& f) {
  for (std::size_t b = 0; b < p.n; ++b)
    for (std::size_t y = 0; y < p.h; ++y)
      for (std::size_t x = 0; x < p.w; ++x)
        for (std::size_t k = 0; k < p.k; ++k)
          for (std::size_t i = 0; i < p.fh; ++i)
            for (std::size_t j = 0; j < p.fw; ++j) {
              const std::int64_t oy = static_cast<std::int64_t>(y) * p.stride_h - p.pt + static_cast<std::int64_t>(i);
              const std::int64_t ox = static_cast<std::int64_t>(x) * p.stride_w - p.pl + static_cast<std::int64_t>(j);
              if (oy < 0 || ox < 0 || oy >= p.oh || ox >= p.ow) continue;
              for (std::size_t d = 0; d < p.c; ++d)
                f(at(p.nchw, p.oh, p.ow, p.k, b, static_cast<std::size_t>(oy), static_cast<std::size_t>(ox), k),
                  at(p.nchw, p.h, p.w, p.c, b, y, x, d), ((k * p.fh + i) * p.fw + j) * p.c + d);
            }
}

/// Output offset -> output channel.
std::size_t channel_of(const Problem& p, std::size_t o) {
  return p.nchw ? (o / (std::size_t{p.oh} * p.ow)) % p.k : o % p.k;
}

void add_scalars(KernelNode& node, const Problem& p) {
  if (p.explicit_form) {
    for (std::int32_t v : {p.pl, p.pr, p.pt, p.pb}) node.scalar<OperandType::INT32>(v);
  } else {
    const std::vector<std::int32_t> shape =
        p.nchw ? std::vector<std::int32_t>{static_cast<std::int32_t>(p.n), static_cast<std::int32_t>(p.k), p.shape_h, p.shape_w}
               : std::vector<std::int32_t>{static_cast<std::int32_t>(p.n), p.shape_h, p.shape_w, static_cast<std::int32_t>(p.k)};
    node.tensor<OperandType::TENSOR_INT32>({4}, shape);
    node.scalar<OperandType::INT32>(p.scheme);
  }
  node.scalar<OperandType::INT32>(p.stride_w);
  node.scalar<OperandType::INT32>(p.stride_h);
  node.scalar<OperandType::INT32>(p.act);
  node.scalar<OperandType::BOOL>(p.nchw ? 1 : 0);
}

double act_lo(std::int32_t act) { return act == 1 || act == 3 ? 0.0 : act == 2 ? -1.0 : -std::numeric_limits<double>::infinity(); }
double act_hi(std::int32_t act) { return act == 3 ? 6.0 : act == 2 ? 1.0 : std::numeric_limits<double>::infinity(); }

template <OperandType T>
void check_float(const Problem& p, std::mt19937& g) {
  using E = nnhal::element_t<T>;
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<E> in(std::size_t{p.n} * p.h * p.w * p.c), filter(std::size_t{p.k} * p.fh * p.fw * p.c), bias(p.k);
  for (auto* v : {&in, &filter, &bias})
    for (auto& x : *v) x = E(u(g));
  KernelNode node;
  node.tensor<T>(image_dims(p.nchw, p.n, p.h, p.w, p.c), in);
  node.tensor<T>({p.k, p.fh, p.fw, p.c}, filter);
  node.tensor<T>({p.k}, bias);
  add_scalars(node, p);
  node.output(T);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  REQUIRE(node.out(0).dims == image_dims(p.nchw, p.n, p.oh, p.ow, p.k));
  const std::size_t count = std::size_t{p.n} * p.oh * p.ow * p.k;
  std::vector<double> sum(count, 0.0), abs_sum(count, 0.0);
  std::vector<std::size_t> terms(count, 0);
  for_each_product(p, [&](std::size_t o, std::size_t i, std::size_t f) {
    const double prod = static_cast<double>(static_cast<float>(in[i])) * static_cast<float>(filter[f]);
    sum[o] += prod, abs_sum[o] += std::fabs(prod), ++terms[o];
  });
  const auto got = node.values<T>(0);
  constexpr double u24 = 1.0 / 16777216.0;
  for (std::size_t o = 0; o < count; ++o) {
    const double b = static_cast<float>(bias[channel_of(p, o)]);
    const double want = std::clamp(sum[o] + b, act_lo(p.act), act_hi(p.act));
    double bound = static_cast<double>(terms[o] + 2) * u24 * (abs_sum[o] + std::fabs(b)) * 1.01 + 1e-30;
    if (T == OperandType::TENSOR_FLOAT16) bound += std::fabs(want) / 2048.0 + u24;
    const double diff = std::fabs(static_cast<double>(static_cast<float>(got[o])) - want);
    if (!(diff <= bound)) {
      CAPTURE(o);
      CHECK(diff <= bound);
    }
  }
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
  const float in_s = scale(0.01f, 0.1f), out_s = scale(0.05f, 0.5f);
  std::vector<float> f_scales(kPerChannel ? p.k : 1);
  for (float& s : f_scales) s = scale(0.005f, 0.05f);
  std::vector<E> in(std::size_t{p.n} * p.h * p.w * p.c);
  std::vector<F> filter(std::size_t{p.k} * p.fh * p.fw * p.c);
  std::vector<std::int32_t> bias(p.k);
  for (auto& x : in) x = static_cast<E>(pick(qmin, qmax));
  for (auto& x : filter) x = static_cast<F>(pick(std::numeric_limits<F>::min(), std::numeric_limits<F>::max()));
  for (auto& x : bias) x = pick(-3000, 3000);
  KernelNode node;
  node.tensor<T>(image_dims(p.nchw, p.n, p.h, p.w, p.c), in, in_s, in_zp);
  node.tensor<FT>({p.k, p.fh, p.fw, p.c}, filter, kPerChannel ? 0.0f : f_scales[0], f_zp);
  nnhal::SymmPerChannelQuantParams channel{nnhal::Vector<float>(f_scales.begin(), f_scales.end()), 0};
  if (kPerChannel) node.in(1).channel_quant = &channel;
  node.tensor<OperandType::TENSOR_INT32>({p.k}, bias, kPerChannel ? 0.0f : in_s * f_scales[0], 0);
  add_scalars(node, p);
  node.output(T, out_s, out_zp);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  REQUIRE(node.out(0).dims == image_dims(p.nchw, p.n, p.oh, p.ow, p.k));
  const std::size_t count = std::size_t{p.n} * p.oh * p.ow * p.k;
  std::vector<std::int64_t> acc(count, 0);
  for_each_product(p, [&](std::size_t o, std::size_t i, std::size_t f) {
    acc[o] += (std::int64_t{in[i]} - in_zp) * (std::int64_t{filter[f]} - f_zp);
  });
  const auto q = [&](double r) { return out_zp + static_cast<std::int32_t>(std::lround(r / out_s)); };
  const std::int32_t lo = p.act == 0 ? qmin : std::max(qmin, q(act_lo(p.act)));
  const std::int32_t hi = p.act == 0 || p.act == 1 ? qmax : std::min(qmax, q(act_hi(p.act)));
  const auto got = node.values<T>(0);
  for (std::size_t o = 0; o < count; ++o) {
    const std::size_t k = channel_of(p, o);
    const auto m = nnhal::quant::quantize_multiplier(static_cast<double>(in_s * f_scales[kPerChannel ? k : 0]) /
                                                     static_cast<double>(out_s));
    const std::int32_t r =
        nnhal::quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc[o] + bias[k]), m.value, m.shift) + out_zp;
    const std::int32_t want = std::clamp(r, lo, hi);
    if (got[o] != want) {
      CAPTURE(o);
      CHECK(static_cast<std::int32_t>(got[o]) == want);
    }
  }
}

}  // namespace

TEST_CASE("TRANSPOSE_CONV_2D every type against a plain scatter reference on random problems") {
  std::mt19937 g(91);
  for (int i = 0; i < 200; ++i) {
    const Problem p = random_problem(g);
    CAPTURE(i);
    INFO("n=" << p.n << " h=" << p.h << " w=" << p.w << " c=" << p.c << " k=" << p.k << " f=" << p.fh << "x" << p.fw
              << " s=" << p.stride_h << "," << p.stride_w << " explicit=" << p.explicit_form << " nchw=" << p.nchw
              << " pads=" << p.pl << "," << p.pr << "," << p.pt << "," << p.pb << " act=" << p.act);
    check_float<OperandType::TENSOR_FLOAT32>(p, g);
    check_float<OperandType::TENSOR_FLOAT16>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM, false>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM, true>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED, false>(p, g);
    check_quant<OperandType::TENSOR_QUANT8_ASYMM_SIGNED, true>(p, g);
  }
}

TEST_CASE("TRANSPOSE_CONV_2D implicit form: SAME gives the shape tensor's size when it is a multiple of the stride") {
  // in 3x4, stride 2, filter 3: SAME with the output-shape tensor [1, 6, 8, 1] pads so the
  // output is exactly 6 x 8; VALID ignores the tensor: 3 * 2 + 3 - 2 = 7 by 4 * 2 + 3 - 2 = 9.
  for (std::int32_t scheme : {1, 2}) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({1, 3, 4, 1}, std::vector<float>(12, 1.0f));
    node.tensor<OperandType::TENSOR_FLOAT32>({1, 3, 3, 1}, std::vector<float>(9, 1.0f));
    node.tensor<OperandType::TENSOR_FLOAT32>({1}, {0.0f});
    node.tensor<OperandType::TENSOR_INT32>({4}, {1, 6, 8, 1});
    for (std::int32_t v : {scheme, 2, 2, 0}) node.scalar<OperandType::INT32>(v);
    node.scalar<OperandType::BOOL>(0);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
    CHECK(node.out(0).dims == (scheme == 1 ? Dims{1, 6, 8, 1} : Dims{1, 7, 9, 1}));
  }
}

TEST_CASE("TRANSPOSE_CONV_2D zero-sized batch") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({0, 2, 2, 1}, {}, 0.5f, 0);
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({2, 2, 2, 1}, std::vector<std::uint8_t>(8, 1), 0.5f, 0);
  node.tensor<OperandType::TENSOR_INT32>({2}, {0, 0}, 0.25f, 0);
  for (std::int32_t v : {0, 0, 0, 0, 1, 1, 0}) node.scalar<OperandType::INT32>(v);
  node.scalar<OperandType::BOOL>(0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(node.run(nnhal::test::kernels_of<kOp>()));
  CHECK(node.out(0).dims == Dims{0, 3, 3, 2});
}

namespace {
/// A float NHWC 1x3x3x2 node with filter `filter`, bias [bias_len], explicit paddings and strides.
KernelNode bad_node(Dims filter, std::uint32_t bias_len, std::int32_t pl, std::int32_t pr, std::int32_t stride,
                    std::int32_t act = 0) {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 3, 3, 2}, std::vector<float>(18, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>(filter, std::vector<float>(filter.element_count(), 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({bias_len}, std::vector<float>(bias_len, 0.0f));
  for (std::int32_t v : {pl, pr, pl, pr, stride, stride, act}) node.scalar<OperandType::INT32>(v);
  node.scalar<OperandType::BOOL>(0);
  node.output(OperandType::TENSOR_FLOAT32);
  return node;
}

/// The implicit form with output-shape tensor `shape` (its dims and values).
KernelNode implicit_node(Dims shape_dims, std::vector<std::int32_t> shape, std::int32_t scheme) {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 3, 3, 2}, std::vector<float>(18, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 2, 2, 2}, std::vector<float>(8, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({1}, {0.0f});
  node.tensor<OperandType::TENSOR_INT32>(shape_dims, shape);
  for (std::int32_t v : {scheme, 1, 1, 0}) node.scalar<OperandType::INT32>(v);
  node.scalar<OperandType::BOOL>(0);
  node.output(OperandType::TENSOR_FLOAT32);
  return node;
}
}  // namespace

TEST_CASE("TRANSPOSE_CONV_2D shape and parameter errors") {
  const auto& k = nnhal::test::kernels_of<kOp>();
  CHECK(bad_node({4, 2, 2, 2}, 4, 0, 0, 1).infer(k));        // the valid baseline
  CHECK(bad_node({4, 2, 2, 2}, 4, 0, -1, 2).infer(k));       // negative right / bottom padding: allowed
  CHECK_FALSE(bad_node({4, 2, 2, 3}, 4, 0, 0, 1).infer(k));  // filter depth != input depth
  CHECK_FALSE(bad_node({4, 2, 2, 2}, 3, 0, 0, 1).infer(k));  // bias length
  CHECK_FALSE(bad_node({4, 2, 2, 2}, 4, 0, 0, 0).infer(k));  // stride 0
  CHECK_FALSE(bad_node({4, 2, 2, 2}, 4, -1, 0, 1).infer(k)); // negative left / top padding
  CHECK_FALSE(bad_node({4, 2, 2, 2}, 4, 2, 2, 1).infer(k));  // output size 3 + 2 - 1 - 4 = 0
  CHECK_FALSE(bad_node({4, 2, 2, 2}, 4, 0, 0, 1, 9).infer(k));  // activation code
  CHECK_FALSE(bad_node({4, 0, 2, 2}, 4, 0, 0, 1).infer(k));  // empty filter
  CHECK_FALSE(bad_node({4, 2, 2}, 4, 0, 0, 1).infer(k));     // filter rank 3

  CHECK(implicit_node({4}, {1, 4, 4, 1}, 1).infer(k));
  CHECK_FALSE(implicit_node({3}, {1, 4, 4}, 1).infer(k));           // output shape of 3 values
  CHECK_FALSE(implicit_node({2, 2}, {1, 4, 4, 1}, 1).infer(k));     // output shape of rank 2
  CHECK_FALSE(implicit_node({4}, {1, 4, 4, 1}, 5).infer(k));        // padding scheme

  // Quantized: the bias scale must be input scale * filter scale; per-channel scale count.
  KernelNode q;
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2, 2, 1}, {1, 2, 3, 4}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 1, 1, 1}, {3}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_INT32>({1}, {0}, 0.3f, 0);
  for (std::int32_t v : {0, 0, 0, 0, 1, 1, 0}) q.scalar<OperandType::INT32>(v);
  q.scalar<OperandType::BOOL>(0);
  q.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(q.infer(k));
  CHECK_FALSE(q.select(k));

  KernelNode pc;
  pc.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2, 2, 1}, {1, 2, 3, 4}, 0.5f, 0);
  pc.tensor<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>({2, 1, 1, 1}, {1, 2}, 0.0f, 0);
  const nnhal::SymmPerChannelQuantParams one{{0.5f}, 0};
  pc.in(1).channel_quant = &one;
  pc.tensor<OperandType::TENSOR_INT32>({2}, {0, 0}, 0.0f, 0);
  for (std::int32_t v : {0, 0, 0, 0, 1, 1, 0}) pc.scalar<OperandType::INT32>(v);
  pc.scalar<OperandType::BOOL>(0);
  pc.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  CHECK_FALSE(pc.run(k));
}
