#pragma once
/// \file
/// NumPy-style broadcasting of two shapes (right-aligned; per axis equal, or one of them 1; a 0
/// pairs with 0 or 1 and yields 0) and an element walk over the broadcast result.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"

namespace nnhal {

/// Shape of broadcasting `a` with `b`, or INVALID_ARGUMENT naming the conflicting axis.
inline Expected<Dims> broadcast_shape(const Dims& a, const Dims& b) noexcept {
  const std::size_t rank = a.rank() > b.rank() ? a.rank() : b.rank();
  Dims out;
  out.resize(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::uint32_t da = i < rank - a.rank() ? 1 : a[i - (rank - a.rank())];
    const std::uint32_t db = i < rank - b.rank() ? 1 : b[i - (rank - b.rank())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return NNHAL_INVALID(
          "shapes cannot be broadcast: axis %zu has sizes %" PRIu32 " and %" PRIu32, i, da, db);
    }
  }
  return out;
}

/// Calls `f(out_index, a_index, b_index)` for every element of `out`, where `out` is the
/// broadcast of `a` and `b`. Same shapes and scalar operands take a flat loop.
template <class F>
void broadcast_for_each(const Dims& out, const Dims& a, const Dims& b, F&& f) {
  const std::size_t n = static_cast<std::size_t>(out.element_count());
  if (n == 0) return;
  const std::size_t na = static_cast<std::size_t>(a.element_count());
  const std::size_t nb = static_cast<std::size_t>(b.element_count());
  if (na == n && nb == n) {
    for (std::size_t i = 0; i < n; ++i) f(i, i, i);
    return;
  }
  if (na == n && nb == 1) {
    for (std::size_t i = 0; i < n; ++i) f(i, i, std::size_t{0});
    return;
  }
  if (na == 1 && nb == n) {
    for (std::size_t i = 0; i < n; ++i) f(i, std::size_t{0}, i);
    return;
  }
  const std::size_t rank = out.rank();
  std::array<std::size_t, kMaxRank> sa{}, sb{}, idx{};
  std::size_t stride_a = 1, stride_b = 1;
  for (std::size_t k = rank; k-- > 0;) {
    const std::size_t ka = k + a.rank() - rank;  // wraps (and is unused) when k < rank - a.rank
    const std::size_t kb = k + b.rank() - rank;
    const std::uint32_t da = k < rank - a.rank() ? 1 : a[ka];
    const std::uint32_t db = k < rank - b.rank() ? 1 : b[kb];
    sa[k] = da == 1 ? 0 : stride_a;
    sb[k] = db == 1 ? 0 : stride_b;
    stride_a *= da;
    stride_b *= db;
  }
  const std::size_t inner = out[rank - 1];
  const std::size_t ia_step = sa[rank - 1], ib_step = sb[rank - 1];
  std::size_t ia = 0, ib = 0;
  for (std::size_t o = 0; o < n; o += inner) {
    for (std::size_t j = 0; j < inner; ++j) f(o + j, ia + j * ia_step, ib + j * ib_step);
    // advance the outer index (all axes but the last) with carry
    for (std::size_t k = rank - 1; k-- > 0;) {
      ++idx[k];
      ia += sa[k];
      ib += sb[k];
      if (idx[k] < out[k]) break;
      ia -= sa[k] * idx[k];
      ib -= sb[k] * idx[k];
      idx[k] = 0;
    }
  }
}

}  // namespace nnhal
