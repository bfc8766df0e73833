// The fast paths of the activations, QUANTIZE / DEQUANTIZE and MAXIMUM / MINIMUM against the
// per-element kernels they replace, through the kernel families (select at prepare, run):
//   - quantized LOGISTIC, TANH and HARD_SWISH: the prepare-time 256-entry table gives the same
//     bits as the reference computed per element, over every input byte and several input and
//     output quantizations; without packed storage (the support query's dry run) the
//     per-element kernel is chosen;
//   - FLOAT32 PRELU with alpha of the same shape, a scalar, or repeated along the innermost axes
//     (SIMD) and other broadcasts (element walk): the same bits as the float walk;
//   - quant8 MAXIMUM / MINIMUM whose inputs share the output's quantization (SIMD): the same
//     bits as the requantizing kernel;
//   - FLOAT32 QUANTIZE and DEQUANTIZE (SIMD): the same bits as the scalar kernels.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/dequantize.hpp"
#include "nnhal/kernels/hard_swish.hpp"
#include "nnhal/kernels/logistic.hpp"
#include "nnhal/kernels/maximum.hpp"
#include "nnhal/kernels/minimum.hpp"
#include "nnhal/kernels/prelu.hpp"
#include "nnhal/kernels/quantize.hpp"
#include "nnhal/kernels/tanh.hpp"
#include "ops/kernel_test_util.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_ops_activations_fast_paths {

using nnhal::Dims;
using nnhal::KernelFn;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

/// Every value of E once, then again in another order (512 elements).
template <class E>
std::vector<E> every_byte() {
  std::vector<E> v;
  for (int i = 0; i < 256; ++i) v.push_back(static_cast<E>(static_cast<std::uint8_t>(i)));
  for (int i = 0; i < 256; ++i) v.push_back(static_cast<E>(static_cast<std::uint8_t>(i * 37 + 11)));
  return v;
}

template <class E>
constexpr OperandType quant_type() {
  return std::is_signed_v<E> ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
}

/// Runs a unary quantized operation on every byte; `expected_kernel` is the kernel select must
/// choose. Returns the output.
template <OperationType Op, class E>
std::vector<E> run_unary(const std::vector<E>& x, float in_scale, std::int32_t in_zp, float out_scale,
                         std::int32_t out_zp, KernelFn expected_kernel) {
  constexpr OperandType T = quant_type<E>();
  KernelNode node;
  node.tensor<T>({2, static_cast<std::uint32_t>(x.size() / 2)}, x, in_scale, in_zp);
  node.output(T, out_scale, out_zp);
  const auto& kernels = kernels_of<Op>();
  REQUIRE(node.infer(kernels));
  auto k = node.select(kernels);
  REQUIRE(k);
  CHECK((*k == expected_kernel));
  REQUIRE((*k)(node.io()));
  return node.values<T>(0);
}

/// The support query's dry run: no packed storage, so the per-element kernel.
template <OperationType Op, class E>
KernelFn dry_run_kernel(float in_scale, std::int32_t in_zp, float out_scale, std::int32_t out_zp) {
  constexpr OperandType T = quant_type<E>();
  KernelNode node;
  node.tensor<T>({1, 4}, std::vector<E>(4), in_scale, in_zp);
  node.output(T, out_scale, out_zp);
  const auto& kernels = kernels_of<Op>();
  REQUIRE(node.infer(kernels));
  std::array<std::byte, nnhal::kNodeParamBytes> params{};
  nnhal::KernelPrepare prepare{std::span<std::byte, nnhal::kNodeParamBytes>(params)};
  prepare.dry_run = true;
  auto k = kernels.select(node.io(), prepare);
  REQUIRE(k);
  return *k;
}

}  // namespace

TEST_CASE_TEMPLATE("quantized LOGISTIC and TANH: the prepare-time table gives the reference's bits", E, std::uint8_t,
                   std::int8_t) {
  namespace sg = nnhal::kernels::sigmoid;
  constexpr OperandType T = quant_type<E>();
  constexpr bool is_signed = std::is_signed_v<E>;
  const std::vector<E> x = every_byte<E>();
  for (const float scale : {1.0f / 16, 0.5f, 0.003f, 0.1f})
    for (const std::int32_t zp : {0, 37, is_signed ? -128 : 255}) {
      CAPTURE(scale);
      CAPTURE(zp);
      KernelNode probe;
      probe.tensor<T>({1}, {E{}}, scale, zp);
      const auto p = sg::make_params(probe.in(0), "test");
      REQUIRE(p);
      const auto logistic = run_unary<OperationType::LOGISTIC>(x, scale, zp, 1.0f / 256, is_signed ? -128 : 0,
                                                               &nnhal::kernels::lut::kernel<T>);
      const auto tanh = run_unary<OperationType::TANH>(x, scale, zp, 1.0f / 128, is_signed ? 0 : 128,
                                                       &nnhal::kernels::lut::kernel<T>);
      for (std::size_t i = 0; i < x.size(); ++i) {
        CAPTURE(int{x[i]});
        CHECK(logistic[i] == sg::quant_one<false, E>(x[i], *p));
        CHECK(tanh[i] == sg::quant_one<true, E>(x[i], *p));
      }
      CHECK((dry_run_kernel<OperationType::LOGISTIC, E>(scale, zp, 1.0f / 256, is_signed ? -128 : 0) ==
             &sg::kernel_quant<false, T>));
    }
}

TEST_CASE_TEMPLATE("quantized HARD_SWISH: the prepare-time table gives the reference's bits", E, std::uint8_t,
                   std::int8_t) {
  namespace hs = nnhal::kernels::hard_swish;
  constexpr OperandType T = quant_type<E>();
  constexpr bool is_signed = std::is_signed_v<E>;
  const std::vector<E> x = every_byte<E>();
  const float cases[][2] = {{1.0f / 16, 1.0f / 16}, {0.05f, 0.02f}, {0.5f, 0.25f}, {0.003f, 0.01f}};
  for (const auto& c : cases)
    for (const std::int32_t zp : {0, 37, is_signed ? -128 : 255}) {
      const float in_scale = c[0], out_scale = c[1];
      const std::int32_t out_zp = is_signed ? -zp / 2 : 255 - zp;
      CAPTURE(in_scale);
      CAPTURE(out_scale);
      CAPTURE(zp);
      KernelNode probe;
      probe.tensor<T>({1}, {E{}}, in_scale, zp);
      probe.output(T, out_scale, out_zp);
      const auto p = hs::make_params(probe.in(0), probe.out(0));
      REQUIRE(p);
      const auto got = run_unary<OperationType::HARD_SWISH>(x, in_scale, zp, out_scale, out_zp,
                                                            &nnhal::kernels::lut::kernel<T>);
      for (std::size_t i = 0; i < x.size(); ++i) {
        CAPTURE(int{x[i]});
        CHECK(got[i] == hs::quant_one<E>(x[i], *p));
      }
      CHECK((dry_run_kernel<OperationType::HARD_SWISH, E>(in_scale, zp, out_scale, out_zp) == &hs::kernel_quant<T>));
    }
}

TEST_CASE("FLOAT32 PRELU: the SIMD path and the element walk agree with the float reference bit for bit") {
  constexpr OperandType F32 = OperandType::TENSOR_FLOAT32;
  struct Case {
    Dims x, alpha;
  };
  const Case cases[] = {
      {{2, 3, 5, 7}, {2, 3, 5, 7}},  // same shape
      {{2, 3, 5, 7}, {1}},           // scalar
      {{2, 3, 5, 7}, {7}},           // repeated along the innermost axis
      {{2, 3, 5, 7}, {1, 5, 7}},     // innermost two axes, a leading 1
      {{2, 3, 5, 7}, {3, 1, 1}},     // a broadcast the SIMD path does not take
      {{5, 1}, {1, 9}},              // both sides broadcast
      {{4, 33}, {33}},
  };
  for (const Case& c : cases) {
    const std::size_t nx = static_cast<std::size_t>(c.x.element_count());
    const std::size_t na = static_cast<std::size_t>(c.alpha.element_count());
    std::vector<float> x(nx), a(na);
    for (std::size_t i = 0; i < nx; ++i) x[i] = (static_cast<float>(i % 17) - 8.5f) * 0.37f;
    for (std::size_t i = 0; i < na; ++i) a[i] = 0.05f * static_cast<float>(i % 11) - 0.2f;
    KernelNode fast, walk;
    for (KernelNode* node : {&fast, &walk}) {
      node->tensor<F32>(c.x, x);
      node->tensor<F32>(c.alpha, a);
      node->output(F32);
      REQUIRE(node->infer(kernels_of<OperationType::PRELU>()));
    }
    auto k = fast.select(kernels_of<OperationType::PRELU>());
    REQUIRE(k);
    CHECK((*k == &nnhal::kernels::prelu::kernel_f32));
    REQUIRE((*k)(fast.io()));
    REQUIRE(walk.select(kernels_of<OperationType::PRELU>()));
    REQUIRE(nnhal::kernels::prelu::kernel_float<F32>(walk.io()));
    const auto got = fast.values<F32>(0), want = walk.values<F32>(0);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::memcmp(&got[i], &want[i], sizeof(float)) == 0);
  }
}

TEST_CASE_TEMPLATE("quant8 MAXIMUM / MINIMUM with the output's quantization: the SIMD path gives the requantizing "
                   "kernel's bits",
                   E, std::uint8_t, std::int8_t) {
  constexpr OperandType T = quant_type<E>();
  const std::vector<E> a = every_byte<E>();
  std::vector<E> b(a.rbegin(), a.rend());
  const Dims shapes[][2] = {{{2, 256}, {2, 256}}, {{2, 256}, {1}}, {{1}, {2, 256}}, {{2, 256}, {256}}};
  for (const auto& s : shapes)
    for (const float scale : {0.5f, 1.0f / 16, 3e-3f}) {
      CAPTURE(scale);
      auto run = [&](OperationType op, bool same_quant) {
        KernelNode node;
        const auto take = [](const std::vector<E>& v, const Dims& d) {
          return std::vector<E>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(d.element_count()));
        };
        node.tensor<T>(s[0], take(a, s[0]), scale, 3);
        node.tensor<T>(s[1], take(b, s[1]), scale, 3);
        node.output(T, same_quant ? scale : scale * 1.0000001f, 3);
        const auto& kernels = op == OperationType::MAXIMUM ? kernels_of<OperationType::MAXIMUM>()
                                                           : kernels_of<OperationType::MINIMUM>();
        REQUIRE(node.infer(kernels));
        auto k = node.select(kernels);
        REQUIRE(k);
        if (same_quant) {
          // Run the requantizing kernel on the same node for the reference bits.
          REQUIRE((*k)(node.io()));
          const auto fast = node.values<T>(0);
          if (op == OperationType::MAXIMUM)
            REQUIRE(nnhal::kernels::min_max::kernel<false, T>(node.io()));
          else
            REQUIRE(nnhal::kernels::min_max::kernel<true, T>(node.io()));
          CHECK(fast == node.values<T>(0));
          return *k;
        }
        return *k;
      };
      CHECK((run(OperationType::MAXIMUM, true) == &nnhal::kernels::min_max::kernel_quant_same<false, T>));
      CHECK((run(OperationType::MINIMUM, true) == &nnhal::kernels::min_max::kernel_quant_same<true, T>));
      CHECK((run(OperationType::MAXIMUM, false) == &nnhal::kernels::min_max::kernel<false, T>));
    }
}

TEST_CASE_TEMPLATE("FLOAT32 QUANTIZE and DEQUANTIZE: the SIMD kernels give the scalar kernels' bits", E,
                   std::uint8_t, std::int8_t) {
  constexpr OperandType F32 = OperandType::TENSOR_FLOAT32;
  constexpr OperandType T = quant_type<E>();
  std::vector<float> x;
  for (int i = -700; i <= 700; ++i) x.push_back(static_cast<float>(i) * 0.0625f + (i % 3 == 0 ? 0.03125f : 0.0f));
  x.push_back(1e30f);
  x.push_back(-1e30f);
  const std::vector<E> q = every_byte<E>();
  for (const float scale : {0.125f, 0.05f, 1.0f / 256})
    for (const std::int32_t zp : {0, 100}) {
      CAPTURE(scale);
      CAPTURE(zp);
      KernelNode qn, qs;
      for (KernelNode* n : {&qn, &qs}) {
        n->tensor<F32>({static_cast<std::uint32_t>(x.size())}, x);
        n->output(T, scale, zp);
        REQUIRE(n->infer(kernels_of<OperationType::QUANTIZE>()));
      }
      auto k = qn.select(kernels_of<OperationType::QUANTIZE>());
      REQUIRE(k);
      CHECK((*k == &nnhal::kernels::quantize::kernel_f32<T>));
      REQUIRE((*k)(qn.io()));
      REQUIRE(qs.select(kernels_of<OperationType::QUANTIZE>()));
      REQUIRE(nnhal::kernels::quantize::kernel<F32, T>(qs.io()));
      CHECK(qn.values<T>(0) == qs.values<T>(0));

      KernelNode dn, ds;
      for (KernelNode* n : {&dn, &ds}) {
        n->tensor<T>({static_cast<std::uint32_t>(q.size())}, q, scale, zp);
        n->output(F32);
        REQUIRE(n->infer(kernels_of<OperationType::DEQUANTIZE>()));
      }
      auto kd = dn.select(kernels_of<OperationType::DEQUANTIZE>());
      REQUIRE(kd);
      CHECK((*kd == &nnhal::kernels::dequantize::kernel_f32<T>));
      REQUIRE((*kd)(dn.io()));
      REQUIRE(ds.select(kernels_of<OperationType::DEQUANTIZE>()));
      REQUIRE(nnhal::kernels::dequantize::kernel<T, F32>(ds.io()));
      const auto got = dn.values<F32>(0), want = ds.values<F32>(0);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::memcmp(&got[i], &want[i], sizeof(float)) == 0);
    }
}

}  // namespace test_ops_activations_fast_paths
