// Kernels of the 4-D shuffles: BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, and CHANNEL_SHUFFLE. Each is checked in NHWC and NCHW against a per-element
// reference written from the operation's definition, over its element types, and for its
// runtime errors (block sizes that do not divide, bad paddings).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/kernels/batch_to_space_nd.hpp"
#include "nnhal/kernels/channel_shuffle.hpp"
#include "nnhal/kernels/depth_to_space.hpp"
#include "nnhal/kernels/space_to_batch_nd.hpp"
#include "nnhal/kernels/space_to_depth.hpp"
#include "ops/kernel_test_util.hpp"
#include "ops/shape_test_util.hpp"

using nnhal::Dims;
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

/// A 4-D tensor addressed as (n, h, w, c) whatever its layout.
struct Nhwc {
  std::uint32_t n, h, w, c;
  bool nchw;
  Dims dims() const { return nchw ? Dims{n, c, h, w} : Dims{n, h, w, c}; }
  std::size_t at(std::uint32_t b, std::uint32_t y, std::uint32_t x, std::uint32_t ch) const {
    return nchw ? ((std::size_t{b} * c + ch) * h + y) * w + x : ((std::size_t{b} * h + y) * w + x) * c + ch;
  }
  std::size_t size() const { return std::size_t{n} * h * w * c; }
};

template <OperandType T>
struct Run {
  KernelNode node;
  std::vector<nnhal::element_t<T>> data;
};

}  // namespace

TEST_CASE_TEMPLATE("DEPTH_TO_SPACE and SPACE_TO_DEPTH match the definition, NHWC and NCHW", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  for (bool nchw : {false, true}) {
    const std::uint32_t bs = 2;
    const Nhwc deep{2, 2, 3, 3 * bs * bs, nchw}, wide{2, 2 * bs, 3 * bs, 3, nchw};
    const auto data = iota_of<E>(deep.size());
    KernelNode d2s;
    d2s.tensor<T>(deep.dims(), data, 0.5f, 2);
    d2s.scalar<OperandType::INT32>(static_cast<std::int32_t>(bs));
    d2s.scalar<OperandType::BOOL>(nchw ? 1 : 0);
    d2s.output(T, 0.5f, 2);
    REQUIRE(d2s.run(kernels_of<OperationType::DEPTH_TO_SPACE>()));
    REQUIRE(d2s.out(0).dims == wide.dims());
    std::vector<E> want(wide.size());
    for (std::uint32_t b = 0; b < wide.n; ++b)
      for (std::uint32_t y = 0; y < wide.h; ++y)
        for (std::uint32_t x = 0; x < wide.w; ++x)
          for (std::uint32_t c = 0; c < wide.c; ++c)
            want[wide.at(b, y, x, c)] = data[deep.at(b, y / bs, x / bs, ((y % bs) * bs + x % bs) * wide.c + c)];
    CHECK(same(d2s.values<T>(0), want));

    // SPACE_TO_DEPTH undoes it.
    KernelNode s2d;
    s2d.tensor<T>(wide.dims(), want, 0.5f, 2);
    s2d.scalar<OperandType::INT32>(static_cast<std::int32_t>(bs));
    s2d.scalar<OperandType::BOOL>(nchw ? 1 : 0);
    s2d.output(T, 0.5f, 2);
    REQUIRE(s2d.run(kernels_of<OperationType::SPACE_TO_DEPTH>()));
    CHECK(s2d.out(0).dims == deep.dims());
    CHECK(same(s2d.values<T>(0), data));
  }
}

TEST_CASE("DEPTH_TO_SPACE / SPACE_TO_DEPTH without the layout input, and their errors") {
  auto run = [](OperationType op, const Dims& in, std::int32_t bs) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));
    node.scalar<OperandType::INT32>(bs);
    node.output(OperandType::TENSOR_FLOAT32);
    return node.run(op == OperationType::DEPTH_TO_SPACE ? kernels_of<OperationType::DEPTH_TO_SPACE>()
                                                        : kernels_of<OperationType::SPACE_TO_DEPTH>());
  };
  CHECK(run(OperationType::DEPTH_TO_SPACE, {1, 1, 1, 8}, 2));
  CHECK_FALSE(run(OperationType::DEPTH_TO_SPACE, {1, 1, 1, 6}, 2));   // 6 not divisible by 4
  CHECK_FALSE(run(OperationType::DEPTH_TO_SPACE, {1, 1, 1, 4}, 0));   // block size 0
  CHECK_FALSE(run(OperationType::DEPTH_TO_SPACE, {1, 1, 1, 4}, -2));  // negative
  CHECK_FALSE(run(OperationType::DEPTH_TO_SPACE, {1, 1, 4}, 2));      // rank 3
  CHECK_FALSE(run(OperationType::DEPTH_TO_SPACE, {1, 0x20000, 1, 0}, 0x10000));  // height overflows
  CHECK(run(OperationType::SPACE_TO_DEPTH, {1, 4, 2, 1}, 2));
  CHECK_FALSE(run(OperationType::SPACE_TO_DEPTH, {1, 3, 2, 1}, 2));   // height 3
  CHECK_FALSE(run(OperationType::SPACE_TO_DEPTH, {1, 2, 2, 1}, 0));
}

TEST_CASE_TEMPLATE("SPACE_TO_BATCH_ND pads with the logical zero and BATCH_TO_SPACE_ND inverts it", Tag,
                   TypeTag<OperandType::TENSOR_FLOAT32>, TypeTag<OperandType::TENSOR_FLOAT16>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const std::int32_t zp = nnhal::is_quantized(T) ? 5 : 0;
  for (bool nchw : {false, true}) {
    const std::uint32_t bh = 2, bw = 3, top = 1, bottom = 0, left = 2, right = 1;
    const Nhwc in{2, 3, 3, 2, nchw};
    const std::uint32_t ph = in.h + top + bottom, pw = in.w + left + right;
    const Nhwc out{in.n * bh * bw, ph / bh, pw / bw, in.c, nchw};
    const auto data = iota_of<E>(in.size(), 10);
    KernelNode node;
    node.tensor<T>(in.dims(), data, 0.5f, zp);
    node.tensor<kI32>({2}, {static_cast<std::int32_t>(bh), static_cast<std::int32_t>(bw)});
    node.tensor<kI32>({2, 2}, {1, 0, 2, 1});
    node.scalar<OperandType::BOOL>(nchw ? 1 : 0);
    node.output(T, 0.5f, zp);
    REQUIRE(node.run(kernels_of<OperationType::SPACE_TO_BATCH_ND>()));
    REQUIRE(node.out(0).dims == out.dims());
    E zero{};
    if constexpr (nnhal::is_quantized(T)) zero = static_cast<E>(zp);
    std::vector<E> want(out.size(), zero);
    for (std::uint32_t ob = 0; ob < out.n; ++ob)
      for (std::uint32_t y = 0; y < out.h; ++y)
        for (std::uint32_t x = 0; x < out.w; ++x)
          for (std::uint32_t c = 0; c < out.c; ++c) {
            const std::uint32_t b = ob % in.n, shift = ob / in.n;
            const std::int64_t iy = std::int64_t{y} * bh + shift / bw - top;
            const std::int64_t ix = std::int64_t{x} * bw + shift % bw - left;
            if (iy >= 0 && iy < in.h && ix >= 0 && ix < in.w)
              want[out.at(ob, y, x, c)] = data[in.at(b, static_cast<std::uint32_t>(iy), static_cast<std::uint32_t>(ix), c)];
          }
    CHECK(same(node.values<T>(0), want));

    // BATCH_TO_SPACE_ND gives back the padded image.
    KernelNode back;
    back.tensor<T>(out.dims(), want, 0.5f, zp);
    back.tensor<kI32>({2}, {static_cast<std::int32_t>(bh), static_cast<std::int32_t>(bw)});
    back.scalar<OperandType::BOOL>(nchw ? 1 : 0);
    back.output(T, 0.5f, zp);
    REQUIRE(back.run(kernels_of<OperationType::BATCH_TO_SPACE_ND>()));
    const Nhwc padded{in.n, ph, pw, in.c, nchw};
    REQUIRE(back.out(0).dims == padded.dims());
    std::vector<E> want_back(padded.size(), zero);
    for (std::uint32_t b = 0; b < in.n; ++b)
      for (std::uint32_t y = 0; y < in.h; ++y)
        for (std::uint32_t x = 0; x < in.w; ++x)
          for (std::uint32_t c = 0; c < in.c; ++c)
            want_back[padded.at(b, y + top, x + left, c)] = data[in.at(b, y, x, c)];
    CHECK(same(back.values<T>(0), want_back));
  }
}

TEST_CASE("SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND runtime errors") {
  auto s2b = [](const std::vector<std::int32_t>& block, const std::vector<std::int32_t>& pads,
                const Dims& block_dims = Dims{2}, const Dims& pad_dims = Dims{2, 2}) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({1, 4, 4, 1}, iota_of<float>(16));
    node.tensor<kI32>(block_dims, block);
    node.tensor<kI32>(pad_dims, pads);
    node.output(OperandType::TENSOR_FLOAT32);
    return node.run(kernels_of<OperationType::SPACE_TO_BATCH_ND>());
  };
  CHECK(s2b({2, 2}, {0, 0, 0, 0}));
  CHECK(s2b({3, 3}, {1, 1, 2, 0}));
  CHECK_FALSE(s2b({3, 2}, {0, 0, 0, 0}));            // 4 not divisible by 3
  CHECK_FALSE(s2b({0, 2}, {0, 0, 0, 0}));            // block 0
  CHECK_FALSE(s2b({2, 2}, {-1, 1, 0, 0}));           // negative padding
  CHECK_FALSE(s2b({2, 2, 1}, {0, 0, 0, 0}, {3}));    // block_shape of 3 entries
  CHECK_FALSE(s2b({2, 2}, {0, 0, 0, 0}, {2}, {4}));  // paddings not [2, 2]
  CHECK_FALSE(s2b({1, 1}, {0x7ffffffb, 0, 0x7ffffffb, 0}));  // output size overflows

  auto b2s = [](const Dims& in, const std::vector<std::int32_t>& block) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));
    node.tensor<kI32>({static_cast<std::uint32_t>(block.size())}, block);
    node.output(OperandType::TENSOR_FLOAT32);
    return node.run(kernels_of<OperationType::BATCH_TO_SPACE_ND>());
  };
  CHECK(b2s({4, 1, 1, 1}, {2, 2}));
  CHECK_FALSE(b2s({6, 1, 1, 1}, {2, 2}));  // batch 6 not divisible by 4
  CHECK_FALSE(b2s({4, 1, 1, 1}, {2, 0}));
  CHECK_FALSE(b2s({4, 1, 1, 1}, {4}));
  CHECK_FALSE(b2s({4, 1, 1}, {2, 2}));     // rank 3
}

TEST_CASE_TEMPLATE("CHANNEL_SHUFFLE transposes the groups of any axis", Tag, TypeTag<OperandType::TENSOR_FLOAT32>,
                   TypeTag<OperandType::TENSOR_FLOAT16>, TypeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   TypeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  const Dims in{2, 6, 3};
  const auto data = iota_of<E>(36);
  for (std::int32_t axis : {0, 1, 2, -2}) {
    for (std::int32_t groups : {1, 2, 3}) {
      const std::size_t a = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
      if (in[a] % static_cast<std::uint32_t>(groups) != 0) continue;
      KernelNode node;
      node.tensor<T>(in, data, 1.0f, 0);
      node.scalar<OperandType::INT32>(groups);
      node.scalar<OperandType::INT32>(axis);
      node.output(T, 1.0f, 0);
      REQUIRE(node.run(kernels_of<OperationType::CHANNEL_SHUFFLE>()));
      CHECK(node.out(0).dims == in);
      const std::uint32_t size = in[a] / static_cast<std::uint32_t>(groups);
      std::vector<E> want(36);
      for (std::size_t f = 0; f < 36; ++f) {
        auto idx = unflatten(f, in);  // output index; out[k * groups + g] = in[g * size + k]
        const std::uint32_t k = idx[a] / static_cast<std::uint32_t>(groups), g = idx[a] % static_cast<std::uint32_t>(groups);
        idx[a] = g * size + k;
        want[f] = data[flatten(idx, in)];
      }
      CHECK(same(node.values<T>(0), want));
    }
  }
}

TEST_CASE("CHANNEL_SHUFFLE runtime errors") {
  auto run = [](std::int32_t groups, std::int32_t axis, const Dims& in = Dims{2, 6}) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(in, iota_of<float>(static_cast<std::size_t>(in.element_count())));
    node.scalar<OperandType::INT32>(groups);
    node.scalar<OperandType::INT32>(axis);
    node.output(OperandType::TENSOR_FLOAT32);
    return node.run(kernels_of<OperationType::CHANNEL_SHUFFLE>());
  };
  CHECK(run(3, 1));
  CHECK_FALSE(run(4, 1));   // 6 not divisible by 4
  CHECK_FALSE(run(0, 1));   // no groups
  CHECK_FALSE(run(-2, 1));
  CHECK_FALSE(run(2, 2));   // axis out of range
  CHECK_FALSE(run(2, -3));
  CHECK_FALSE(run(1, 0, Dims{1, 1, 1, 1, 2}));  // rank 5
}
