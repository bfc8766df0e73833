// KernelPrepare::reference (PrepareOptions::reference_kernels): for a few kernels that have a
// fast path (SIMD tables, packed weights), on shapes that take it, the reference prepare picks
// another kernel function than the normal prepare, and both outputs agree within the
// conformance corpus' tolerances (shared/cts/SCHEMA.md "How outputs are compared": float32
// |a - e| <= 1e-5 + 5 ulp * |e|, 8-bit stored values within 1). The whole corpus is run both
// ways by the conformance runner (nnhal_cts --reference-kernels); this file checks the choice.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/conv_2d.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/kernels/fully_connected.hpp"
#include "ops/kernel_test_util.hpp"

namespace reference_kernels_test {  // a namespace of its own (unity builds group test files)

using nnhal::Dims;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;

constexpr OperandType F32 = OperandType::TENSOR_FLOAT32, QA8 = OperandType::TENSOR_QUANT8_ASYMM,
                      I32 = OperandType::TENSOR_INT32, INT32 = OperandType::INT32;

std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

template <class E>
std::vector<E> random_ints(std::size_t n, int lo, int hi, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<E> v(n);
  for (E& x : v) x = static_cast<E>(d(rng));
  return v;
}

/// SCHEMA.md's per-element rule for an output of type T (model not relaxed).
template <OperandType T>
bool within_tolerance(double actual, double expected) {
  if constexpr (T == F32)
    return std::fabs(actual - expected) <= 9.99999974737875e-6 + 5.9604644775390625e-7 * std::fabs(expected);
  else
    return std::fabs(actual - expected) <= 1.0;
}

/// Builds the node twice with `build`, prepares one normally and one with reference kernels
/// (both given the workspace they ask for), runs both, and checks the kernels differ and the
/// outputs agree. `build` adds the inputs and the output.
template <OperationType Op, OperandType T, class Build>
void check_reference(Build build) {
  const nnhal::OpKernel& k = nnhal::test::kernels_of<Op>();
  KernelNode fast, ref;
  build(fast);
  build(ref);
  fast.use_workspace();
  ref.use_workspace();
  ref.use_reference_kernels();
  REQUIRE(fast.infer(k));
  REQUIRE(ref.infer(k));
  fast.out(0).rank_known = ref.out(0).rank_known = true;  // as prepare marks an inferred shape
  auto fast_fn = fast.select(k);
  auto ref_fn = ref.select(k);
  REQUIRE(fast_fn);
  REQUIRE(ref_fn);
  const bool different_kernel = *fast_fn != *ref_fn;
  CHECK(different_kernel);
  REQUIRE((*fast_fn)(fast.io()));
  REQUIRE((*ref_fn)(ref.io()));
  const auto a = fast.values<T>(0);
  const auto e = ref.values<T>(0);
  REQUIRE(a.size() == e.size());
  REQUIRE(!e.empty());
  std::size_t bad = 0, distinct = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!within_tolerance<T>(static_cast<double>(a[i]), static_cast<double>(e[i]))) ++bad;
    if (e[i] != e[0]) ++distinct;
  }
  CHECK(bad == 0);
  CHECK(distinct > 0);  // not a constant (fully clamped) output, which would prove nothing
}

TEST_CASE("reference kernels: FULLY_CONNECTED FLOAT32 (SIMD table) and QUANT8_ASYMM (SIMD dot products)") {
  constexpr std::uint32_t batch = 3, depth = 37, units = 21;
  SUBCASE("FLOAT32") {
    check_reference<OperationType::FULLY_CONNECTED, F32>([&](KernelNode& n) {
      n.tensor<F32>(Dims{batch, depth}, random_floats(batch * depth, 1));
      n.tensor<F32>(Dims{units, depth}, random_floats(units * depth, 2));
      n.tensor<F32>(Dims{units}, random_floats(units, 3));
      n.scalar<INT32>(0);
      n.output(F32);
    });
  }
  SUBCASE("QUANT8_ASYMM") {
    const float in_scale = 0.05f, w_scale = 0.02f;
    check_reference<OperationType::FULLY_CONNECTED, QA8>([&](KernelNode& n) {
      n.tensor<QA8>(Dims{batch, depth}, random_ints<std::uint8_t>(batch * depth, 0, 255, 4), in_scale, 120);
      n.tensor<QA8>(Dims{units, depth}, random_ints<std::uint8_t>(units * depth, 0, 255, 5), w_scale, 131);
      n.tensor<I32>(Dims{units}, random_ints<std::int32_t>(units, -3000, 3000, 6), in_scale * w_scale, 0);
      n.scalar<INT32>(0);
      n.output(QA8, 0.25f, 128);
    });
  }
}

TEST_CASE("reference kernels: CONV_2D FLOAT32 (weights packed at prepare for the SIMD kernel)") {
  constexpr std::uint32_t h = 9, w = 11, ic = 5, oc = 7;
  check_reference<OperationType::CONV_2D, F32>([&](KernelNode& n) {
    n.tensor<F32>(Dims{1, h, w, ic}, random_floats(h * w * ic, 7));
    n.tensor<F32>(Dims{oc, 3, 3, ic}, random_floats(oc * 3 * 3 * ic, 8));
    n.tensor<F32>(Dims{oc}, random_floats(oc, 9));
    n.in(1).lifetime = n.in(2).lifetime = nnhal::OperandLifeTime::CONSTANT_COPY;
    n.scalar<INT32>(1);  // padding SAME
    n.scalar<INT32>(1);  // stride w
    n.scalar<INT32>(1);  // stride h
    n.scalar<INT32>(0);  // activation NONE
    n.output(F32);
  });
}

TEST_CASE("reference kernels: ADD FLOAT32 (SIMD table) on equal shapes") {
  check_reference<OperationType::ADD, F32>([&](KernelNode& n) {
    n.tensor<F32>(Dims{3, 41}, random_floats(3 * 41, 10));
    n.tensor<F32>(Dims{3, 41}, random_floats(3 * 41, 11));
    n.scalar<INT32>(0);
    n.output(F32);
  });
}

TEST_CASE("reference kernels: DEPTHWISE_CONV_2D FLOAT32 (SIMD table) with depth multiplier 1, NHWC") {
  constexpr std::uint32_t h = 8, w = 10, c = 6;
  check_reference<OperationType::DEPTHWISE_CONV_2D, F32>([&](KernelNode& n) {
    n.tensor<F32>(Dims{1, h, w, c}, random_floats(h * w * c, 12));
    n.tensor<F32>(Dims{1, 3, 3, c}, random_floats(3 * 3 * c, 13));
    n.tensor<F32>(Dims{c}, random_floats(c, 14));
    n.scalar<INT32>(1);  // padding SAME
    n.scalar<INT32>(1);  // stride w
    n.scalar<INT32>(1);  // stride h
    n.scalar<INT32>(1);  // depth multiplier
    n.scalar<INT32>(0);  // activation NONE
    n.output(F32);
  });
}

}  // namespace reference_kernels_test
