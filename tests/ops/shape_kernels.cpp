// Kernels of the layout operations that keep the data in row-major order or move boxes of it:
// TRANSPOSE, SQUEEZE, EXPAND_DIMS, PAD, PAD_V2, STRIDED_SLICE, TILE, SPLIT. Each kernel is
// checked against a slow per-element reference (tests/ops/shape_test_util.hpp) over its element
// types, plus its runtime errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <numeric>
#include <vector>

#include "nnhal/kernels/expand_dims.hpp"
#include "nnhal/kernels/pad.hpp"
#include "nnhal/kernels/pad_v2.hpp"
#include "nnhal/kernels/split.hpp"
#include "nnhal/kernels/squeeze.hpp"
#include "nnhal/kernels/strided_slice.hpp"
#include "nnhal/kernels/tile.hpp"
#include "nnhal/kernels/transpose.hpp"
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
using nnhal::test::slice_positions;
using nnhal::test::TypeTag;
using nnhal::test::unflatten;

namespace {

constexpr OperandType kI32 = OperandType::TENSOR_INT32;
constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;

/// The slow transpose: out[i] = in[perm-mapped index].
template <class E>
std::vector<E> transpose_ref(const Dims& in, const std::vector<E>& data, const std::vector<int>& perm, Dims& out) {
  out = Dims{};
  for (int p : perm) out.push_back(in[static_cast<std::size_t>(p)]);
  std::vector<E> r(data.size());
  for (std::size_t f = 0; f < r.size(); ++f) {
    const auto oi = unflatten(f, out);
    std::vector<std::uint32_t> ii(in.rank());
    for (std::size_t k = 0; k < perm.size(); ++k) ii[static_cast<std::size_t>(perm[k])] = oi[k];
    r[f] = data[flatten(ii, in)];
  }
  return r;
}

template <OperandType T>
nnhal::Status run_transpose(const Dims& in, const std::vector<int>* perm, KernelNode& node) {
  using E = nnhal::element_t<T>;
  node.tensor<T>(in, iota_of<E>(static_cast<std::size_t>(in.element_count())), 0.5f, 3);
  if (perm != nullptr) {
    node.tensor<kI32>({static_cast<std::uint32_t>(perm->size())}, std::vector<std::int32_t>(perm->begin(), perm->end()));
  } else {
    node.tensor<kI32>({0}, {});
    node.in(1).lifetime = nnhal::OperandLifeTime::NO_VALUE;
  }
  node.output(T, 0.5f, 3);
  return node.run(kernels_of<OperationType::TRANSPOSE>());
}

}  // namespace

TEST_CASE_TEMPLATE("TRANSPOSE matches the per-element reference for every permutation up to rank 4", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  // The larger shapes cover the tiled path with partial tiles of every element size.
  const Dims shapes[] = {{5}, {3, 4}, {2, 3, 4}, {2, 3, 1, 5}, {1, 4, 3, 2}, {70, 45}, {3, 70, 45}, {2, 33, 2, 65}};
  for (const Dims& in : shapes) {
    std::vector<int> perm(in.rank());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      KernelNode node;
      REQUIRE(run_transpose<T>(in, &perm, node));
      Dims want_dims;
      const auto want = transpose_ref(in, iota_of<E>(static_cast<std::size_t>(in.element_count())), perm, want_dims);
      CHECK(node.out(0).dims == want_dims);
      CHECK(same(node.values<T>(0), want));
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST_CASE("TRANSPOSE: omitted perm reverses the axes; zero-sized input; errors") {
  KernelNode node;
  REQUIRE(run_transpose<kF32>({2, 3, 4}, nullptr, node));
  Dims want_dims;
  const auto want = transpose_ref({2, 3, 4}, iota_of<float>(24), {2, 1, 0}, want_dims);
  CHECK(node.out(0).dims == Dims{4, 3, 2});
  CHECK(node.values<kF32>(0) == want);

  KernelNode empty;
  const std::vector<int> perm{1, 0};
  REQUIRE(run_transpose<kF32>({0, 3}, &perm, empty));
  CHECK(empty.out(0).dims == Dims{3, 0});

  for (const std::vector<int>& bad : {std::vector<int>{0, 0}, std::vector<int>{0, 2}, std::vector<int>{-1, 0},
                                      std::vector<int>{0}, std::vector<int>{0, 1, 2}}) {
    KernelNode n;
    auto s = run_transpose<kF32>({2, 3}, &bad, n);
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  }
  KernelNode rank5;
  const std::vector<int> p5{0, 1, 2, 3, 4};
  CHECK_FALSE(run_transpose<kF32>({1, 1, 1, 1, 2}, &p5, rank5));
}

TEST_CASE("SQUEEZE and EXPAND_DIMS: shapes, negative and repeated axes, errors") {
  auto squeeze = [](const Dims& in, const std::vector<std::int32_t>* axes) -> nnhal::Expected<Dims> {
    KernelNode node;
    node.tensor<kF32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));
    if (axes != nullptr) {
      node.tensor<kI32>({static_cast<std::uint32_t>(axes->size())}, *axes);
    } else {
      node.tensor<kI32>({0}, {});
      node.in(1).lifetime = nnhal::OperandLifeTime::NO_VALUE;
    }
    node.output(kF32);
    if (auto s = node.run(kernels_of<OperationType::SQUEEZE>()); !s) return std::move(s.error());
    CHECK(node.values<kF32>(0) == iota_of<float>(static_cast<std::size_t>(in.element_count())));
    return node.out(0).dims;
  };
  const std::vector<std::int32_t> a0{0}, neg{-1}, rep{0, 0, -4}, bad{1}, out_of_range{4};
  CHECK(*squeeze({1, 3, 1, 1}, nullptr) == Dims{3});
  CHECK(*squeeze({1, 1}, nullptr) == Dims{1});  // all squeezed -> [1]
  CHECK(*squeeze({1, 3, 1, 1}, &a0) == Dims{3, 1, 1});
  CHECK(*squeeze({1, 3, 1, 1}, &neg) == Dims{1, 3, 1});
  CHECK(*squeeze({1, 3, 1, 1}, &rep) == Dims{3, 1, 1});
  CHECK_FALSE(squeeze({1, 3, 1, 1}, &bad));           // size 3 is not squeezable
  CHECK_FALSE(squeeze({1, 3, 1, 1}, &out_of_range));  // axis 4 of rank 4

  auto expand = [](const Dims& in, std::int32_t axis) -> nnhal::Expected<Dims> {
    KernelNode node;
    node.tensor<kI32>(in, iota_of<std::int32_t>(static_cast<std::size_t>(in.element_count())));
    node.scalar<OperandType::INT32>(axis);
    node.output(kI32);
    if (auto s = node.run(kernels_of<OperationType::EXPAND_DIMS>()); !s) return std::move(s.error());
    CHECK(node.values<kI32>(0) == iota_of<std::int32_t>(static_cast<std::size_t>(in.element_count())));
    return node.out(0).dims;
  };
  CHECK(*expand({2, 3}, 0) == Dims{1, 2, 3});
  CHECK(*expand({2, 3}, 2) == Dims{2, 3, 1});
  CHECK(*expand({2, 3}, -1) == Dims{2, 3, 1});
  CHECK(*expand({2, 3}, -3) == Dims{1, 2, 3});
  CHECK_FALSE(expand({2, 3}, 3));
  CHECK_FALSE(expand({2, 3}, -4));
  CHECK_FALSE(expand({1, 1, 1, 1, 1, 1, 1, 2}, 0));  // rank 9 > kMaxRank
}

namespace {

/// PAD / PAD_V2 reference: every output element is either the mapped input element or `pad`.
template <class E>
std::vector<E> pad_ref(const Dims& in, const std::vector<E>& data, const std::vector<std::int32_t>& pads, E pad,
                       Dims& out) {
  out = Dims{};
  for (std::size_t k = 0; k < in.rank(); ++k)
    out.push_back(in[k] + static_cast<std::uint32_t>(pads[2 * k] + pads[2 * k + 1]));
  std::vector<E> r(static_cast<std::size_t>(out.element_count()), pad);
  for (std::size_t f = 0; f < r.size(); ++f) {
    auto idx = unflatten(f, out);
    bool inside = true;
    for (std::size_t k = 0; k < in.rank(); ++k) {
      const std::int64_t i = std::int64_t{idx[k]} - pads[2 * k];
      if (i < 0 || i >= in[k]) inside = false;
      idx[k] = static_cast<std::uint32_t>(i);
    }
    if (inside) r[f] = data[flatten(idx, in)];
  }
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("PAD pads with the logical zero, PAD_V2 with its value", Tag, TypeTag<OperandType::TENSOR_FLOAT32>,
                   TypeTag<OperandType::TENSOR_FLOAT16>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const Dims in{2, 1, 3};
  const std::vector<std::int32_t> pads{1, 0, 0, 2, 2, 1};
  const auto data = iota_of<E>(6, 1);
  for (bool v2 : {false, true}) {
    KernelNode node;
    node.tensor<T>(in, data, 0.5f, 7);
    node.tensor<kI32>({3, 2}, pads);
    E pad{};
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      pad = v2 ? -2.5f : 0.0f;
      if (v2) node.scalar<OperandType::FLOAT32>(pad);
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      pad = Half(v2 ? -2.5f : 0.0f);
      if (v2) node.scalar<OperandType::FLOAT16>(pad);
    } else {
      pad = static_cast<E>(v2 ? 9 : 7);  // PAD: the zeroPoint
      if (v2) node.scalar<OperandType::INT32>(9);
    }
    node.output(T, 0.5f, 7);
    REQUIRE(node.run(v2 ? kernels_of<OperationType::PAD_V2>() : kernels_of<OperationType::PAD>()));
    Dims want_dims;
    const auto want = pad_ref(in, data, pads, pad, want_dims);
    CHECK(node.out(0).dims == want_dims);
    CHECK(same(node.values<T>(0), want));
  }
}

TEST_CASE_TEMPLATE("PAD writes every output element once: padding on any subset of axes, ranks 1 to 4", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  struct Case {
    Dims in;
    std::vector<std::int32_t> pads;
  };
  const Case cases[] = {
      {{5}, {2, 3}},
      {{5}, {0, 0}},
      {{3, 4}, {0, 0, 1, 2}},                          // last axis only
      {{3, 4}, {2, 1, 0, 0}},                          // first axis only: whole rows
      {{1, 6, 5, 3}, {0, 0, 1, 1, 1, 1, 0, 0}},        // NHWC, H and W by 1
      {{2, 3, 4, 5}, {1, 0, 0, 2, 3, 0, 0, 1}},        // every axis, one side each
      {{2, 3, 4, 5}, {0, 0, 0, 0, 0, 0, 0, 0}},        // nothing padded: one copy
      {{2, 1, 3, 1}, {0, 1, 2, 0, 0, 0, 1, 1}},        // size-1 axes padded
      {{2, 0, 3}, {1, 1, 1, 0, 0, 2}},                 // empty input: all padding
  };
  for (const Case& c : cases) {
    CAPTURE(c.in.rank());
    const auto data = iota_of<E>(static_cast<std::size_t>(c.in.element_count()), 1);
    KernelNode node;
    node.tensor<T>(c.in, data, 0.5f, 7);
    node.tensor<kI32>({static_cast<std::uint32_t>(c.in.rank()), 2}, c.pads);
    node.output(T, 0.5f, 7);
    REQUIRE(node.run(kernels_of<OperationType::PAD>()));
    Dims want_dims;
    const E pad = T == OperandType::TENSOR_FLOAT32 ? E{} : static_cast<E>(7);
    const auto want = pad_ref(c.in, data, c.pads, pad, want_dims);
    CHECK(node.out(0).dims == want_dims);
    CHECK(same(node.values<T>(0), want));
  }
}

TEST_CASE("PAD / PAD_V2 runtime errors: paddings shape, negative paddings, overflow, pad value range") {
  auto pad = [](const std::vector<std::int32_t>& pads, const Dims& pads_dims, std::int32_t value = 0,
                bool v2 = false, const Dims& in = Dims{2, 3}) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_QUANT8_ASYMM>(in, iota_of<std::uint8_t>(static_cast<std::size_t>(in.element_count())),
                                                  1.0f, 0);
    node.tensor<kI32>(pads_dims, pads);
    if (v2) node.scalar<OperandType::INT32>(value);
    node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
    return node.run(v2 ? kernels_of<OperationType::PAD_V2>() : kernels_of<OperationType::PAD>());
  };
  CHECK(pad({0, 1, 1, 0}, {2, 2}));
  CHECK_FALSE(pad({0, 1, 1, 0}, {4}));            // not [rank, 2]
  CHECK_FALSE(pad({0, 1, 1, 0, 0, 0}, {3, 2}));   // rank 3 paddings for a rank-2 input
  CHECK_FALSE(pad({0, -1, 1, 0}, {2, 2}));        // negative
  CHECK_FALSE(pad({0x7fffffff, 0x7fffffff, 0, 0}, {2, 2}));  // dimension overflows
  CHECK(pad({0, 1, 1, 0}, {2, 2}, 255, true));
  CHECK_FALSE(pad({0, 1, 1, 0}, {2, 2}, 256, true));  // outside QA8's range
  CHECK_FALSE(pad({0, 1, 1, 0}, {2, 2}, -1, true));
  CHECK_FALSE(pad({0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {5, 2}, 0, false, Dims{1, 1, 1, 1, 2}));  // rank 5
}

namespace {

struct SliceArgs {
  std::vector<std::int32_t> begin, end, strides;
  std::int32_t begin_mask = 0, end_mask = 0, shrink = 0;
};

nnhal::Status run_slice(KernelNode& node, const Dims& in, const SliceArgs& a) {
  node.tensor<kF32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));  // no I32 kernel
  node.tensor<kI32>({static_cast<std::uint32_t>(a.begin.size())}, a.begin);
  node.tensor<kI32>({static_cast<std::uint32_t>(a.end.size())}, a.end);
  node.tensor<kI32>({static_cast<std::uint32_t>(a.strides.size())}, a.strides);
  node.scalar<OperandType::INT32>(a.begin_mask);
  node.scalar<OperandType::INT32>(a.end_mask);
  node.scalar<OperandType::INT32>(a.shrink);
  node.output(kF32);
  return node.run(kernels_of<OperationType::STRIDED_SLICE>());
}

/// The expected values and shape of a strided slice of iota data.
std::vector<float> slice_ref(const Dims& in, const SliceArgs& a, Dims& out) {
  std::vector<std::vector<std::int64_t>> pos;
  out = Dims{};
  for (std::size_t k = 0; k < in.rank(); ++k) {
    pos.push_back(slice_positions(in[k], a.begin[k], a.end[k], a.strides[k], (a.begin_mask >> k) & 1,
                                  (a.end_mask >> k) & 1));
    if (((a.shrink >> k) & 1) == 0) out.push_back(static_cast<std::uint32_t>(pos.back().size()));
  }
  if (out.rank() == 0) out.push_back(1);
  std::size_t total = 1;
  for (const auto& p : pos) total *= p.size();
  std::vector<float> r;
  Dims counts;
  for (const auto& p : pos) counts.push_back(static_cast<std::uint32_t>(p.size()));
  for (std::size_t f = 0; f < total; ++f) {
    const auto idx = unflatten(f, counts);
    std::vector<std::uint32_t> ii(in.rank());
    for (std::size_t k = 0; k < in.rank(); ++k) ii[k] = static_cast<std::uint32_t>(pos[k][idx[k]]);
    r.push_back(static_cast<float>(flatten(ii, in)));
  }
  return r;
}

}  // namespace

TEST_CASE("STRIDED_SLICE: masks, negative indices and strides, shrink, clamping") {
  const Dims in{3, 4, 5};
  const SliceArgs cases[] = {
      {{0, 0, 0}, {3, 4, 5}, {1, 1, 1}},
      {{1, -3, 4}, {3, -1, 0}, {1, 1, -2}},
      {{-1, 3, 1}, {-4, 0, 5}, {-1, -1, 2}},
      {{0, 0, 0}, {0, 0, 0}, {1, 2, 3}, 0b111, 0b111, 0},
      {{2, 0, 0}, {3, 4, 5}, {1, 1, 1}, 0, 0, 0b001},         // shrink axis 0
      {{1, 2, 3}, {2, 3, 4}, {1, 1, 1}, 0, 0, 0b111},         // all shrunk -> [1]
      {{-100, 100, -100}, {100, -100, 100}, {1, -1, 2}},      // clamped
      {{2, 1, 0}, {1, 1, 5}, {1, 1, 1}},                      // empty axes
      {{0, 3, 4}, {3, 0, 0}, {2, -2, -3}, 0b001, 0b100, 0},
  };
  for (const SliceArgs& a : cases) {
    KernelNode node;
    const auto s = run_slice(node, in, a);
    REQUIRE_MESSAGE(s, std::string(s ? "" : s.error().c_str()));
    Dims want_dims;
    const auto want = slice_ref(in, a, want_dims);
    CHECK(node.out(0).dims == want_dims);
    CHECK(node.values<kF32>(0) == want);
  }
}

TEST_CASE("STRIDED_SLICE runtime errors") {
  const Dims in{3, 4};
  const SliceArgs bad[] = {
      {{0, 0}, {3, 4}, {1, 0}},                 // zero stride
      {{0, 0}, {3, 4}, {-1, 1}, 0, 0, 0b01},    // shrink with a negative stride
      {{0, 0}, {2, 4}, {1, 1}, 0, 0, 0b01},     // shrink of two elements
      {{0}, {3}, {1}},                          // one entry for rank 2
  };
  for (const SliceArgs& a : bad) {
    KernelNode node;
    auto s = run_slice(node, in, a);
    REQUIRE_FALSE(s);
    CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE_TEMPLATE("TILE repeats every axis", Tag, TypeTag<OperandType::TENSOR_FLOAT32>,
                   TypeTag<OperandType::TENSOR_FLOAT16>, TypeTag<OperandType::TENSOR_INT32>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const Dims in{2, 3, 2};
  const std::vector<std::int32_t> m{2, 1, 3};
  const auto data = iota_of<E>(12);
  KernelNode node;
  node.tensor<T>(in, data, 0.25f, 1);
  node.tensor<kI32>({3}, m);
  node.output(T, 0.25f, 1);
  REQUIRE(node.run(kernels_of<OperationType::TILE>()));
  const Dims out{4, 3, 6};
  REQUIRE(node.out(0).dims == out);
  std::vector<E> want;
  for (std::size_t f = 0; f < out.element_count(); ++f) {
    auto idx = unflatten(f, out);
    for (std::size_t k = 0; k < 3; ++k) idx[k] %= in[k];
    want.push_back(data[flatten(idx, in)]);
  }
  CHECK(same(node.values<T>(0), want));
}

TEST_CASE("TILE errors and edge cases") {
  auto tile = [](const Dims& in, const std::vector<std::int32_t>& m) {
    KernelNode node;
    node.tensor<kF32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));
    node.tensor<kI32>({static_cast<std::uint32_t>(m.size())}, m);
    node.output(kF32);
    return node.run(kernels_of<OperationType::TILE>());
  };
  CHECK(tile({2, 2}, {1, 1}));
  CHECK(tile({2, 2}, {0, 3}));                      // zero-sized output
  CHECK_FALSE(tile({2, 2}, {1}));                   // one multiple for rank 2
  CHECK_FALSE(tile({2, 2}, {1, -1}));               // negative
  CHECK_FALSE(tile({3, 2}, {0x7fffffff, 1}));       // overflowing dimension
  CHECK_FALSE(tile({2, 2, 2}, {0x7fffffff, 0x7fffffff, 0x7fffffff}));  // overflowing size
}

TEST_CASE("SPLIT: equal parts along a (negative) axis; errors") {
  const Dims in{2, 6, 2};
  for (std::int32_t axis : {1, -2}) {
    KernelNode node;
    node.tensor<kI32>(in, iota_of<std::int32_t>(24));
    node.scalar<OperandType::INT32>(axis);
    node.scalar<OperandType::INT32>(3);
    for (int i = 0; i < 3; ++i) node.output(kI32);
    REQUIRE(node.run(kernels_of<OperationType::SPLIT>()));
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(node.out(i).dims == Dims{2, 2, 2});
      std::vector<std::int32_t> want;
      for (int b = 0; b < 2; ++b)
        for (int j = 0; j < 2; ++j)
          for (int c = 0; c < 2; ++c) want.push_back(b * 12 + (static_cast<int>(i) * 2 + j) * 2 + c);
      CHECK(node.values<kI32>(i) == want);
    }
  }
  auto split = [](std::int32_t axis, std::int32_t n, int outputs) {
    KernelNode node;
    node.tensor<kF32>({4, 6}, iota_of<float>(24));
    node.scalar<OperandType::INT32>(axis);
    node.scalar<OperandType::INT32>(n);
    for (int i = 0; i < outputs; ++i) node.output(kF32);
    return node.run(kernels_of<OperationType::SPLIT>());
  };
  CHECK(split(0, 4, 4));
  CHECK_FALSE(split(1, 4, 4));   // 6 not divisible by 4
  CHECK_FALSE(split(2, 2, 2));   // axis out of range
  CHECK_FALSE(split(0, 2, 3));   // num_splits != outputs
  CHECK_FALSE(split(0, 0, 0));   // not positive
}
