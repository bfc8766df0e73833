// Kernels of RANDOM_MULTINOMIAL (nnhal/kernels/random_multinomial.hpp): sampled frequencies
// against softmax of the logits (fixed seeds, so the check is deterministic; many samples, so
// the tolerance is several standard deviations), on float32 and float16; equal seeds give equal
// samples and other seeds others; the zero seeds draw valid classes; non-finite logits are never
// drawn; the runtime errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "nnhal/kernels/random_multinomial.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

template <OperandType T>
KernelNode make(std::uint32_t batches, std::uint32_t classes, const std::vector<float>& logits, std::int32_t samples,
                std::vector<std::int32_t> seeds) {
  std::vector<element_t<T>> v;
  for (float x : logits) v.push_back(static_cast<element_t<T>>(x));
  KernelNode n;
  n.tensor<T>(Dims{batches, classes}, v);
  n.scalar<OperandType::INT32>(samples);
  n.tensor<OperandType::TENSOR_INT32>(Dims{static_cast<std::uint32_t>(seeds.size())}, seeds);
  n.output(OperandType::TENSOR_INT32);
  return n;
}

const auto& impl() { return kernels_of<OperationType::RANDOM_MULTINOMIAL>(); }

template <OperandType T>
void check_frequencies(std::uint32_t batches, std::uint32_t classes, std::int32_t samples, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> logits(std::size_t{batches} * classes);
  for (float& x : logits) x = static_cast<float>(static_cast<element_t<T>>(std::uniform_real_distribution<float>(-3, 3)(rng)));
  KernelNode n = make<T>(batches, classes, logits, samples, {static_cast<std::int32_t>(seed), 17});
  REQUIRE(n.run_planned(impl()));
  REQUIRE(n.out(0).dims == Dims{batches, static_cast<std::uint32_t>(samples)});
  const auto out = n.values<OperandType::TENSOR_INT32>(0);
  for (std::size_t b = 0; b < batches; ++b) {
    double total = 0;
    for (std::size_t c = 0; c < classes; ++c) total += std::exp(static_cast<double>(logits[b * classes + c]));
    std::vector<int> count(classes, 0);
    int outside = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(samples); ++k) {
      const std::int32_t v = out[b * static_cast<std::size_t>(samples) + k];
      if (v < 0 || v >= static_cast<std::int32_t>(classes))
        ++outside;
      else
        ++count[static_cast<std::size_t>(v)];
    }
    REQUIRE(outside == 0);
    for (std::size_t c = 0; c < classes; ++c) {
      const double p = std::exp(static_cast<double>(logits[b * classes + c])) / total;
      const double sigma = std::sqrt(p * (1 - p) / samples);
      CAPTURE(b);
      CAPTURE(c);
      CHECK(std::abs(count[c] / static_cast<double>(samples) - p) <= 6 * sigma + 1e-9);
    }
  }
}

}  // namespace

TEST_CASE("RANDOM_MULTINOMIAL: sampled frequencies follow softmax of the logits") {
  check_frequencies<OperandType::TENSOR_FLOAT32>(3, 10, 40000, 1);
  check_frequencies<OperandType::TENSOR_FLOAT32>(1, 200, 100000, 2);
  check_frequencies<OperandType::TENSOR_FLOAT16>(2, 8, 40000, 3);
}

TEST_CASE("RANDOM_MULTINOMIAL: the seeds decide the samples") {
  const std::vector<float> logits(64, 0.0f);
  auto run = [&](std::vector<std::int32_t> seeds) {
    auto n = make<OperandType::TENSOR_FLOAT32>(1, 64, logits, 100, std::move(seeds));
    REQUIRE(n.run_planned(impl()));
    return n.values<OperandType::TENSOR_INT32>(0);
  };
  const auto a = run({5, 9});
  CHECK(a == run({5, 9}));
  CHECK(a != run({9, 5}));
  CHECK(a != run({5, 10}));
  int outside = 0;
  for (std::int32_t v : run({0, 0}))  // a random seed: only the range is known
    outside += (v < 0 || v >= 64) ? 1 : 0;
  CHECK(outside == 0);
}

TEST_CASE("RANDOM_MULTINOMIAL: non-finite logits are never drawn") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto n = make<OperandType::TENSOR_FLOAT32>(2, 4, {-inf, 0.0f, nan, 1.0f, inf, 2.0f, -inf, nan}, 500, {1, 2});
  REQUIRE(n.run_planned(impl()));
  const auto out = n.values<OperandType::TENSOR_INT32>(0);
  int drawn[2][4] = {};
  for (std::size_t k = 0; k < 500; ++k) {
    ++drawn[0][out[k] & 3];
    ++drawn[1][out[500 + k] & 3];
  }
  CHECK(drawn[0][1] + drawn[0][3] == 500);  // batch 0: only the finite logits 0 and 1
  CHECK(drawn[0][1] > 0);
  CHECK(drawn[0][3] > drawn[0][1]);
  CHECK(drawn[1][1] == 500);  // batch 1: the only finite logit
}

TEST_CASE("RANDOM_MULTINOMIAL: bad runtime values are refused") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto status = [](KernelNode n) {
    auto s = n.run_planned(impl());
    return s ? nnhal::ErrorStatus::NONE : s.error().status();
  };
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 2, {0, 1}, 3, {1, 2})) == nnhal::ErrorStatus::NONE);
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 2, {nan, nan}, 3, {1, 2})) == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 2, {0, 1}, 0, {1, 2})) == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 2, {0, 1}, -4, {1, 2})) == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 2, {0, 1}, 3, {1, 2, 3})) == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(status(make<OperandType::TENSOR_FLOAT32>(1, 0, {}, 3, {1, 2})) == nnhal::ErrorStatus::INVALID_ARGUMENT);
  KernelNode rank3;
  rank3.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 2, 2}, {0, 1, 2, 3});
  rank3.scalar<OperandType::INT32>(3);
  rank3.tensor<OperandType::TENSOR_INT32>(Dims{2}, {1, 2});
  rank3.output(OperandType::TENSOR_INT32);
  CHECK(status(std::move(rank3)) == nnhal::ErrorStatus::INVALID_ARGUMENT);
}
