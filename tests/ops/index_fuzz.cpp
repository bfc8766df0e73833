// Fuzz-style test of the index-driven kernels (GATHER, EMBEDDING_LOOKUP, STRIDED_SLICE, PAD):
// random shapes, axes, indices, slice bounds and paddings from a fixed seed, some of them out of
// range on purpose. Valid cases must match the per-element references, invalid ones must fail
// with INVALID_ARGUMENT; every output buffer is sized exactly, so under the sanitizer build any
// out-of-bounds read or write is reported.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nnhal/kernels/embedding_lookup.hpp"
#include "nnhal/kernels/gather.hpp"
#include "nnhal/kernels/pad.hpp"
#include "nnhal/kernels/strided_slice.hpp"
#include "ops/kernel_test_util.hpp"
#include "ops/shape_test_util.hpp"

using nnhal::Dims;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::flatten;
using nnhal::test::iota_of;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;
using nnhal::test::Rng;
using nnhal::test::slice_positions;
using nnhal::test::unflatten;

namespace {

constexpr OperandType kI32 = OperandType::TENSOR_INT32;
constexpr OperandType kQA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr int kRounds = 400;

/// The run failed with INVALID_ARGUMENT.
void check_invalid(const nnhal::Status& s) {
  REQUIRE_FALSE(s);
  CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
}

}  // namespace

TEST_CASE("index fuzz: GATHER") {
  Rng rng(0x6a7e);
  for (int round = 0; round < kRounds; ++round) {
    const auto rank = static_cast<std::size_t>(rng.uniform(1, 4));
    const Dims in = rng.shape(rank, 1, 4);
    const int r = static_cast<int>(rank);
    const std::int32_t axis = rng.uniform(-r - 1, r);  // sometimes out of range
    const Dims idx_dims = rng.shape(static_cast<std::size_t>(rng.uniform(0, 2)), 0, 3);
    const bool axis_ok = axis >= -r && axis < r;
    const std::size_t a = axis_ok ? static_cast<std::size_t>(axis < 0 ? axis + r : axis) : 0;
    std::vector<std::int32_t> idx;
    bool idx_ok = true;
    for (std::size_t i = 0; i < idx_dims.element_count(); ++i) {
      const int hi = static_cast<int>(in[a]);
      idx.push_back(rng.uniform(0, 19) == 0 ? rng.uniform(0, 1) == 0 ? -1 : hi : rng.uniform(0, hi - 1));
      idx_ok = idx_ok && idx.back() >= 0 && idx.back() < hi;
    }
    const auto data = iota_of<std::int32_t>(static_cast<std::size_t>(in.element_count()));
    KernelNode node;
    node.tensor<kI32>(in, data);
    node.scalar<OperandType::INT32>(axis);
    node.tensor<kI32>(idx_dims, idx);
    node.output(kI32);
    const auto s = node.run(kernels_of<OperationType::GATHER>());
    if (!axis_ok || !idx_ok) {
      check_invalid(s);
      continue;
    }
    REQUIRE(s);
    const Dims& out = node.out(0).dims;
    REQUIRE(out.rank() == rank - 1 + idx_dims.rank());
    std::vector<std::int32_t> want;
    for (std::size_t f = 0; f < out.element_count(); ++f) {
      const auto o = unflatten(f, out);
      std::vector<std::uint32_t> ii(rank), io(idx_dims.rank());
      for (std::size_t k = 0; k < a; ++k) ii[k] = o[k];
      for (std::size_t k = 0; k < idx_dims.rank(); ++k) io[k] = o[a + k];
      ii[a] = static_cast<std::uint32_t>(idx[flatten(io, idx_dims)]);
      for (std::size_t k = a + 1; k < rank; ++k) ii[k] = o[k - 1 + idx_dims.rank()];
      want.push_back(data[flatten(ii, in)]);
    }
    CHECK(node.values<kI32>(0) == want);
  }
}

TEST_CASE("index fuzz: EMBEDDING_LOOKUP") {
  Rng rng(0xe3b);
  for (int round = 0; round < kRounds; ++round) {
    const Dims values = rng.shape(static_cast<std::size_t>(rng.uniform(2, 4)), 1, 4);
    const auto n = static_cast<std::uint32_t>(rng.uniform(0, 5));
    std::vector<std::int32_t> lookups;
    bool ok = true;
    for (std::uint32_t i = 0; i < n; ++i) {
      const int rows = static_cast<int>(values[0]);
      lookups.push_back(rng.uniform(0, 9) == 0 ? rng.uniform(0, 1) == 0 ? -1 - rng.uniform(0, 5) : rows + rng.uniform(0, 5)
                                               : rng.uniform(0, rows - 1));
      ok = ok && lookups.back() >= 0 && lookups.back() < rows;
    }
    const auto data = iota_of<std::uint8_t>(static_cast<std::size_t>(values.element_count()));
    KernelNode node;
    node.tensor<kI32>({n}, lookups);
    node.tensor<kQA8>(values, data, 0.5f, 128);
    node.output(kQA8, 0.5f, 128);
    const auto s = node.run(kernels_of<OperationType::EMBEDDING_LOOKUP>());
    if (!ok) {
      check_invalid(s);
      continue;
    }
    REQUIRE(s);
    const std::size_t row = static_cast<std::size_t>(values.element_count()) / values[0];
    std::vector<std::uint8_t> want;
    for (std::int32_t l : lookups)
      for (std::size_t j = 0; j < row; ++j) want.push_back(data[static_cast<std::size_t>(l) * row + j]);
    CHECK(node.values<kQA8>(0) == want);
  }
}

TEST_CASE("index fuzz: STRIDED_SLICE") {
  Rng rng(0x5111ce);
  for (int round = 0; round < kRounds; ++round) {
    const auto rank = static_cast<std::size_t>(rng.uniform(1, 4));
    const Dims in = rng.shape(rank, 1, 5);
    std::vector<std::int32_t> begin, end, strides;
    const std::int32_t begin_mask = rng.uniform(0, 15), end_mask = rng.uniform(0, 15), shrink = rng.uniform(0, 15) &
                                                                                                rng.uniform(0, 15);
    bool ok = true;
    std::vector<std::vector<std::int64_t>> pos;
    Dims want_dims;
    for (std::size_t k = 0; k < rank; ++k) {
      const int d = static_cast<int>(in[k]);
      begin.push_back(rng.uniform(-2 * d - 1, 2 * d + 1));
      end.push_back(rng.uniform(-2 * d - 1, 2 * d + 1));
      strides.push_back(rng.uniform(0, 29) == 0 ? 0 : (rng.uniform(0, 1) == 0 ? 1 : -1) * rng.uniform(1, 3));
      if (strides.back() == 0) {
        ok = false;
        pos.emplace_back();
        continue;
      }
      pos.push_back(slice_positions(d, begin.back(), end.back(), strides.back(), (begin_mask >> k) & 1,
                                    (end_mask >> k) & 1));
      if ((shrink >> k) & 1) {
        ok = ok && strides.back() > 0 && pos.back().size() == 1;
      } else {
        want_dims.push_back(static_cast<std::uint32_t>(pos.back().size()));
      }
    }
    if (want_dims.rank() == 0) want_dims.push_back(1);
    const auto data = iota_of<float>(static_cast<std::size_t>(in.element_count()));  // no I32 kernel
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(in, data);
    node.tensor<kI32>({static_cast<std::uint32_t>(rank)}, begin);
    node.tensor<kI32>({static_cast<std::uint32_t>(rank)}, end);
    node.tensor<kI32>({static_cast<std::uint32_t>(rank)}, strides);
    node.scalar<OperandType::INT32>(begin_mask);
    node.scalar<OperandType::INT32>(end_mask);
    node.scalar<OperandType::INT32>(shrink);
    node.output(OperandType::TENSOR_FLOAT32);
    const auto s = node.run(kernels_of<OperationType::STRIDED_SLICE>());
    if (!ok) {
      check_invalid(s);
      continue;
    }
    REQUIRE_MESSAGE(s, std::string(s ? "" : s.error().c_str()));
    REQUIRE(node.out(0).dims == want_dims);
    Dims counts;
    for (const auto& p : pos) counts.push_back(static_cast<std::uint32_t>(p.size()));
    std::vector<float> want;
    for (std::size_t f = 0; f < counts.element_count(); ++f) {
      const auto c = unflatten(f, counts);
      std::vector<std::uint32_t> ii(rank);
      for (std::size_t k = 0; k < rank; ++k) ii[k] = static_cast<std::uint32_t>(pos[k][c[k]]);
      want.push_back(data[flatten(ii, in)]);
    }
    CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == want);
  }
}

TEST_CASE("index fuzz: PAD") {
  Rng rng(0xbad);
  for (int round = 0; round < kRounds; ++round) {
    const auto rank = static_cast<std::size_t>(rng.uniform(1, 4));
    const Dims in = rng.shape(rank, 1, 4);
    std::vector<std::int32_t> pads;
    bool ok = true;
    Dims want_dims;
    for (std::size_t k = 0; k < rank; ++k) {
      pads.push_back(rng.uniform(0, 14) == 0 ? -1 : rng.uniform(0, 3));
      pads.push_back(rng.uniform(0, 14) == 0 ? -1 : rng.uniform(0, 3));
      ok = ok && pads[2 * k] >= 0 && pads[2 * k + 1] >= 0;
      want_dims.push_back(in[k] + static_cast<std::uint32_t>(pads[2 * k] + pads[2 * k + 1]));
    }
    const auto data = iota_of<std::uint8_t>(static_cast<std::size_t>(in.element_count()), 1);
    KernelNode node;
    node.tensor<kQA8>(in, data, 0.25f, 200);
    node.tensor<kI32>({static_cast<std::uint32_t>(rank), 2}, pads);
    node.output(kQA8, 0.25f, 200);
    const auto s = node.run(kernels_of<OperationType::PAD>());
    if (!ok) {
      check_invalid(s);
      continue;
    }
    REQUIRE(s);
    REQUIRE(node.out(0).dims == want_dims);
    std::vector<std::uint8_t> want(static_cast<std::size_t>(want_dims.element_count()), 200);
    for (std::size_t f = 0; f < data.size(); ++f) {
      auto ii = unflatten(f, in);
      for (std::size_t k = 0; k < rank; ++k) ii[k] += static_cast<std::uint32_t>(pads[2 * k]);
      want[flatten(ii, want_dims)] = data[f];
    }
    CHECK(node.values<kQA8>(0) == want);
  }
}
