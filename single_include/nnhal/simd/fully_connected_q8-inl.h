// Per-target body of the dot products of nnhal's 8-bit FULLY_CONNECTED kernel: compiled once per
// Highway target by nnhal/simd/fully_connected_q8.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::FullyConnectedQ8 first. Not a header to
// include on its own; it has no include guard on purpose.
//
// x holds the input row plus its offset as int16; each weight byte is widened to int16 and its
// offset added (both in [-255, 255]), and pairs of products are summed into int32 lanes
// (ReorderWidenMulAccumulate: pmaddwd on x86), four units at a time so that each x vector is
// loaded once for four weight rows. Every product and pair sum is exact in int32 and the lanes
// are added with wrap-around at the end, so the result is the reference's int32 (uint32) sum
// bit for bit, in any order. The part of a row past the last full vector is summed by a scalar
// loop (nothing past the row is read).

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace fc_q8_detail {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One lane per vector: no pairs of int16 to multiply-add; the plain loop.
template <class W>
HWY_INLINE void Dot(const std::int16_t* x, const W* w, std::int32_t w_offset, std::size_t depth, std::size_t units,
                    std::int32_t* out) {
  for (std::size_t u = 0; u < units; ++u) {
    std::uint32_t s = 0;
    for (std::size_t k = 0; k < depth; ++k)
      s += static_cast<std::uint32_t>(std::int32_t{x[k]} * (std::int32_t{w[u * depth + k]} + w_offset));
    out[u] = static_cast<std::int32_t>(s);
  }
}
#else
using D32 = hn::ScalableTag<std::int32_t>;
using D16 = hn::Repartition<std::int16_t, D32>;
using V32 = hn::Vec<D32>;

/// The lanes of a and b summed with wrap-around (stored, then added as uint32).
HWY_INLINE std::uint32_t lane_sum(V32 a, V32 b) {
  const D32 d;
  HWY_ALIGN std::int32_t lanes[2 * HWY_MAX_BYTES / sizeof(std::int32_t)];
  const std::size_t n = hn::Lanes(d);
  hn::Store(a, d, lanes);
  hn::Store(b, d, lanes + n);
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < 2 * n; ++i) s += static_cast<std::uint32_t>(lanes[i]);
  return s;
}

/// sum over k in [k0, depth) of x[k] * (w[k] + w_offset), wrapping.
template <class W>
HWY_INLINE std::uint32_t tail(const std::int16_t* x, const W* w, std::int32_t w_offset, std::size_t k0,
                              std::size_t depth) {
  std::uint32_t s = 0;
  for (std::size_t k = k0; k < depth; ++k)
    s += static_cast<std::uint32_t>(std::int32_t{x[k]} * (std::int32_t{w[k]} + w_offset));
  return s;
}

template <class W>
HWY_INLINE void Dot(const std::int16_t* x, const W* w, std::int32_t w_offset, std::size_t depth, std::size_t units,
                    std::int32_t* out) {
  const D32 d32;
  const D16 d16;
  const hn::Rebind<W, D16> d8;  // as many 8-bit lanes as d16 has
  const std::size_t N = hn::Lanes(d16);
  const auto off = hn::Set(d16, static_cast<std::int16_t>(w_offset));
  const auto weights = [&](const W* row, std::size_t k) HWY_ATTR {
    return hn::Add(hn::PromoteTo(d16, hn::LoadU(d8, row + k)), off);
  };
  const std::size_t full = depth - depth % N;
  std::size_t u = 0;
  for (; u + 4 <= units; u += 4) {
    const W* w0 = w + u * depth;
    const W* w1 = w0 + depth;
    const W* w2 = w1 + depth;
    const W* w3 = w2 + depth;
    V32 a0 = hn::Zero(d32), b0 = hn::Zero(d32), a1 = hn::Zero(d32), b1 = hn::Zero(d32);
    V32 a2 = hn::Zero(d32), b2 = hn::Zero(d32), a3 = hn::Zero(d32), b3 = hn::Zero(d32);
    for (std::size_t k = 0; k < full; k += N) {
      const auto xv = hn::LoadU(d16, x + k);
      a0 = hn::ReorderWidenMulAccumulate(d32, xv, weights(w0, k), a0, b0);
      a1 = hn::ReorderWidenMulAccumulate(d32, xv, weights(w1, k), a1, b1);
      a2 = hn::ReorderWidenMulAccumulate(d32, xv, weights(w2, k), a2, b2);
      a3 = hn::ReorderWidenMulAccumulate(d32, xv, weights(w3, k), a3, b3);
    }
    out[u] = static_cast<std::int32_t>(lane_sum(a0, b0) + tail(x, w0, w_offset, full, depth));
    out[u + 1] = static_cast<std::int32_t>(lane_sum(a1, b1) + tail(x, w1, w_offset, full, depth));
    out[u + 2] = static_cast<std::int32_t>(lane_sum(a2, b2) + tail(x, w2, w_offset, full, depth));
    out[u + 3] = static_cast<std::int32_t>(lane_sum(a3, b3) + tail(x, w3, w_offset, full, depth));
  }
  for (; u < units; ++u) {
    const W* wu = w + u * depth;
    V32 a = hn::Zero(d32), b = hn::Zero(d32);
    for (std::size_t k = 0; k < full; k += N) a = hn::ReorderWidenMulAccumulate(d32, hn::LoadU(d16, x + k), weights(wu, k), a, b);
    out[u] = static_cast<std::int32_t>(lane_sum(a, b) + tail(x, wu, w_offset, full, depth));
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace fc_q8_detail

inline void FullyConnectedQ8DotU8(const std::int16_t* x, const std::uint8_t* w, std::int32_t w_offset,
                                  std::size_t depth, std::size_t units, std::int32_t* out) {
  fc_q8_detail::Dot(x, w, w_offset, depth, units, out);
}
inline void FullyConnectedQ8DotS8(const std::int16_t* x, const std::int8_t* w, std::int32_t w_offset,
                                  std::size_t depth, std::size_t units, std::int32_t* out) {
  fc_q8_detail::Dot(x, w, w_offset, depth, units, out);
}

/// This target's table of the family.
inline constexpr simd::FullyConnectedQ8 kFullyConnectedQ8{&FullyConnectedQ8DotU8, &FullyConnectedQ8DotS8};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
