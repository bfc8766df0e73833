// Per-target body of nnhal's NHWC pooling: compiled once per Highway target by
// nnhal/simd/pool.hpp (through nnhal/simd/foreach_target-inl.h), which declares simd::Pool and
// simd::PoolArgs first. Not a header to include on its own; it has no include guard on purpose.
//
// For each output pixel the channels are taken a vector at a time; each vector of
// accumulators walks the pixel's clipped window row by row, as the plain kernel does for one
// channel, so every lane sees the same operations in the same order as the plain kernel:
// - float max: `v > acc ? v : acc` from the lowest float (NaN never replaces the accumulator);
//   average: the sum divided once by the count (Div is correctly rounded, as `/` is);
//   activation clamp `x < lo ? lo : (x > hi ? hi : x)`. These are bit for bit the plain
//   kernel's results. L2 adds the squares with separate multiply and add; the plain kernel's
//   `acc += v * v` may be contracted into a fused multiply-add by the compiler, so the two can
//   differ by the rounding of the products (a few ulp at most).
// - 8-bit max: exact, in full 8-bit vectors.
// - 8-bit average: the window sum in 32-bit lanes (widened from a quarter vector of bytes),
//   t = sum + count / 2 (sum > 0) or sum - count / 2, then trunc(t / count). The quotient is
//   formed in float: with |t| + count < 2^24, float(t) is exact and the correctly rounded
//   quotient never crosses an integer (the distance from t / count to the next integer,
//   at least 1 / count, exceeds half an ulp of that integer), so truncating it gives the exact
//   integer quotient. Windows of more than kMaxFloatCount elements (where that bound could
//   fail) take a 64-bit scalar loop.
// Channel tails shorter than a vector go through zero-filled copies on the stack (Highway 1.0's
// masked loads and stores touch whole vectors on some targets): nothing outside the input or
// output is read or written.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace pool_detail {
namespace hn = hwy::HWY_NAMESPACE;

/// Windows up to this many elements take the float quotient of the 8-bit average (see above).
inline constexpr std::int64_t kMaxFloatCount = 65000;

/// The clipped window of one output pixel: input rows [y0, y1), columns [x0, x1).
struct Window {
  std::int64_t y0, y1, x0, x1;
};

HWY_INLINE Window WindowOf(const simd::PoolArgs& a, std::int64_t oy, std::int64_t ox) {
  const std::int64_t ys = oy * a.stride_h - a.pad_top, xs = ox * a.stride_w - a.pad_left;
  const auto h = static_cast<std::int64_t>(a.in_h), w = static_cast<std::int64_t>(a.in_w);
  Window r;
  r.y0 = ys < 0 ? 0 : ys;
  r.x0 = xs < 0 ? 0 : xs;
  r.y1 = ys + a.filter_h < h ? ys + a.filter_h : h;
  r.x1 = xs + a.filter_w < w ? xs + a.filter_w : w;
  if (r.y1 < r.y0) r.y1 = r.y0;
  if (r.x1 < r.x0) r.x1 = r.x0;
  return r;
}

/// `n` (<= Lanes(d)) elements at p, the other lanes zero.
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadN(D d, const T* p, std::size_t n) {
  if (n == hn::Lanes(d)) return hn::LoadU(d, p);
  HWY_ALIGN T tmp[HWY_MAX_BYTES / sizeof(T)] = {};
  std::memcpy(tmp, p, n * sizeof(T));
  return hn::Load(d, tmp);
}

/// Stores the first `n` (<= Lanes(d)) lanes of v at p.
template <class D, class T>
HWY_INLINE void StoreN(hn::Vec<D> v, D d, T* p, std::size_t n) {
  if (n == hn::Lanes(d)) return hn::StoreU(v, d, p);
  HWY_ALIGN T tmp[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(v, d, tmp);
  std::memcpy(p, tmp, n * sizeof(T));
}

/// x < lo ? lo : (x > hi ? hi : x), lane-wise (the plain kernels' clamp, also for NaN).
template <class V>
HWY_INLINE V ClampLanes(V x, V lo, V hi) {
  return hn::IfThenElse(hn::Lt(x, lo), lo, hn::IfThenElse(hn::Gt(x, hi), hi, x));
}

enum Op { kMax, kAvg, kL2 };

/// One float pool over every output pixel of a.
template <int kOp>
HWY_INLINE void PoolF32(const simd::PoolArgs& a, const float* in, float* out, float lo, float hi) {
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d), C = a.channels, row = a.in_w * C;
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  const auto init = kOp == kMax ? hn::Set(d, std::numeric_limits<float>::lowest()) : hn::Zero(d);
  float* o = out;
  for (std::size_t b = 0; b < a.batches; ++b) {
    const float* image = in + b * a.in_h * row;
    for (std::size_t oy = 0; oy < a.out_h; ++oy) {
      for (std::size_t ox = 0; ox < a.out_w; ++ox, o += C) {
        const Window w = WindowOf(a, static_cast<std::int64_t>(oy), static_cast<std::int64_t>(ox));
        const auto count = hn::Set(d, static_cast<float>((w.y1 - w.y0) * (w.x1 - w.x0)));
        const std::size_t rows = static_cast<std::size_t>(w.y1 - w.y0), cols = static_cast<std::size_t>(w.x1 - w.x0);
        const float* base = image + static_cast<std::size_t>(w.y0) * row + static_cast<std::size_t>(w.x0) * C;
        for (std::size_t c = 0; c < C; c += N) {
          const std::size_t n = C - c < N ? C - c : N;
          auto acc = init;
          for (std::size_t r = 0; r < rows; ++r) {
            const float* p = base + r * row + c;
            for (std::size_t k = 0; k < cols; ++k, p += C) {
              const auto v = LoadN(d, p, n);
              if constexpr (kOp == kMax) {
                acc = hn::IfThenElse(hn::Gt(v, acc), v, acc);
              } else if constexpr (kOp == kAvg) {
                acc = hn::Add(acc, v);
              } else {
                acc = hn::Add(acc, hn::Mul(v, v));
              }
            }
          }
          if constexpr (kOp == kAvg) acc = hn::Div(acc, count);
          if constexpr (kOp == kL2) acc = hn::Sqrt(hn::Div(acc, count));
          StoreN(ClampLanes(acc, vlo, vhi), d, o + c, n);
        }
      }
    }
  }
}

/// 8-bit max over every output pixel of a.
template <class T>
HWY_INLINE void MaxQ8(const simd::PoolArgs& a, const T* in, T* out, std::int32_t lo, std::int32_t hi) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d), C = a.channels, row = a.in_w * C;
  const auto vlo = hn::Set(d, static_cast<T>(lo)), vhi = hn::Set(d, static_cast<T>(hi));
  const auto init = hn::Set(d, std::numeric_limits<T>::lowest());
  T* o = out;
  for (std::size_t b = 0; b < a.batches; ++b) {
    const T* image = in + b * a.in_h * row;
    for (std::size_t oy = 0; oy < a.out_h; ++oy) {
      for (std::size_t ox = 0; ox < a.out_w; ++ox, o += C) {
        const Window w = WindowOf(a, static_cast<std::int64_t>(oy), static_cast<std::int64_t>(ox));
        const std::size_t rows = static_cast<std::size_t>(w.y1 - w.y0), cols = static_cast<std::size_t>(w.x1 - w.x0);
        const T* base = image + static_cast<std::size_t>(w.y0) * row + static_cast<std::size_t>(w.x0) * C;
        for (std::size_t c = 0; c < C; c += N) {
          const std::size_t n = C - c < N ? C - c : N;
          auto acc = init;
          for (std::size_t r = 0; r < rows; ++r) {
            const T* p = base + r * row + c;
            for (std::size_t k = 0; k < cols; ++k, p += C) acc = hn::Max(acc, LoadN(d, p, n));
          }
          StoreN(ClampLanes(acc, vlo, vhi), d, o + c, n);
        }
      }
    }
  }
}

/// The plain 64-bit average of one pixel's channels, for windows too large for the float
/// quotient.
template <class T>
HWY_NOINLINE void AvgQ8Wide(const T* base, std::size_t rows, std::size_t cols, std::size_t row, std::size_t C,
                            T* o, std::int32_t lo, std::int32_t hi) {
  const auto count = static_cast<std::int64_t>(rows * cols);
  for (std::size_t c = 0; c < C; ++c) {
    std::int64_t sum = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t k = 0; k < cols; ++k) sum += base[r * row + k * C + c];
    std::int64_t q = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
    q = q < lo ? lo : (q > hi ? hi : q);
    o[c] = static_cast<T>(q);
  }
}

/// 8-bit average over every output pixel of a.
template <class T>
HWY_INLINE void AvgQ8(const simd::PoolArgs& a, const T* in, T* out, std::int32_t lo, std::int32_t hi) {
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<T, decltype(d32)> d8;
  const hn::Rebind<float, decltype(d32)> df;
  const std::size_t N = hn::Lanes(d32), C = a.channels, row = a.in_w * C;
  const auto vlo = hn::Set(d32, lo), vhi = hn::Set(d32, hi), zero = hn::Zero(d32);
  T* o = out;
  for (std::size_t b = 0; b < a.batches; ++b) {
    const T* image = in + b * a.in_h * row;
    for (std::size_t oy = 0; oy < a.out_h; ++oy) {
      for (std::size_t ox = 0; ox < a.out_w; ++ox, o += C) {
        const Window w = WindowOf(a, static_cast<std::int64_t>(oy), static_cast<std::int64_t>(ox));
        const std::size_t rows = static_cast<std::size_t>(w.y1 - w.y0), cols = static_cast<std::size_t>(w.x1 - w.x0);
        const T* base = image + static_cast<std::size_t>(w.y0) * row + static_cast<std::size_t>(w.x0) * C;
        const std::int64_t count = (w.y1 - w.y0) * (w.x1 - w.x0);
        if (count > kMaxFloatCount) {
          AvgQ8Wide(base, rows, cols, row, C, o, lo, hi);
          continue;
        }
        const auto half = hn::Set(d32, static_cast<std::int32_t>(count / 2));
        const auto neg_half = hn::Neg(half);
        const auto fcount = hn::Set(df, static_cast<float>(count));
        for (std::size_t c = 0; c < C; c += N) {
          const std::size_t n = C - c < N ? C - c : N;
          auto acc = zero;
          for (std::size_t r = 0; r < rows; ++r) {
            const T* p = base + r * row + c;
            for (std::size_t k = 0; k < cols; ++k, p += C) acc = hn::Add(acc, hn::PromoteTo(d32, LoadN(d8, p, n)));
          }
          const auto t = hn::Add(acc, hn::IfThenElse(hn::Gt(acc, zero), half, neg_half));
          const auto q = hn::ConvertTo(d32, hn::Div(hn::ConvertTo(df, t), fcount));
          StoreN(hn::DemoteTo(d8, ClampLanes(q, vlo, vhi)), d8, o + c, n);
        }
      }
    }
  }
}

}  // namespace pool_detail

inline void PoolMaxF32(const simd::PoolArgs& a, const float* in, float* out, float lo, float hi) {
  pool_detail::PoolF32<pool_detail::kMax>(a, in, out, lo, hi);
}
inline void PoolAvgF32(const simd::PoolArgs& a, const float* in, float* out, float lo, float hi) {
  pool_detail::PoolF32<pool_detail::kAvg>(a, in, out, lo, hi);
}
inline void PoolL2F32(const simd::PoolArgs& a, const float* in, float* out, float lo, float hi) {
  pool_detail::PoolF32<pool_detail::kL2>(a, in, out, lo, hi);
}
inline void PoolMaxU8(const simd::PoolArgs& a, const std::uint8_t* in, std::uint8_t* out, std::int32_t lo,
                      std::int32_t hi) {
  pool_detail::MaxQ8(a, in, out, lo, hi);
}
inline void PoolMaxI8(const simd::PoolArgs& a, const std::int8_t* in, std::int8_t* out, std::int32_t lo,
                      std::int32_t hi) {
  pool_detail::MaxQ8(a, in, out, lo, hi);
}
inline void PoolAvgU8(const simd::PoolArgs& a, const std::uint8_t* in, std::uint8_t* out, std::int32_t lo,
                      std::int32_t hi) {
  pool_detail::AvgQ8(a, in, out, lo, hi);
}
inline void PoolAvgI8(const simd::PoolArgs& a, const std::int8_t* in, std::int8_t* out, std::int32_t lo,
                      std::int32_t hi) {
  pool_detail::AvgQ8(a, in, out, lo, hi);
}

/// This target's table of the family.
inline constexpr simd::Pool kPool{&PoolMaxF32, &PoolAvgF32, &PoolL2F32, &PoolMaxU8,
                                  &PoolMaxI8,  &PoolAvgU8,  &PoolAvgI8};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
