// Kernels of the indexing and lookup operations: GATHER, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP,
// ARGMAX, ARGMIN, TOPK_V2: results against per-element references, tie orders, and the
// errors for indices out of range, k out of range and bad shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "nnhal/kernels/argmax.hpp"
#include "nnhal/kernels/argmin.hpp"
#include "nnhal/kernels/embedding_lookup.hpp"
#include "nnhal/kernels/gather.hpp"
#include "nnhal/kernels/hashtable_lookup.hpp"
#include "nnhal/kernels/topk_v2.hpp"
#include "ops/kernel_test_util.hpp"
#include "ops/shape_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::flatten;
using nnhal::test::iota_of;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;
using nnhal::test::same;
using nnhal::test::TypeTag;
using nnhal::test::unflatten;

namespace {
constexpr OperandType kI32 = OperandType::TENSOR_INT32;
constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;
}  // namespace

TEST_CASE_TEMPLATE("GATHER picks slices along any axis with indices of any rank", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_INT32>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const Dims in{3, 4, 2};
  const auto data = iota_of<E>(24);
  const Dims idx_dims{2, 2};
  for (std::int32_t axis : {0, 1, 2, -1, -3}) {
    const std::size_t a = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    std::vector<std::int32_t> idx;
    for (std::int32_t i = 0; i < 4; ++i) idx.push_back((i * 5 + 1) % static_cast<std::int32_t>(in[a]));
    KernelNode node;
    node.tensor<T>(in, data, 0.5f, 1);
    node.scalar<OperandType::INT32>(axis);
    node.tensor<kI32>(idx_dims, idx);
    node.output(T, 0.5f, 1);
    REQUIRE(node.run(kernels_of<OperationType::GATHER>()));
    Dims want_dims;
    for (std::size_t k = 0; k < a; ++k) want_dims.push_back(in[k]);
    want_dims.push_back(2);
    want_dims.push_back(2);
    for (std::size_t k = a + 1; k < 3; ++k) want_dims.push_back(in[k]);
    REQUIRE(node.out(0).dims == want_dims);
    std::vector<E> want;
    for (std::size_t f = 0; f < want_dims.element_count(); ++f) {
      const auto o = unflatten(f, want_dims);
      std::vector<std::uint32_t> i(3);
      std::size_t j = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        if (k == a) {
          i[k] = static_cast<std::uint32_t>(idx[o[j] * 2 + o[j + 1]]);
          j += 2;
        } else {
          i[k] = o[j++];
        }
      }
      want.push_back(data[flatten(i, in)]);
    }
    CHECK(same(node.values<T>(0), want));
  }
}

TEST_CASE("GATHER rejects indices out of range and bad axes") {
  auto gather = [](std::int32_t axis, const std::vector<std::int32_t>& idx) {
    KernelNode node;
    node.tensor<kF32>({3, 4}, iota_of<float>(12));
    node.scalar<OperandType::INT32>(axis);
    node.tensor<kI32>({static_cast<std::uint32_t>(idx.size())}, idx);
    node.output(kF32);
    return node.run(kernels_of<OperationType::GATHER>());
  };
  CHECK(gather(1, {0, 3, 3}));
  CHECK_FALSE(gather(1, {0, 4}));
  CHECK_FALSE(gather(0, {-1}));
  CHECK_FALSE(gather(0, {3}));
  CHECK_FALSE(gather(2, {0}));
  CHECK_FALSE(gather(-3, {0}));
  const auto e = gather(0, {0, 1, 7});
  REQUIRE_FALSE(e);
  CHECK(e.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
}

TEST_CASE_TEMPLATE("EMBEDDING_LOOKUP copies the looked-up rows", Tag, TypeTag<OperandType::TENSOR_FLOAT32>,
                   TypeTag<OperandType::TENSOR_FLOAT16>, TypeTag<OperandType::TENSOR_INT32>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const auto values = iota_of<E>(4 * 3 * 2);
  const std::vector<std::int32_t> lookups{3, 0, 3, 1, 2};
  KernelNode node;
  node.tensor<kI32>({5}, lookups);
  node.tensor<T>({4, 3, 2}, values, 0.5f, 1);
  node.output(T, 0.5f, 1);
  REQUIRE(node.run(kernels_of<OperationType::EMBEDDING_LOOKUP>()));
  CHECK(node.out(0).dims == Dims{5, 3, 2});
  std::vector<E> want;
  for (std::int32_t l : lookups)
    for (int j = 0; j < 6; ++j) want.push_back(values[static_cast<std::size_t>(l * 6 + j)]);
  CHECK(same(node.values<T>(0), want));
}

TEST_CASE("EMBEDDING_LOOKUP errors: out-of-range lookups, ranks") {
  auto lookup = [](const std::vector<std::int32_t>& l, const Dims& ldims, const Dims& vdims) {
    KernelNode node;
    node.tensor<kI32>(ldims, l);
    node.tensor<kF32>(vdims, iota_of<float>(static_cast<std::size_t>(vdims.element_count())));
    node.output(kF32);
    return node.run(kernels_of<OperationType::EMBEDDING_LOOKUP>());
  };
  CHECK(lookup({0, 2}, {2}, {3, 2}));
  CHECK_FALSE(lookup({0, 3}, {2}, {3, 2}));
  CHECK_FALSE(lookup({-1}, {1}, {3, 2}));
  CHECK_FALSE(lookup({0, 1}, {1, 2}, {3, 2}));  // lookups not 1-D
  CHECK_FALSE(lookup({0}, {1}, {3}));           // values rank 1
}

TEST_CASE_TEMPLATE("HASHTABLE_LOOKUP: hits copy the row, misses give zero bytes and hits 0", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_INT32>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const std::vector<std::int32_t> keys{-7, 2, 5, 40};
  const auto values = iota_of<E>(8, 1);
  const std::vector<std::int32_t> lookups{5, 3, -7, 41, 40, -100};
  KernelNode node;
  node.tensor<kI32>({6}, lookups);
  node.tensor<kI32>({4}, keys);
  node.tensor<T>({4, 2}, values, 0.5f, 9);
  node.output(T, 0.5f, 9);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(node.run(kernels_of<OperationType::HASHTABLE_LOOKUP>()));
  CHECK(node.out(0).dims == Dims{6, 2});
  CHECK(node.out(1).dims == Dims{6});
  std::vector<E> want;
  std::vector<std::uint8_t> hits;
  for (std::int32_t l : lookups) {
    const auto it = std::find(keys.begin(), keys.end(), l);
    hits.push_back(it != keys.end() ? 1 : 0);
    for (std::size_t j = 0; j < 2; ++j)
      want.push_back(it != keys.end() ? values[static_cast<std::size_t>(it - keys.begin()) * 2 + j] : E{});
  }
  CHECK(same(node.values<T>(0), want));
  CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM>(1) == hits);
}

TEST_CASE("HASHTABLE_LOOKUP errors: keys and values disagree, ranks") {
  auto run = [](const Dims& ldims, const Dims& kdims, const Dims& vdims) {
    KernelNode node;
    node.tensor<kI32>(ldims, std::vector<std::int32_t>(static_cast<std::size_t>(ldims.element_count()), 1));
    node.tensor<kI32>(kdims, iota_of<std::int32_t>(static_cast<std::size_t>(kdims.element_count())));
    node.tensor<kF32>(vdims, iota_of<float>(static_cast<std::size_t>(vdims.element_count())));
    node.output(kF32);
    node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
    return node.run(kernels_of<OperationType::HASHTABLE_LOOKUP>());
  };
  CHECK(run({2}, {3}, {3, 2}));
  CHECK_FALSE(run({2}, {4}, {3, 2}));     // 4 keys, 3 rows
  CHECK_FALSE(run({2, 1}, {3}, {3, 2}));  // lookups not 1-D
  CHECK_FALSE(run({2}, {3, 1}, {3, 2}));  // keys not 1-D
}

TEST_CASE_TEMPLATE("ARGMAX / ARGMIN along each axis, first occurrence on ties", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_INT32>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const Dims in{3, 4, 2};
  std::vector<int> raw(24);
  for (int i = 0; i < 24; ++i) raw[static_cast<std::size_t>(i)] = (i * 7) % 5;  // many ties
  std::vector<E> data;
  for (int v : raw) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      data.push_back(Half(static_cast<float>(v)));
    else
      data.push_back(static_cast<E>(v));
  }
  for (bool is_max : {true, false}) {
    for (std::int32_t axis : {0, 1, 2, -1}) {
      const std::size_t a = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
      KernelNode node;
      node.tensor<T>(in, data, 1.0f, 0);
      node.scalar<OperandType::INT32>(axis);
      node.output(kI32);
      REQUIRE(node.run(is_max ? kernels_of<OperationType::ARGMAX>() : kernels_of<OperationType::ARGMIN>()));
      Dims want_dims;
      for (std::size_t k = 0; k < 3; ++k)
        if (k != a) want_dims.push_back(in[k]);
      REQUIRE(node.out(0).dims == want_dims);
      std::vector<std::int32_t> want;
      for (std::size_t f = 0; f < want_dims.element_count(); ++f) {
        const auto o = unflatten(f, want_dims);
        std::vector<std::uint32_t> i(3);
        for (std::size_t k = 0, j = 0; k < 3; ++k) i[k] = k == a ? 0 : o[j++];
        std::int32_t best = 0;
        for (std::uint32_t p = 1; p < in[a]; ++p) {
          i[a] = p;
          const int v = raw[flatten(i, in)];
          i[a] = static_cast<std::uint32_t>(best);
          const int b = raw[flatten(i, in)];
          if (is_max ? v > b : v < b) best = static_cast<std::int32_t>(p);
        }
        want.push_back(best);
      }
      CHECK(node.values<kI32>(0) == want);
    }
  }
}

TEST_CASE("ARGMAX of a 1-D input has shape [1]; a bad axis is an error") {
  KernelNode node;
  node.tensor<kF32>({4}, {1.0f, 5.0f, 5.0f, -2.0f});
  node.scalar<OperandType::INT32>(0);
  node.output(kI32);
  REQUIRE(node.run(kernels_of<OperationType::ARGMAX>()));
  CHECK(node.out(0).dims == Dims{1});
  CHECK(node.values<kI32>(0) == std::vector<std::int32_t>{1});
  KernelNode bad;
  bad.tensor<kF32>({4}, {1.0f, 5.0f, 5.0f, -2.0f});
  bad.scalar<OperandType::INT32>(1);
  bad.output(kI32);
  CHECK_FALSE(bad.run(kernels_of<OperationType::ARGMIN>()));
}

TEST_CASE_TEMPLATE("TOPK_V2: k largest per row, descending, ties with the larger index first", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_INT32>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const std::size_t rows = 3, n = 9;
  std::vector<int> raw(rows * n);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<int>((i * 5 + i / 4) % 4);  // many ties
  std::vector<E> data;
  for (int v : raw) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      data.push_back(Half(static_cast<float>(v)));
    else
      data.push_back(static_cast<E>(v));
  }
  for (std::int32_t k = 1; k <= static_cast<std::int32_t>(n); ++k) {
    KernelNode node;
    node.tensor<T>({static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(n)}, data, 1.0f, 0);
    node.scalar<OperandType::INT32>(k);
    node.output(T, 1.0f, 0);
    node.output(kI32);
    REQUIRE(node.run(kernels_of<OperationType::TOPK_V2>()));
    const Dims want_dims{static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(k)};
    CHECK(node.out(0).dims == want_dims);
    CHECK(node.out(1).dims == want_dims);
    std::vector<E> want_values;
    std::vector<std::int32_t> want_indices;
    for (std::size_t r = 0; r < rows; ++r) {
      std::vector<std::pair<int, std::int32_t>> row;
      for (std::size_t i = 0; i < n; ++i) row.emplace_back(raw[r * n + i], static_cast<std::int32_t>(i));
      std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x > y; });
      for (std::int32_t j = 0; j < k; ++j) {
        want_indices.push_back(row[static_cast<std::size_t>(j)].second);
        want_values.push_back(data[r * n + static_cast<std::size_t>(row[static_cast<std::size_t>(j)].second)]);
      }
    }
    CHECK(same(node.values<T>(0), want_values));
    CHECK(node.values<kI32>(1) == want_indices);
  }
}

TEST_CASE("TOPK_V2 rejects k outside (0, last dimension]") {
  for (std::int32_t k : {0, -1, 5}) {
    KernelNode node;
    node.tensor<kF32>({2, 4}, iota_of<float>(8));
    node.scalar<OperandType::INT32>(k);
    node.output(kF32);
    node.output(kI32);
    auto s = node.run(kernels_of<OperationType::TOPK_V2>());
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  }
}
