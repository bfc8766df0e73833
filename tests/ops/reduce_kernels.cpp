// Kernels of the reductions: REDUCE_ALL, REDUCE_ANY, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD,
// REDUCE_SUM and MEAN, checked against a per-element reference over every axis subset (with
// negative and repeated axes, with and without keep_dims), MEAN's truncating quantized division,
// and the runtime errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/mean.hpp"
#include "nnhal/kernels/reduce_all.hpp"
#include "nnhal/kernels/reduce_any.hpp"
#include "nnhal/kernels/reduce_max.hpp"
#include "nnhal/kernels/reduce_min.hpp"
#include "nnhal/kernels/reduce_prod.hpp"
#include "nnhal/kernels/reduce_sum.hpp"
#include "ops/kernel_test_util.hpp"
#include "ops/shape_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;
using nnhal::test::same;
using nnhal::test::TypeTag;
using nnhal::test::unflatten;

namespace {

constexpr OperandType kI32 = OperandType::TENSOR_INT32;

enum class Kind { Sum, Prod, Max, Min, All, Any, Mean };

const nnhal::OpKernel& kernels_for(Kind k) {
  switch (k) {
    case Kind::Sum: return kernels_of<OperationType::REDUCE_SUM>();
    case Kind::Prod: return kernels_of<OperationType::REDUCE_PROD>();
    case Kind::Max: return kernels_of<OperationType::REDUCE_MAX>();
    case Kind::Min: return kernels_of<OperationType::REDUCE_MIN>();
    case Kind::All: return kernels_of<OperationType::REDUCE_ALL>();
    case Kind::Any: return kernels_of<OperationType::REDUCE_ANY>();
    case Kind::Mean: break;
  }
  return kernels_of<OperationType::MEAN>();
}

/// Runs reduction `kind` of `data` (shape `in`) over `axes`.
template <OperandType T>
nnhal::Status run_reduce(KernelNode& node, Kind kind, const Dims& in, const std::vector<nnhal::element_t<T>>& data,
                         const std::vector<std::int32_t>& axes, bool keep) {
  node.tensor<T>(in, data, 0.5f, 3);
  node.tensor<kI32>({static_cast<std::uint32_t>(axes.size())}, axes);
  if (kind == Kind::Mean)
    node.scalar<OperandType::INT32>(keep ? 1 : 0);
  else
    node.scalar<OperandType::BOOL>(keep ? 1 : 0);
  node.output(T, 0.5f, 3);
  return node.run(kernels_for(kind));
}

/// The reference: each output element accumulates its inputs in row-major order.
template <class E>
std::vector<E> reduce_ref(Kind kind, const Dims& in, const std::vector<E>& data, const std::vector<bool>& on,
                          std::size_t out_count) {
  constexpr bool kHalf = std::is_same_v<E, Half>;
  constexpr bool kFloat = kHalf || std::is_same_v<E, float>;
  using Acc = std::conditional_t<kFloat, float, std::int64_t>;
  std::vector<Acc> acc(out_count);
  std::vector<std::size_t> count(out_count, 0);
  std::vector<bool> seen(out_count, false);
  for (std::size_t f = 0; f < data.size(); ++f) {
    const auto idx = unflatten(f, in);
    std::size_t o = 0;
    for (std::size_t k = 0; k < in.rank(); ++k)
      if (!on[k]) o = o * in[k] + idx[k];
    Acc v;
    if constexpr (kHalf)
      v = static_cast<float>(data[f]);
    else
      v = static_cast<Acc>(data[f]);
    if (!seen[o]) {
      acc[o] = kind == Kind::All || kind == Kind::Any ? (v != 0 ? 1 : 0) : v;
    } else {
      switch (kind) {
        case Kind::Sum: case Kind::Mean: acc[o] += v; break;
        case Kind::Prod: acc[o] *= v; break;
        case Kind::Max: acc[o] = v > acc[o] ? v : acc[o]; break;
        case Kind::Min: acc[o] = v < acc[o] ? v : acc[o]; break;
        case Kind::All: acc[o] = acc[o] != 0 && v != 0 ? 1 : 0; break;
        case Kind::Any: acc[o] = acc[o] != 0 || v != 0 ? 1 : 0; break;
      }
    }
    seen[o] = true;
    ++count[o];
  }
  std::vector<E> r;
  for (std::size_t o = 0; o < out_count; ++o) {
    Acc a = acc[o];
    if (kind == Kind::Mean) a = a / static_cast<Acc>(count[o]);  // integer division truncates
    if constexpr (kHalf)
      r.push_back(Half(a));
    else
      r.push_back(static_cast<E>(a));
  }
  return r;
}

template <OperandType T>
void check_all_axis_sets(Kind kind, const std::vector<nnhal::element_t<T>>& data) {
  const Dims in{2, 3, 4};
  for (unsigned mask = 1; mask < 8; ++mask) {
    for (bool keep : {false, true}) {
      // Name each axis once positively, and axis 1 a second time negatively when present.
      std::vector<std::int32_t> axes;
      std::vector<bool> on(3, false);
      for (std::int32_t k = 0; k < 3; ++k)
        if ((mask >> k) & 1u) {
          axes.push_back(k == 2 ? -1 : k);
          on[static_cast<std::size_t>(k)] = true;
        }
      if (on[1]) axes.push_back(-2);
      KernelNode node;
      REQUIRE(run_reduce<T>(node, kind, in, data, axes, keep));
      Dims want_dims;
      std::size_t count = 1;
      for (std::size_t k = 0; k < 3; ++k) {
        if (!on[k]) {
          want_dims.push_back(in[k]);
          count *= in[k];
        } else if (keep) {
          want_dims.push_back(1);
        }
      }
      if (want_dims.rank() == 0) want_dims.push_back(1);
      CHECK(node.out(0).dims == want_dims);
      CHECK(same(node.values<T>(0), reduce_ref(kind, in, data, on, count)));
    }
  }
}

template <class E>
std::vector<E> sample(std::size_t n, bool small) {
  std::vector<E> v;
  for (std::size_t i = 0; i < n; ++i) {
    const int x = static_cast<int>((i * 7 + 3) % 11) - (small ? 5 : 0);
    if constexpr (std::is_same_v<E, Half>)
      v.push_back(Half(small ? static_cast<float>(x) * 0.25f : static_cast<float>(x)));
    else if constexpr (std::is_same_v<E, float>)
      v.push_back(small ? static_cast<float>(x) * 0.25f : static_cast<float>(x) + 0.5f);
    else
      v.push_back(static_cast<E>(x * 9 - (std::is_signed_v<E> ? 40 : 0)));
  }
  return v;
}

}  // namespace

TEST_CASE_TEMPLATE("REDUCE_SUM / REDUCE_PROD / REDUCE_MAX / REDUCE_MIN / MEAN over every axis set (float)", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  for (Kind k : {Kind::Sum, Kind::Max, Kind::Min, Kind::Mean}) check_all_axis_sets<T>(k, sample<E>(24, false));
  check_all_axis_sets<T>(Kind::Prod, sample<E>(24, true));
}

TEST_CASE_TEMPLATE("REDUCE_MAX / REDUCE_MIN / MEAN over every axis set (quantized, stored values)", Tag,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  for (Kind k : {Kind::Max, Kind::Min, Kind::Mean}) check_all_axis_sets<T>(k, sample<E>(24, false));
}

TEST_CASE_TEMPLATE("Reductions over the innermost axes (the SIMD rows) equal the sequential reference", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  constexpr bool kFloatType = T == OperandType::TENSOR_FLOAT32;
  struct Case {
    Dims in;
    std::vector<std::int32_t> axes;
  };
  // Row lengths around the vector widths, size-1 axes around the reduced block, negative axes.
  const Case cases[] = {{{3, 37}, {1}},         {{2, 5, 19}, {1, 2}},    {{2, 5, 19}, {-1}},
                        {{4, 1, 33, 1}, {2}},   {{2, 3, 1, 70}, {2, 3}}, {{1, 130}, {-1, 1}},
                        {{7, 1}, {1}},          {{3, 4, 2}, {2}}};
  std::vector<Kind> kinds{Kind::Max, Kind::Min, Kind::Mean};
  if constexpr (kFloatType) {
    kinds.push_back(Kind::Sum);
    kinds.push_back(Kind::Prod);
  }
  for (const Case& c : cases) {
    const std::size_t n = static_cast<std::size_t>(c.in.element_count());
    std::vector<bool> on(c.in.rank(), false);
    for (std::int32_t a : c.axes) on[static_cast<std::size_t>(a < 0 ? a + static_cast<std::int32_t>(c.in.rank()) : a)] = true;
    std::size_t out_count = 1;
    for (std::size_t k = 0; k < c.in.rank(); ++k)
      if (!on[k]) out_count *= c.in[k];
    for (Kind kind : kinds) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(n);
      std::vector<E> data(n);
      for (std::size_t i = 0; i < n; ++i) {
        const int x = static_cast<int>((i * 37 + 11) % 23);
        if constexpr (kFloatType) {
          // Multiples of 1/4 (sums exact in any order) and powers of two for the product (exact
          // too): the reordered SIMD sums and products must then give the same bits.
          static constexpr float kPow2[] = {0.5f, 1.0f, 2.0f, -1.0f, 0.25f, -2.0f, 1.0f};
          data[i] = kind == Kind::Prod ? kPow2[i % 7] : static_cast<float>(x - 11) * 0.25f;
        } else {
          data[i] = static_cast<E>(std::is_signed_v<E> ? x * 11 - 128 : x * 11);
        }
      }
      KernelNode node;
      REQUIRE(run_reduce<T>(node, kind, c.in, data, c.axes, false));
      CHECK(same(node.values<T>(0), reduce_ref(kind, c.in, data, on, out_count)));
    }
  }
}

TEST_CASE("REDUCE_MAX / REDUCE_MIN over the last axis skip NaN and keep the first of +0 / -0, as the sequential loop") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> data;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t i = 0; i < 41; ++i) {
      float v = r == 0 ? (i % 3 == 0 ? nan : -static_cast<float>(i)) : r == 1 ? (i % 2 ? 0.0f : -0.0f) : r == 2 ? nan : -1.0f;
      if (r == 3 && i == 17) v = -0.0f;
      if (r == 3 && i == 30) v = 0.0f;
      data.push_back(v);
    }
  for (Kind kind : {Kind::Max, Kind::Min}) {
    KernelNode node;
    REQUIRE(run_reduce<OperandType::TENSOR_FLOAT32>(node, kind, {4, 41}, data, {1}, false));
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    REQUIRE(got.size() == 4);
    for (std::size_t r = 0; r < 4; ++r) {
      float want = kind == Kind::Max ? -inf : inf;
      for (std::size_t i = 0; i < 41; ++i) {
        const float v = data[r * 41 + i];
        want = kind == Kind::Max ? (v > want ? v : want) : (v < want ? v : want);
      }
      CAPTURE(r);
      CHECK(std::signbit(got[r]) == std::signbit(want));
      CHECK((got[r] == want || (std::isnan(got[r]) && std::isnan(want))));
    }
  }
}

TEST_CASE("REDUCE_ALL / REDUCE_ANY over every axis set") {
  std::vector<std::uint8_t> data(24);
  for (std::size_t i = 0; i < 24; ++i) data[i] = (i % 5 == 0 || i % 7 == 3) ? 0 : (i % 3 == 0 ? 2 : 1);
  check_all_axis_sets<OperandType::TENSOR_BOOL8>(Kind::All, data);
  check_all_axis_sets<OperandType::TENSOR_BOOL8>(Kind::Any, data);
}

TEST_CASE("MEAN on quantized values truncates toward zero, as the reference's integer division") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({2, 2}, {-3, -2, 3, 2}, 0.5f, 0);
  node.tensor<kI32>({1}, {1});
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 0.5f, 0);
  REQUIRE(node.run(kernels_of<OperationType::MEAN>()));
  CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(0) == std::vector<std::int8_t>{-2, 2});
}

TEST_CASE("Reductions over an empty axes list copy the input; a size-1 trailing axis keeps contiguity right") {
  KernelNode node;
  const std::vector<float> data{1, 2, 3, 4, 5, 6};
  REQUIRE(run_reduce<OperandType::TENSOR_FLOAT32>(node, Kind::Sum, {2, 3}, data, {}, false));
  CHECK(node.out(0).dims == Dims{2, 3});
  CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == data);
  // Axes {0, 2} of [4, 5, 1]: the last reduced axis has size 1.
  std::vector<float> d2(20);
  for (std::size_t i = 0; i < 20; ++i) d2[i] = static_cast<float>(i);
  KernelNode n2;
  REQUIRE(run_reduce<OperandType::TENSOR_FLOAT32>(n2, Kind::Max, {4, 5, 1}, d2, {0, 2}, false));
  CHECK(n2.out(0).dims == Dims{5});
  CHECK(n2.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{15, 16, 17, 18, 19});
}

TEST_CASE("Reductions reject axes out of range, axes not 1-D, rank above 4") {
  for (Kind kind : {Kind::Sum, Kind::Mean}) {
    for (const std::vector<std::int32_t>& axes : {std::vector<std::int32_t>{2}, std::vector<std::int32_t>{-3},
                                                  std::vector<std::int32_t>{0, 5}}) {
      KernelNode node;
      auto s = run_reduce<OperandType::TENSOR_FLOAT32>(node, kind, {2, 3}, {1, 2, 3, 4, 5, 6}, axes, false);
      REQUIRE_FALSE(s);
      CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
    }
    KernelNode rank5;
    CHECK_FALSE(run_reduce<OperandType::TENSOR_FLOAT32>(rank5, kind, {1, 1, 1, 1, 2}, {1, 2}, {0}, false));
  }
  KernelNode not_1d;
  not_1d.tensor<OperandType::TENSOR_FLOAT32>({2, 2}, {1, 2, 3, 4});
  not_1d.tensor<kI32>({1, 1}, {0});
  not_1d.scalar<OperandType::BOOL>(0);
  not_1d.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(not_1d.run(kernels_of<OperationType::REDUCE_MAX>()));
}
