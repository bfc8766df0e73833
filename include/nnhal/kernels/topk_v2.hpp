#pragma once
/// \file
/// TOPK_V2 kernels (the row: nnhal/ops/topk_v2.hpp): shape inference and one kernel per type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/topk_v2.hpp"

namespace nnhal::kernels::topk_v2 {

/// values and indices: the input shape with the last dimension k. Errors: rank 0, k outside
/// (0, last dimension].
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() == 0) return NNHAL_INVALID("input must have rank >= 1");
  const std::int32_t k = io.scalar<OperandType::INT32>(1);
  const std::uint32_t last = in[in.rank() - 1];
  if (k <= 0 || static_cast<std::uint32_t>(k) > last)
    return NNHAL_INVALID("k = %" PRId32 " is outside (0, %" PRIu32 "] (the last dimension)", k,
                         last);
  Dims out = in;
  out[in.rank() - 1] = static_cast<std::uint32_t>(k);
  NNHAL_TRY(set_output(io, 0, out));
  return set_output(io, 1, out);
}

/// The order of the result: larger value first, and for equal values the larger index first
/// (the reference sorts (value, index) pairs ascending and reverses them).
template <class E>
bool before(E a, std::int32_t ia, E b, std::int32_t ib) noexcept {
  const auto wa = widen(a), wb = widen(b);
  return wa > wb || (!(wa < wb) && ia > ib);
}

/// Restores the heap property below position `i` of the min-heap (root = the kept element
/// that comes last in result order) held in the parallel arrays v / idx of n entries.
template <class E>
void sift_down(E* v, std::int32_t* idx, std::size_t n, std::size_t i) noexcept {
  for (;;) {
    std::size_t last = i;
    const std::size_t l = 2 * i + 1, r = l + 1;
    if (l < n && before(v[last], idx[last], v[l], idx[l])) last = l;
    if (r < n && before(v[last], idx[last], v[r], idx[r])) last = r;
    if (last == i) return;
    const E tv = v[i];
    v[i] = v[last];
    v[last] = tv;
    const std::int32_t ti = idx[i];
    idx[i] = idx[last];
    idx[last] = ti;
    i = last;
  }
}

/// Per row: a heap of the k best (value, index) pairs built in the output buffers themselves
/// (no workspace), O(n log k); then heap-sorted in place into result order.
template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  const RtOperand& in = io.input(0);
  const std::int32_t k_in = io.scalar<OperandType::INT32>(1);
  const std::size_t row = in.dims[in.dims.rank() - 1];
  if (k_in <= 0 || static_cast<std::size_t>(k_in) > row)
    return NNHAL_INVALID("k = %" PRId32 " is outside (0, %zu]", k_in, row);
  const auto k = static_cast<std::size_t>(k_in);
  const std::size_t rows = static_cast<std::size_t>(in.dims.element_count()) / row;
  const E* src = io.in_data<T>(0);
  E* values = io.out_data<T>(0);
  std::int32_t* indices = io.out_data<OperandType::TENSOR_INT32>(1);
  for (std::size_t r = 0; r < rows; ++r, src += row, values += k, indices += k) {
    for (std::size_t i = 0; i < k; ++i) {
      values[i] = src[i];
      indices[i] = static_cast<std::int32_t>(i);
    }
    for (std::size_t i = k / 2; i-- > 0;) sift_down(values, indices, k, i);
    for (std::size_t i = k; i < row; ++i) {
      const auto ii = static_cast<std::int32_t>(i);
      if (before(src[i], ii, values[0], indices[0])) {
        values[0] = src[i];
        indices[0] = ii;
        sift_down(values, indices, k, 0);
      }
    }
    // Heap sort: moving the root (the last in result order) to the end leaves result order.
    for (std::size_t n = k; n > 1; --n) {
      const E tv = values[0];
      values[0] = values[n - 1];
      values[n - 1] = tv;
      const std::int32_t ti = indices[0];
      indices[0] = indices[n - 1];
      indices[n - 1] = ti;
      sift_down(values, indices, n - 1, 0);
    }
  }
  return {};
}

/// TOPK_V2's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return topk_v2::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::topk_v2

namespace nnhal {

template <>
struct Kernels<OperationType::TOPK_V2> : kernels::topk_v2::Family {};
static_assert(kernels_cover_row<OperationType::TOPK_V2>());

}  // namespace nnhal
