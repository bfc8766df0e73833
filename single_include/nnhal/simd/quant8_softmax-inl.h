// Per-target body of nnhal's quantized SOFTMAX row helpers: compiled once per Highway target by
// nnhal/simd/quant8_softmax.hpp (through nnhal/simd/foreach_target-inl.h), which declares
// simd::Quant8Softmax first. Not a header to include on its own; it has no include guard on
// purpose.
//
// The row's minimum and maximum: vector Min / Max over whole vectors of bytes, the lanes then
// reduced through a stored copy, the last n % N bytes read one by one (nothing past n is read).
// Exact by construction (min and max only).

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace quant8_softmax_detail {
namespace hn = hwy::HWY_NAMESPACE;

template <class E>
HWY_INLINE void MinMax(const E* x, std::size_t n, std::int32_t* min_out, std::int32_t* max_out) {
  const hn::ScalableTag<E> d;
  const std::size_t N = hn::Lanes(d);
  std::int32_t lo = x[0], hi = x[0];
  std::size_t i = 0;
  if (n >= N) {
    auto vmin = hn::LoadU(d, x), vmax = vmin;
    for (i = N; i + N <= n; i += N) {
      const auto v = hn::LoadU(d, x + i);
      vmin = hn::Min(vmin, v);
      vmax = hn::Max(vmax, v);
    }
    HWY_ALIGN E lanes[HWY_MAX_BYTES];
    hn::Store(vmin, d, lanes);
    for (std::size_t k = 0; k < N; ++k) lo = lanes[k] < lo ? lanes[k] : lo;
    hn::Store(vmax, d, lanes);
    for (std::size_t k = 0; k < N; ++k) hi = lanes[k] > hi ? lanes[k] : hi;
  }
  for (; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  *min_out = lo;
  *max_out = hi;
}

}  // namespace quant8_softmax_detail

inline void Quant8RowMinMaxU8(const std::uint8_t* x, std::size_t n, std::int32_t* min, std::int32_t* max) {
  quant8_softmax_detail::MinMax(x, n, min, max);
}
inline void Quant8RowMinMaxI8(const std::int8_t* x, std::size_t n, std::int32_t* min, std::int32_t* max) {
  quant8_softmax_detail::MinMax(x, n, min, max);
}

/// This target's table of the family.
inline constexpr simd::Quant8Softmax kQuant8Softmax{&Quant8RowMinMaxU8, &Quant8RowMinMaxI8};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
