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
//   then the reference's rounding half away from zero, trunc((|sum| + count / 2) / count)
//   with the sum's sign, exactly: with t = |sum| + count / 2 < 2^24, float(t) is exact, the
//   float product t * (1 / count) is within a relative 2^-23 of t / count, so its truncation
//   q0 is the quotient or one off, and the exact remainder t - q0 * count (in 32-bit lanes)
//   tells which. Windows of more than kMaxFloatCount elements (sums that could leave that
//   range) take a 64-bit scalar loop.
//   Power-of-two windows of up to 128 elements divide by a shift, in 16-bit lanes.
// Each pixel's channels go in blocks of four vectors (four independent accumulator chains,
// so loads and steps overlap), then single vectors.
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

/// The channels of one output pixel: `base` is the window's first input element (channel 0),
/// `rows` x `cols` window elements `row` elements apart vertically and C apart horizontally.
/// Blocks of four vectors of channels (four independent accumulator chains), then single
/// vectors, then the tail through Ops' partial load / store. Ops supplies the vector type's
/// Lanes, Init, Load / LoadPartial (into the accumulation domain), Step and Store /
/// StorePartial (finishing the value).
/// kRows / kCols, when not 0, are the window's size known at compile time (the loops over the
/// window then unroll); the caller passes equal rows / cols.
template <std::size_t kRows = 0, std::size_t kCols = 0, class Ops, class T>
HWY_INLINE void Channels(const Ops& ops, const T* base, std::size_t rows_in, std::size_t cols_in, std::size_t row,
                         std::size_t C, T* o) {
  const std::size_t rows = kRows != 0 ? kRows : rows_in, cols = kCols != 0 ? kCols : cols_in;
  const std::size_t N = ops.Lanes();
  std::size_t c = 0;
  for (; c + 4 * N <= C; c += 4 * N) {
    auto a0 = ops.Init(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t r = 0; r < rows; ++r) {
      const T* p = base + r * row + c;
      for (std::size_t k = 0; k < cols; ++k, p += C) {
        a0 = ops.Step(a0, ops.Load(p));
        a1 = ops.Step(a1, ops.Load(p + N));
        a2 = ops.Step(a2, ops.Load(p + 2 * N));
        a3 = ops.Step(a3, ops.Load(p + 3 * N));
      }
    }
    ops.Store(a0, o + c);
    ops.Store(a1, o + c + N);
    ops.Store(a2, o + c + 2 * N);
    ops.Store(a3, o + c + 3 * N);
  }
  for (; c + N <= C; c += N) {
    auto a = ops.Init();
    for (std::size_t r = 0; r < rows; ++r) {
      const T* p = base + r * row + c;
      for (std::size_t k = 0; k < cols; ++k, p += C) a = ops.Step(a, ops.Load(p));
    }
    ops.Store(a, o + c);
  }
  if (c < C) {
    const std::size_t n = C - c;
    auto a = ops.Init();
    for (std::size_t r = 0; r < rows; ++r) {
      const T* p = base + r * row + c;
      for (std::size_t k = 0; k < cols; ++k, p += C) a = ops.Step(a, ops.LoadPartial(p, n));
    }
    ops.StorePartial(a, o + c, n);
  }
}

enum Op { kMax, kAvg, kL2 };

/// Float pooling of kind kOp: accumulate, then divide (average, L2), sqrt (L2) and clamp.
template <int kOp>
struct FloatOps {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  D d;
  V lo, hi, count;
  bool clamp;  // false for (-inf, inf), where the clamp changes nothing (NaN included)
  FloatOps(float l, float h)
      : lo(hn::Set(d, l)), hi(hn::Set(d, h)), count(hn::Zero(d)),
        clamp(l != -std::numeric_limits<float>::infinity() || h != std::numeric_limits<float>::infinity()) {}
  HWY_INLINE std::size_t Lanes() const { return hn::Lanes(d); }
  HWY_INLINE V Init() const {
    return kOp == kMax ? hn::Set(d, std::numeric_limits<float>::lowest()) : hn::Zero(d);
  }
  HWY_INLINE V Load(const float* p) const { return hn::LoadU(d, p); }
  HWY_INLINE V LoadPartial(const float* p, std::size_t n) const { return LoadN(d, p, n); }
  HWY_INLINE V Step(V acc, V v) const {
    if constexpr (kOp == kMax) {
#if HWY_ARCH_X86 && (HWY_TARGET & (HWY_SSSE3 | HWY_SSE4 | HWY_AVX2 | HWY_AVX3 | HWY_AVX3_DL))
      // x86's MAXPS(v, acc) is exactly v > acc ? v : acc (NaN and equal zeros keep acc).
      return hn::Max(v, acc);
#else
      return hn::IfThenElse(hn::Gt(v, acc), v, acc);
#endif
    }
    if constexpr (kOp == kAvg) return hn::Add(acc, v);
    return hn::Add(acc, hn::Mul(v, v));
  }
  HWY_INLINE V Finish(V acc) const {
    if constexpr (kOp != kMax) acc = pow2 ? hn::Mul(acc, inv) : hn::Div(acc, count);
    if constexpr (kOp == kL2) acc = hn::Sqrt(acc);
    return clamp ? ReferenceClamp(acc, lo, hi) : acc;
  }
  HWY_INLINE void Store(V acc, float* p) const { hn::StoreU(Finish(acc), d, p); }
  HWY_INLINE void StorePartial(V acc, float* p, std::size_t n) const { StoreN(Finish(acc), d, p, n); }
  /// A power-of-two count multiplies by its exact reciprocal instead: the product is then the
  /// correctly rounded exact quotient, as the division's is (also for subnormal results).
  HWY_INLINE void SetCount(std::int64_t n) {
    count = hn::Set(d, static_cast<float>(n));
    pow2 = (n & (n - 1)) == 0;
    inv = hn::Set(d, 1.0f / static_cast<float>(n));
  }
  V inv = hn::Zero(d);
  bool pow2 = false;
};

/// 8-bit maximum in full 8-bit vectors.
template <class T>
struct MaxQ8Ops {
  using D = hn::ScalableTag<T>;
  using V = hn::Vec<D>;
  D d;
  V lo, hi;
  MaxQ8Ops(std::int32_t l, std::int32_t h) : lo(hn::Set(d, static_cast<T>(l))), hi(hn::Set(d, static_cast<T>(h))) {}
  HWY_INLINE std::size_t Lanes() const { return hn::Lanes(d); }
  HWY_INLINE V Init() const { return hn::Set(d, std::numeric_limits<T>::lowest()); }
  HWY_INLINE V Load(const T* p) const { return hn::LoadU(d, p); }
  HWY_INLINE V LoadPartial(const T* p, std::size_t n) const { return LoadN(d, p, n); }
  HWY_INLINE V Step(V acc, V v) const { return hn::Max(acc, v); }
  HWY_INLINE void Store(V acc, T* p) const { hn::StoreU(ReferenceClamp(acc, lo, hi), d, p); }
  HWY_INLINE void StorePartial(V acc, T* p, std::size_t n) const { StoreN(ReferenceClamp(acc, lo, hi), d, p, n); }
  HWY_INLINE void SetCount(std::int64_t) {}
};

/// 8-bit average: sums in 32-bit lanes, then the rounded quotient (see the file comment).
template <class T>
struct AvgQ8Ops {
  using D = hn::ScalableTag<std::int32_t>;
  using D8 = hn::Rebind<T, D>;
  using DF = hn::Rebind<float, D>;
  using V = hn::Vec<D>;
  D d;
  D8 d8;
  DF df;
  V lo, hi, half, count;
  hn::Vec<DF> rcp;
  AvgQ8Ops(std::int32_t l, std::int32_t h)
      : lo(hn::Set(d, l)), hi(hn::Set(d, h)), half(hn::Zero(d)), count(hn::Zero(d)), rcp(hn::Zero(df)) {}
  HWY_INLINE std::size_t Lanes() const { return hn::Lanes(d); }
  HWY_INLINE V Init() const { return hn::Zero(d); }
  HWY_INLINE V Load(const T* p) const { return hn::PromoteTo(d, hn::LoadU(d8, p)); }
  HWY_INLINE V LoadPartial(const T* p, std::size_t n) const { return hn::PromoteTo(d, LoadN(d8, p, n)); }
  HWY_INLINE V Step(V acc, V v) const { return hn::Add(acc, v); }
  /// trunc(t / count) for t = |sum| + count / 2, with the sum's sign: q0 from the float
  /// reciprocal is within one of the quotient (|t| < 2^24), the remainder corrects it.
  HWY_INLINE V Finish(V sum) const {
    const V a = hn::Add(hn::Abs(sum), half);
    if (shift >= 0) {  // a power-of-two count: the quotient is a shift
      const V q = hn::ShiftRightSame(a, shift);
      return ReferenceClamp(hn::IfThenElse(hn::Lt(sum, hn::Zero(d)), hn::Neg(q), q), lo, hi);
    }
    V q = hn::ConvertTo(d, hn::Mul(hn::ConvertTo(df, a), rcp));
    const V r = hn::Sub(a, hn::Mul(q, count));
    q = hn::IfThenElse(hn::Lt(r, hn::Zero(d)), hn::Sub(q, hn::Set(d, 1)), q);
    q = hn::IfThenElse(hn::Lt(r, count), q, hn::Add(q, hn::Set(d, 1)));
    q = hn::IfThenElse(hn::Lt(sum, hn::Zero(d)), hn::Neg(q), q);
    return ReferenceClamp(q, lo, hi);
  }
  HWY_INLINE void Store(V acc, T* p) const { hn::StoreU(hn::DemoteTo(d8, Finish(acc)), d8, p); }
  HWY_INLINE void StorePartial(V acc, T* p, std::size_t n) const { StoreN(hn::DemoteTo(d8, Finish(acc)), d8, p, n); }
  HWY_INLINE void SetCount(std::int64_t n) {
    count = hn::Set(d, static_cast<std::int32_t>(n));
    half = hn::Set(d, static_cast<std::int32_t>(n / 2));
    rcp = hn::Set(df, 1.0f / static_cast<float>(n));
    shift = -1;
    if ((n & (n - 1)) == 0)
      for (shift = 0; (std::int64_t{1} << shift) < n;) ++shift;
  }
  int shift = -1;
};

/// 8-bit average of a window of a power-of-two count up to kMaxShortCount: the same rounding
/// as AvgQ8Ops's shift, in 16-bit lanes (|sum| + count / 2 < 2^15), twice the channels per
/// vector.
inline constexpr std::int64_t kMaxShortCount = 128;

template <class T>
struct AvgQ8ShortOps {
  using D = hn::ScalableTag<std::int16_t>;
  using D8 = hn::Rebind<T, D>;
  using V = hn::Vec<D>;
  D d;
  D8 d8;
  V lo, hi, half;
  int shift = 0;
  AvgQ8ShortOps(std::int32_t l, std::int32_t h)
      : lo(hn::Set(d, static_cast<std::int16_t>(l))), hi(hn::Set(d, static_cast<std::int16_t>(h))), half(hn::Zero(d)) {}
  HWY_INLINE std::size_t Lanes() const { return hn::Lanes(d); }
  HWY_INLINE V Init() const { return hn::Zero(d); }
  HWY_INLINE V Load(const T* p) const { return hn::PromoteTo(d, hn::LoadU(d8, p)); }
  HWY_INLINE V LoadPartial(const T* p, std::size_t n) const { return hn::PromoteTo(d, LoadN(d8, p, n)); }
  HWY_INLINE V Step(V acc, V v) const { return hn::Add(acc, v); }
  HWY_INLINE V Finish(V sum) const {
    const V q = hn::ShiftRightSame(hn::Add(hn::Abs(sum), half), shift);
    return ReferenceClamp(hn::IfThenElse(hn::Lt(sum, hn::Zero(d)), hn::Neg(q), q), lo, hi);
  }
  HWY_INLINE void Store(V acc, T* p) const { hn::StoreU(hn::DemoteTo(d8, Finish(acc)), d8, p); }
  HWY_INLINE void StorePartial(V acc, T* p, std::size_t n) const { StoreN(hn::DemoteTo(d8, Finish(acc)), d8, p, n); }
  /// n must be a power of two <= kMaxShortCount.
  HWY_INLINE void SetCount(std::int64_t n) {
    half = hn::Set(d, static_cast<std::int16_t>(n / 2));
    for (shift = 0; (std::int64_t{1} << shift) < n;) ++shift;
  }
};

/// The plain 64-bit average of one pixel's channels, for windows too large for 32-bit lanes.
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

/// Every output pixel of a through `ops` (kWide: 8-bit average, whose windows beyond
/// kMaxFloatCount elements take AvgQ8Wide). Per output row, the pixels whose window lies wholly
/// inside the row's columns form one run: same count, the window's first element moving by
/// stride_w * C, so only the border pixels compute their clipped window.
template <bool kWide, class Ops, class Short, class T>
HWY_INLINE void Pixels(const simd::PoolArgs& a, const T* in, T* out, Ops& ops, Short& short_ops, std::int32_t lo,
                       std::int32_t hi) {
  const std::size_t C = a.channels, row = a.in_w * C;
  std::int64_t last_count = -1, last_short = -1;
  // One pixel: window `rows` x `cols` from `base`, output at o.
  const auto pixel = [&](const T* base, std::size_t rows, std::size_t cols, T* o) {
    const auto count = static_cast<std::int64_t>(rows * cols);
    if constexpr (kWide) {
      if (count > kMaxFloatCount) {
        AvgQ8Wide(base, rows, cols, row, C, o, lo, hi);
        return;
      }
      if (count <= kMaxShortCount && (count & (count - 1)) == 0) {
        if (count != last_short) short_ops.SetCount(count), last_short = count;
        Channels(short_ops, base, rows, cols, row, C, o);
        return;
      }
    }
    if (count != last_count) ops.SetCount(count), last_count = count;
    // The common 2x2 window with compile-time loop bounds (measured faster for the float and
    // 8-bit max kinds; slower for the 8-bit average, which keeps the loops).
    if (!kWide && rows == 2 && cols == 2)
      Channels<2, 2>(ops, base, rows, cols, row, C, o);
    else
      Channels(ops, base, rows, cols, row, C, o);
  };
  // The output columns [x_lo, x_hi) whose windows are inside the input's columns.
  const std::int64_t sw = a.stride_w, fw = a.filter_w, w = static_cast<std::int64_t>(a.in_w);
  const std::int64_t ow = static_cast<std::int64_t>(a.out_w);
  const std::int64_t last = w - fw + a.pad_left;  // the last interior window starts at or before it
  std::int64_t x_lo = (a.pad_left + sw - 1) / sw, x_hi = last >= 0 ? last / sw + 1 : 0;
  x_lo = x_lo < 0 ? 0 : (x_lo > ow ? ow : x_lo);
  x_hi = x_hi < x_lo ? x_lo : (x_hi > ow ? ow : x_hi);
  T* o = out;
  for (std::size_t b = 0; b < a.batches; ++b) {
    const T* image = in + b * a.in_h * row;
    // The first element of a window.
    const auto start = [&](const Window& win) {
      return image + static_cast<std::size_t>(win.y0) * row + static_cast<std::size_t>(win.x0) * C;
    };
    for (std::size_t oy = 0; oy < a.out_h; ++oy) {
      const auto border = [&](std::int64_t ox) {
        const Window win = WindowOf(a, static_cast<std::int64_t>(oy), ox);
        pixel(start(win), static_cast<std::size_t>(win.y1 - win.y0), static_cast<std::size_t>(win.x1 - win.x0), o);
        o += C;
      };
      for (std::int64_t ox = 0; ox < x_lo; ++ox) border(ox);
      if (x_lo < x_hi) {
        const Window win = WindowOf(a, static_cast<std::int64_t>(oy), x_lo);
        const auto rows = static_cast<std::size_t>(win.y1 - win.y0);
        const T* base = start(win);
        const std::size_t step = static_cast<std::size_t>(sw) * C;
        if (!kWide && rows == 2 && fw == 2) {  // the checks of pixel() once for the run
          const std::int64_t count = 4;
          if (count != last_count) ops.SetCount(count), last_count = count;
          for (std::int64_t ox = x_lo; ox < x_hi; ++ox, base += step, o += C)
            Channels<2, 2>(ops, base, 2, 2, row, C, o);
        } else {
          for (std::int64_t ox = x_lo; ox < x_hi; ++ox, base += step, o += C)
            pixel(base, rows, static_cast<std::size_t>(fw), o);
        }
      }
      for (std::int64_t ox = x_hi; ox < ow; ++ox) border(ox);
    }
  }
}

template <int kOp>
HWY_INLINE void PoolF32(const simd::PoolArgs& a, const float* in, float* out, float lo, float hi) {
  FloatOps<kOp> ops(lo, hi);
  Pixels<false>(a, in, out, ops, ops, 0, 0);
}

template <class T>
HWY_INLINE void MaxQ8(const simd::PoolArgs& a, const T* in, T* out, std::int32_t lo, std::int32_t hi) {
  MaxQ8Ops<T> ops(lo, hi);
  Pixels<false>(a, in, out, ops, ops, lo, hi);
}

template <class T>
HWY_INLINE void AvgQ8(const simd::PoolArgs& a, const T* in, T* out, std::int32_t lo, std::int32_t hi) {
  AvgQ8Ops<T> ops(lo, hi);
  AvgQ8ShortOps<T> short_ops(lo, hi);
  Pixels<true>(a, in, out, ops, short_ops, lo, hi);
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
