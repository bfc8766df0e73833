// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL kernels: every input type,
// broadcasting, quantized inputs compared by real value, BOOL8 compared as bytes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "nnhal/ops/equal.hpp"
#include "nnhal/ops/greater.hpp"
#include "nnhal/ops/greater_equal.hpp"
#include "nnhal/ops/less.hpp"
#include "nnhal/ops/less_equal.hpp"
#include "nnhal/ops/not_equal.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/equal.hpp"
#include "nnhal/kernels/not_equal.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/less_equal.hpp"
#include "nnhal/kernels/greater.hpp"
#include "nnhal/kernels/greater_equal.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::test::KernelNode;
namespace ops = nnhal::ops;

namespace {

template <OperandType T>
struct CmpTag {
  static constexpr OperandType type = T;
};

struct Comparison {
  const char* name;
  const nnhal::OpKernel* impl;
  bool (*expected)(double, double);
};
const Comparison kComparisons[] = {
    {"EQUAL", &nnhal::test::kernels_of<nnhal::OperationType::EQUAL>(), [](double a, double b) { return a == b; }},
    {"NOT_EQUAL", &nnhal::test::kernels_of<nnhal::OperationType::NOT_EQUAL>(), [](double a, double b) { return a != b; }},
    {"LESS", &nnhal::test::kernels_of<nnhal::OperationType::LESS>(), [](double a, double b) { return a < b; }},
    {"LESS_EQUAL", &nnhal::test::kernels_of<nnhal::OperationType::LESS_EQUAL>(), [](double a, double b) { return a <= b; }},
    {"GREATER", &nnhal::test::kernels_of<nnhal::OperationType::GREATER>(), [](double a, double b) { return a > b; }},
    {"GREATER_EQUAL", &nnhal::test::kernels_of<nnhal::OperationType::GREATER_EQUAL>(), [](double a, double b) { return a >= b; }},
};

/// Stores real values as elements of T (quantized: real / scale + zero point, exact here).
template <OperandType T>
std::vector<nnhal::element_t<T>> cmp_store(const std::vector<double>& real, double scale, int zp) {
  std::vector<nnhal::element_t<T>> out;
  for (double r : real) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      out.push_back(Half(static_cast<float>(r)));
    else if constexpr (nnhal::operand_type_traits<T>::is_quantized)
      out.push_back(static_cast<nnhal::element_t<T>>(std::lround(r / scale) + zp));
    else
      out.push_back(static_cast<nnhal::element_t<T>>(r));
  }
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("comparisons broadcast and compare every input type", Tag,
                   CmpTag<OperandType::TENSOR_FLOAT32>, CmpTag<OperandType::TENSOR_FLOAT16>,
                   CmpTag<OperandType::TENSOR_INT32>, CmpTag<OperandType::TENSOR_BOOL8>,
                   CmpTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   CmpTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  constexpr bool kQuant = nnhal::operand_type_traits<T>::is_quantized;
  constexpr bool kSigned = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  // Real values; for the quantized types each input has its own scale and zero point, so the
  // raw bytes order differently from the real values (0.5 is 129 in a but 102 in b).
  std::vector<double> a = {-1, 0, 0.5, 1, 2, -0.5}, b = {0, 0.5, 1, -1};
  if (T == OperandType::TENSOR_INT32) a = {-2, 0, 1, 3, 5, -1}, b = {0, 1, 3, -2};
  if (T == OperandType::TENSOR_BOOL8) a = {0, 1, 1, 0, 1, 0}, b = {0, 1, 1, 0};
  const double sa = 0.5, sb = 0.25;
  const int za = kSigned ? 0 : 128, zb = kSigned ? -20 : 100;

  for (const Comparison& cmp : kComparisons) {
    CAPTURE(cmp.name);
    KernelNode node;
    node.tensor<T>({2, 1, 3}, cmp_store<T>(a, sa, za), kQuant ? 0.5f : 0.0f, kQuant ? za : 0);
    node.tensor<T>({4, 1}, cmp_store<T>(b, sb, zb), kQuant ? 0.25f : 0.0f, kQuant ? zb : 0);
    node.output(OperandType::TENSOR_BOOL8);
    REQUIRE(node.run(*cmp.impl));
    REQUIRE(node.out(0).dims == Dims{2, 4, 3});
    const auto got = node.values<OperandType::TENSOR_BOOL8>(0);
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 4; ++j)
        for (std::size_t k = 0; k < 3; ++k) {
          const bool want = cmp.expected(a[i * 3 + k], b[j]);
          CHECK(got[(i * 4 + j) * 3 + k] == (want ? 1 : 0));
        }
  }
}

TEST_CASE_TEMPLATE("comparisons of equal shapes (the flat kernel) agree with the broadcasting one", Tag,
                   CmpTag<OperandType::TENSOR_FLOAT32>, CmpTag<OperandType::TENSOR_FLOAT16>,
                   CmpTag<OperandType::TENSOR_INT32>, CmpTag<OperandType::TENSOR_BOOL8>) {
  constexpr OperandType T = Tag::type;
  std::vector<double> a = {-1, 0, 0.5, 1, 2, -0.5}, b = {0, 0, 1, -1, 2, 0.5};
  if (T == OperandType::TENSOR_INT32) a = {-2, 0, 1, 3, 5, -1}, b = {0, 0, 3, -2, 5, 1};
  if (T == OperandType::TENSOR_BOOL8) a = {0, 1, 1, 0, 1, 0}, b = {0, 0, 1, 1, 1, 0};
  for (const Comparison& cmp : kComparisons) {
    CAPTURE(cmp.name);
    // Same shape: prepare-time shapes are equal, so the flat kernel runs.
    KernelNode flat;
    flat.tensor<T>({2, 3}, cmp_store<T>(a, 1, 0));
    flat.tensor<T>({2, 3}, cmp_store<T>(b, 1, 0));
    flat.output(OperandType::TENSOR_BOOL8);
    REQUIRE(flat.run(*cmp.impl));
    // The same comparison with b as [1, 2, 3] broadcast against [2, 3]... of the same values.
    KernelNode broadcast;
    broadcast.tensor<T>({2, 3}, cmp_store<T>(a, 1, 0));
    broadcast.tensor<T>({1, 2, 3}, cmp_store<T>(b, 1, 0));
    broadcast.output(OperandType::TENSOR_BOOL8);
    REQUIRE(broadcast.run(*cmp.impl));
    const auto got = flat.values<OperandType::TENSOR_BOOL8>(0);
    REQUIRE(got.size() == 6);
    CHECK(got == broadcast.values<OperandType::TENSOR_BOOL8>(0));
    for (std::size_t i = 0; i < 6; ++i) CHECK(got[i] == (cmp.expected(a[i], b[i]) ? 1 : 0));
  }
}

TEST_CASE("comparisons of BOOL8 compare the bytes, not their truth") {
  // 2 and 1 are both true, but as bytes 2 > 1.
  for (const Comparison& cmp : kComparisons) {
    CAPTURE(cmp.name);
    KernelNode node;
    node.tensor<OperandType::TENSOR_BOOL8>({3}, {2, 1, 0});
    node.tensor<OperandType::TENSOR_BOOL8>({1}, {1});
    node.output(OperandType::TENSOR_BOOL8);
    REQUIRE(node.run(*cmp.impl));
    const auto got = node.values<OperandType::TENSOR_BOOL8>(0);
    const double av[] = {2, 1, 0};
    for (std::size_t i = 0; i < 3; ++i) CHECK(got[i] == (cmp.expected(av[i], 1) ? 1 : 0));
  }
}

TEST_CASE("comparisons of FLOAT32 follow IEEE rules for NaN and signed zero") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {nan, 1.0f, -0.0f}, b = {nan, nan, 0.0f};
  for (const Comparison& cmp : kComparisons) {
    CAPTURE(cmp.name);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({3}, a);
    node.tensor<OperandType::TENSOR_FLOAT32>({3}, b);
    node.output(OperandType::TENSOR_BOOL8);
    REQUIRE(node.run(*cmp.impl));
    const auto got = node.values<OperandType::TENSOR_BOOL8>(0);
    for (std::size_t i = 0; i < 3; ++i) CHECK(got[i] == (cmp.expected(a[i], b[i]) ? 1 : 0));
  }
}

TEST_CASE("comparisons of quantized inputs use the real value computed in float") {
  // a = (13 - 10) * 0.1f rounds to 0.3f in float, which is b = 1 * 0.3f; in double 3 * 0.1f is
  // 0.3000000045 and 0.3f is 0.3000000119, so a double computation would say "not equal".
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1}, {13}, 0.1f, 10);
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1}, {1}, 0.3f, 0);
  node.output(OperandType::TENSOR_BOOL8);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::EQUAL>()));
  CHECK(node.values<OperandType::TENSOR_BOOL8>(0) == std::vector<std::uint8_t>{1});
}

TEST_CASE("comparisons reject shapes that do not broadcast") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_INT32>({2, 3}, {1, 2, 3, 4, 5, 6});
  node.tensor<OperandType::TENSOR_INT32>({4}, {1, 2, 3, 4});
  node.output(OperandType::TENSOR_BOOL8);
  CHECK_FALSE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::LESS>()));
}
