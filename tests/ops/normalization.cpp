// SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION and
// INSTANCE_NORMALIZATION kernels: every axis (negative, default), both layouts, float types and
// the quantized algorithms of SOFTMAX and L2_NORMALIZATION. Expected values are the definitions
// evaluated in double precision in this file (quantized: rounded at the fixed output scale,
// within one step).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/instance_normalization.hpp"
#include "nnhal/kernels/l2_normalization.hpp"
#include "nnhal/kernels/local_response_normalization.hpp"
#include "nnhal/kernels/log_softmax.hpp"
#include "nnhal/kernels/softmax.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

/// A [2, 3, 4] tensor of distinct values in about [-3, 3].
std::vector<float> sample() {
  std::vector<float> v;
  for (int i = 0; i < 24; ++i) v.push_back(static_cast<float>((i * 7) % 24) * 0.25f - 3.0f);
  return v;
}

/// For each element of a [2, 3, 4] tensor, the flat indexes of its slice along `axis`.
std::vector<std::size_t> slice_of(std::size_t flat, std::size_t axis) {
  const std::size_t dims[3] = {2, 3, 4};
  std::size_t idx[3] = {flat / 12, (flat / 4) % 3, flat % 4};
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < dims[axis]; ++k) {
    idx[axis] = k;
    out.push_back(idx[0] * 12 + idx[1] * 4 + idx[2]);
  }
  return out;
}

double softmax_ref(const std::vector<float>& x, std::size_t i, std::size_t axis, double beta) {
  double max = -1e300, sum = 0.0;
  for (std::size_t j : slice_of(i, axis)) max = std::max(max, static_cast<double>(x[j]));
  for (std::size_t j : slice_of(i, axis)) sum += std::exp((x[j] - max) * beta);
  return std::exp((x[i] - max) * beta) / sum;
}

std::string message(const nnhal::Status& s) { return s ? std::string() : std::string(s.error().c_str()); }

}  // namespace

TEST_CASE("SOFTMAX float32 along every axis, negative axes and the default last axis") {
  const std::vector<float> x = sample();
  for (std::int32_t axis : {0, 1, 2, -1, -3, 99}) {
    CAPTURE(axis);
    for (float beta : {1.0f, 0.5f}) {
      KernelNode node;
      node.tensor<OperandType::TENSOR_FLOAT32>({2, 3, 4}, x);
      node.scalar<OperandType::FLOAT32>(beta);
      if (axis != 99) node.scalar<OperandType::INT32>(axis);  // 99: the axis input left out
      node.output(OperandType::TENSOR_FLOAT32);
      REQUIRE_MESSAGE(node.run(kernels_of<OperationType::SOFTMAX>()), "axis ", axis);
      const std::size_t a = axis == 99 ? 2 : static_cast<std::size_t>((axis + 3) % 3);
      const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
      for (std::size_t i = 0; i < x.size(); ++i)
        CHECK(got[i] == doctest::Approx(softmax_ref(x, i, a, beta)).epsilon(1e-5));
    }
  }
}

TEST_CASE("SOFTMAX float16 is computed in float and rounded once") {
  const std::vector<float> x = sample();
  std::vector<Half> h;
  for (float f : x) h.push_back(Half(f));
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT16>({2, 3, 4}, h);
  node.scalar<OperandType::FLOAT16>(Half(1.0f));
  node.scalar<OperandType::INT32>(1);
  node.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(node.run(kernels_of<OperationType::SOFTMAX>()));
  const auto got = node.values<OperandType::TENSOR_FLOAT16>(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = softmax_ref(x, i, 1, 1.0);  // the sample values are exact in half
    CHECK(std::abs(static_cast<float>(got[i]) - want) <= want * 0x1p-11 + 1e-6);
  }
}

TEST_CASE("SOFTMAX rejects an axis out of range, beta <= 0 and rank 5 at shape inference") {
  auto infer = [](std::int32_t axis, float beta, const Dims& dims) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(dims, std::vector<float>(dims.element_count(), 1.0f));
    node.scalar<OperandType::FLOAT32>(beta);
    node.scalar<OperandType::INT32>(axis);
    node.output(OperandType::TENSOR_FLOAT32);
    return node.infer(kernels_of<OperationType::SOFTMAX>());
  };
  CHECK(infer(-2, 1.0f, {2, 3}));
  for (const auto& s : {infer(2, 1.0f, {2, 3}), infer(-3, 1.0f, {2, 3}), infer(0, 0.0f, {2, 3}),
                        infer(0, -1.0f, {2, 3}), infer(0, 1.0f, {1, 1, 1, 1, 2})}) {
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
    CHECK(message(s).find("SOFTMAX") != std::string::npos);
  }
}

TEST_CASE("SOFTMAX on a zero-sized input gives a zero-sized output") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({0, 4}, {}, 0.25f, 128);
  node.scalar<OperandType::FLOAT32>(1.0f);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f / 256, 0);
  REQUIRE(node.run(kernels_of<OperationType::SOFTMAX>()));
  CHECK(node.out(0).dims == Dims{0, 4});
}

TEST_CASE_TEMPLATE("quantized SOFTMAX is within one step of the real softmax", E, std::uint8_t, std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr OperandType T = is_signed ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
  const std::int32_t off = is_signed ? -128 : 0, out_zp = is_signed ? -128 : 0;
  // 4 rows of 16: spread values, equal values, one dominant value, a long negative tail.
  std::vector<E> q;
  for (int i = 0; i < 16; ++i) q.push_back(static_cast<E>(i * 16 + off));
  for (int i = 0; i < 16; ++i) q.push_back(static_cast<E>(128 + off));
  for (int i = 0; i < 16; ++i) q.push_back(static_cast<E>((i == 5 ? 255 : 100) + off));
  for (int i = 0; i < 16; ++i) q.push_back(static_cast<E>(255 - i * i + off));
  for (float scale : {0.25f, 0.1f, 0.02f}) {
    for (float beta : {1.0f, 0.5f}) {
      CAPTURE(scale);
      CAPTURE(beta);
      KernelNode node;
      node.tensor<T>({4, 16}, q, scale, 128 + off);
      node.scalar<OperandType::FLOAT32>(beta);
      node.output(T, 1.0f / 256, out_zp);
      const auto s = node.run(kernels_of<OperationType::SOFTMAX>());
      REQUIRE_MESSAGE(s, message(s));
      const auto got = node.values<T>(0);
      for (std::size_t row = 0; row < 4; ++row) {
        double max = -1e300, sum = 0.0;
        for (std::size_t j = 0; j < 16; ++j) max = std::max(max, (q[row * 16 + j] - off - 128) * double{scale});
        for (std::size_t j = 0; j < 16; ++j) sum += std::exp(((q[row * 16 + j] - off - 128) * double{scale} - max) * beta);
        for (std::size_t j = 0; j < 16; ++j) {
          const double p = std::exp(((q[row * 16 + j] - off - 128) * double{scale} - max) * beta) / sum;
          const double want = std::min(255.0, std::round(p * 256)) + out_zp;
          CAPTURE(row);
          CAPTURE(j);
          CHECK(std::abs(got[row * 16 + j] - want) <= 1.0);
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("quantized SOFTMAX with a constant beta: the prepare-time exp table gives the same bits",
                   E, std::uint8_t, std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr OperandType T = is_signed ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
  const std::int32_t out_zp = is_signed ? -128 : 0;
  // Rows of lengths up to 1000 over the whole 8-bit range, so every x - max in [-255, 0]
  // occurs, including the ones below the reference's cut-off; and the same rows squeezed into
  // a narrow range (contiguous rows go through a per-row output table when the row's range is
  // small against its length, and per element otherwise: both must give the same bits).
  std::vector<E> q;
  std::uint32_t state = 12345;
  for (int i = 0; i < 1000 * 64; ++i) {
    state = state * 1664525u + 1013904223u;
    q.push_back(static_cast<E>(static_cast<int>(state >> 24) + (is_signed ? -128 : 0)));
  }
  for (float scale : {1.0f, 0.25f, 0.05f, 0.004f}) {
    for (float beta : {1.0f, 0.37f, 3.0f}) {
      for (const std::size_t row : {std::size_t{1}, std::size_t{7}, std::size_t{40}, std::size_t{257},
                                    std::size_t{1000}})
      for (const bool narrow : {false, true}) {
        CAPTURE(scale);
        CAPTURE(beta);
        CAPTURE(row);
        CAPTURE(narrow);
        std::vector<E> data(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(64 * row));
        if (narrow)
          for (E& v : data) v = static_cast<E>(static_cast<int>(v) / 32 + (is_signed ? 100 : 200));
        auto run = [&](bool constant_beta, bool& used_table) {
          KernelNode node;
          node.tensor<T>({64, static_cast<std::uint32_t>(row)}, data, scale, is_signed ? 0 : 128);
          node.scalar<OperandType::FLOAT32>(beta);
          if (constant_beta) node.in(1).lifetime = nnhal::OperandLifeTime::CONSTANT_COPY;
          node.output(T, 1.0f / 256, out_zp);
          const auto& kernels = kernels_of<OperationType::SOFTMAX>();
          REQUIRE(node.infer(kernels));
          auto k = node.select(kernels);
          REQUIRE(k);
          used_table = *k == &nnhal::kernels::softmax::kernel_quant_table<T>;
          const auto s = (*k)(node.io());
          REQUIRE_MESSAGE(s, message(s));
          return node.values<T>(0);
        };
        bool table_runtime = true, table_constant = false;
        const auto reference = run(false, table_runtime);
        const auto tabled = run(true, table_constant);
        CHECK_FALSE(table_runtime);  // beta from the request: computed per element
        CHECK(table_constant);       // a constant beta: looked up
        CHECK(tabled == reference);
      }
    }
  }
}

TEST_CASE("quantized SOFTMAX needs the output at scale 1/256 and the fixed zero point") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({1, 2}, {0, 1}, 0.5f, 0);
  node.scalar<OperandType::FLOAT32>(1.0f);
  node.output(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 1.0f / 256, 0);  // must be -128
  const auto s = node.run(kernels_of<OperationType::SOFTMAX>());
  REQUIRE_FALSE(s);
  CHECK(message(s).find("SOFTMAX output") != std::string::npos);
}

TEST_CASE("LOG_SOFTMAX float32 and float16 along a negative axis") {
  const std::vector<float> x = sample();
  for (std::int32_t axis : {0, -2, 2}) {
    CAPTURE(axis);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({2, 3, 4}, x);
    node.scalar<OperandType::FLOAT32>(0.75f);
    node.scalar<OperandType::INT32>(axis);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::LOG_SOFTMAX>()));
    const std::size_t a = static_cast<std::size_t>((axis + 3) % 3);
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::size_t i = 0; i < x.size(); ++i)
      CHECK(got[i] == doctest::Approx(std::log(softmax_ref(x, i, a, 0.75))).epsilon(1e-5));

    std::vector<Half> h;
    for (float f : x) h.push_back(Half(f));
    KernelNode half;
    half.tensor<OperandType::TENSOR_FLOAT16>({2, 3, 4}, h);
    half.scalar<OperandType::FLOAT16>(Half(0.75f));
    half.scalar<OperandType::INT32>(axis);
    half.output(OperandType::TENSOR_FLOAT16);
    REQUIRE(half.run(kernels_of<OperationType::LOG_SOFTMAX>()));
    const auto hgot = half.values<OperandType::TENSOR_FLOAT16>(0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = std::log(softmax_ref(x, i, a, 0.75));
      CHECK(std::abs(static_cast<float>(hgot[i]) - want) <= std::abs(want) * 0x1p-10 + 1e-6);
    }
  }
  KernelNode bad;
  bad.tensor<OperandType::TENSOR_FLOAT32>({2, 3}, std::vector<float>(6, 0.0f));
  bad.scalar<OperandType::FLOAT32>(1.0f);
  bad.scalar<OperandType::INT32>(2);
  bad.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(bad.infer(kernels_of<OperationType::LOG_SOFTMAX>()));
}

TEST_CASE("L2_NORMALIZATION float32 along each axis; an all-zero slice gives zeros") {
  std::vector<float> x = sample();
  for (std::size_t i : slice_of(5, 2)) x[i] = 0.0f;  // one all-zero row along the last axis
  for (std::int32_t axis : {0, 1, -1, 99}) {
    CAPTURE(axis);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({2, 3, 4}, x);
    if (axis != 99) node.scalar<OperandType::INT32>(axis);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::L2_NORMALIZATION>()));
    const std::size_t a = axis == 99 ? 2 : static_cast<std::size_t>((axis + 3) % 3);
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      double sum = 0.0;
      for (std::size_t j : slice_of(i, a)) sum += static_cast<double>(x[j]) * x[j];
      const double want = sum == 0.0 ? 0.0 : x[i] / std::sqrt(sum);
      CHECK(got[i] == doctest::Approx(want).epsilon(1e-6));
    }
  }
}

TEST_CASE_TEMPLATE("quantized L2_NORMALIZATION is within one step of x / |x| at scale 1/128", E, std::uint8_t,
                   std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr OperandType T = is_signed ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
  const std::int32_t off = is_signed ? -128 : 0, out_zp = is_signed ? 0 : 128;
  std::vector<E> q;
  for (int i = 0; i < 24; ++i) q.push_back(static_cast<E>((i * 37) % 256 + off));
  for (int i = 0; i < 4; ++i) q[4 + i] = static_cast<E>(100 + off);  // an all-zero slice (zeroPoint 100)
  // axis -1 runs the signed last-axis variant; axis 1 the general loop.
  for (std::int32_t axis : {-1, 1}) {
    CAPTURE(axis);
    KernelNode node;
    node.tensor<T>({2, 3, 4}, q, 0.1f, 100 + off);
    node.scalar<OperandType::INT32>(axis);
    node.output(T, 1.0f / 128, out_zp);
    const auto s = node.run(kernels_of<OperationType::L2_NORMALIZATION>());
    REQUIRE_MESSAGE(s, message(s));
    const std::size_t a = static_cast<std::size_t>((axis + 3) % 3);
    const auto got = node.values<T>(0);
    for (std::size_t i = 0; i < q.size(); ++i) {
      double sum = 0.0;
      for (std::size_t j : slice_of(i, a)) sum += std::pow(q[j] - (100 + off), 2);
      const double real = sum == 0.0 ? 0.0 : (q[i] - (100 + off)) / std::sqrt(sum);
      const double want = std::min<double>(std::numeric_limits<E>::max(),
                                           std::max<double>(std::numeric_limits<E>::min(), std::round(real * 128) + out_zp));
      CAPTURE(i);
      CHECK(std::abs(got[i] - want) <= 1.0);
    }
  }
  KernelNode wrong;
  wrong.tensor<T>({4}, {q[0], q[1], q[2], q[3]}, 0.1f, 100 + off);
  wrong.output(T, 1.0f / 256, out_zp);
  CHECK_FALSE(wrong.run(kernels_of<OperationType::L2_NORMALIZATION>()));
}

TEST_CASE("LOCAL_RESPONSE_NORMALIZATION float32 and float16 along each axis") {
  const std::vector<float> x = sample();
  const std::int32_t radius = 1;
  const float bias = 1.0f, alpha = 0.5f, beta = 0.75f;
  for (std::int32_t axis : {0, 1, -1, 99}) {
    CAPTURE(axis);
    const std::size_t a = axis == 99 ? 2 : static_cast<std::size_t>((axis + 3) % 3);
    auto want = [&](std::size_t i) {
      const std::vector<std::size_t> s = slice_of(i, a);
      const std::size_t pos = static_cast<std::size_t>(std::find(s.begin(), s.end(), i) - s.begin());
      double sum = 0.0;
      for (std::size_t k = 0; k < s.size(); ++k)
        if (k + radius >= pos && k <= pos + radius) sum += static_cast<double>(x[s[k]]) * x[s[k]];
      return x[i] / std::pow(bias + alpha * sum, beta);
    };
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({2, 3, 4}, x);
    node.scalar<OperandType::INT32>(radius);
    node.scalar<OperandType::FLOAT32>(bias);
    node.scalar<OperandType::FLOAT32>(alpha);
    node.scalar<OperandType::FLOAT32>(beta);
    if (axis != 99) node.scalar<OperandType::INT32>(axis);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::LOCAL_RESPONSE_NORMALIZATION>()));
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(got[i] == doctest::Approx(want(i)).epsilon(1e-5));

    std::vector<Half> h;
    for (float f : x) h.push_back(Half(f));
    KernelNode half;
    half.tensor<OperandType::TENSOR_FLOAT16>({2, 3, 4}, h);
    half.scalar<OperandType::INT32>(radius);
    half.scalar<OperandType::FLOAT16>(Half(bias));
    half.scalar<OperandType::FLOAT16>(Half(alpha));
    half.scalar<OperandType::FLOAT16>(Half(beta));
    if (axis != 99) half.scalar<OperandType::INT32>(axis);
    half.output(OperandType::TENSOR_FLOAT16);
    REQUIRE(half.run(kernels_of<OperationType::LOCAL_RESPONSE_NORMALIZATION>()));
    const auto hgot = half.values<OperandType::TENSOR_FLOAT16>(0);
    for (std::size_t i = 0; i < x.size(); ++i)
      CHECK(std::abs(static_cast<float>(hgot[i]) - want(i)) <= std::abs(want(i)) * 0x1p-10 + 1e-6);
  }
}

TEST_CASE("INSTANCE_NORMALIZATION normalizes each batch and channel, in NHWC and NCHW") {
  // NHWC [2, 2, 3, 2] and the same data transposed to NCHW [2, 2, 2, 3].
  const std::uint32_t N = 2, H = 2, W = 3, C = 2;
  std::vector<float> nhwc(N * H * W * C), nchw(N * H * W * C);
  for (std::uint32_t i = 0; i < nhwc.size(); ++i) nhwc[i] = std::sin(static_cast<float>(i)) * 3.0f + static_cast<float>(i % 5);
  for (std::uint32_t n = 0; n < N; ++n)
    for (std::uint32_t h = 0; h < H; ++h)
      for (std::uint32_t w = 0; w < W; ++w)
        for (std::uint32_t c = 0; c < C; ++c) nchw[((n * C + c) * H + h) * W + w] = nhwc[((n * H + h) * W + w) * C + c];
  const float gamma = 1.5f, beta = -0.25f, epsilon = 0.01f;
  // Expected in NHWC order.
  std::vector<double> want(nhwc.size());
  for (std::uint32_t n = 0; n < N; ++n)
    for (std::uint32_t c = 0; c < C; ++c) {
      double mean = 0.0, var = 0.0;
      for (std::uint32_t p = 0; p < H * W; ++p) mean += nhwc[(n * H * W + p) * C + c];
      mean /= H * W;
      for (std::uint32_t p = 0; p < H * W; ++p) var += std::pow(nhwc[(n * H * W + p) * C + c] - mean, 2);
      var /= H * W;
      for (std::uint32_t p = 0; p < H * W; ++p) {
        const std::uint32_t i = (n * H * W + p) * C + c;
        want[i] = (nhwc[i] - mean) * gamma / std::sqrt(var + epsilon) + beta;
      }
    }
  for (bool use_nchw : {false, true}) {
    CAPTURE(use_nchw);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(use_nchw ? Dims{N, C, H, W} : Dims{N, H, W, C}, use_nchw ? nchw : nhwc);
    node.scalar<OperandType::FLOAT32>(gamma);
    node.scalar<OperandType::FLOAT32>(beta);
    node.scalar<OperandType::FLOAT32>(epsilon);
    node.scalar<OperandType::BOOL>(use_nchw ? 1 : 0);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::INSTANCE_NORMALIZATION>()));
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::uint32_t n = 0; n < N; ++n)
      for (std::uint32_t h = 0; h < H; ++h)
        for (std::uint32_t w = 0; w < W; ++w)
          for (std::uint32_t c = 0; c < C; ++c) {
            const std::uint32_t i = ((n * H + h) * W + w) * C + c;
            const std::uint32_t at = use_nchw ? ((n * C + c) * H + h) * W + w : i;
            CHECK(got[at] == doctest::Approx(want[i]).epsilon(1e-5));
          }
  }
  KernelNode rank3;
  rank3.tensor<OperandType::TENSOR_FLOAT32>({2, 3, 4}, sample());
  rank3.scalar<OperandType::FLOAT32>(gamma);
  rank3.scalar<OperandType::FLOAT32>(beta);
  rank3.scalar<OperandType::FLOAT32>(epsilon);
  rank3.scalar<OperandType::BOOL>(0);
  rank3.output(OperandType::TENSOR_FLOAT32);
  const auto s = rank3.infer(kernels_of<OperationType::INSTANCE_NORMALIZATION>());
  REQUIRE_FALSE(s);
  CHECK(message(s).find("INSTANCE_NORMALIZATION input 0 has rank 3") != std::string::npos);
}
