// Per-target body of nnhal's row reductions: compiled once per Highway target by
// nnhal/simd/reduce_f32.hpp (through nnhal/simd/foreach_target-inl.h), which declares
// simd::ReduceF32 first. Not a header to include on its own; it has no include guard on
// purpose.
//
// Each row is read once in vectors into four vector accumulators (four independent chains, so
// the adds and multiplies of consecutive vectors overlap), then single vectors, then the last
// partial vector through a padded copy on the stack filled with the operation's identity
// (Highway 1.0's MaskedLoad / BlendedStore touch the whole vector on some targets): nothing
// past the row is read. The four accumulators are combined, then the lanes.
//
// Exactness and accuracy:
// - Integer max / min and the 8-bit sums of MEAN are exact (the sums in 64-bit lanes through
//   SumsOf8; int8 values are biased by 128 to unsigned bytes and the bias subtracted), and the
//   mean truncates toward zero as C++ division does, the reference's quantized MEAN.
// - Float max / min keep the sequential loop's semantics bit for bit: the lane step is
//   `v > acc ? v : acc` (`<` for min), so NaN elements are skipped in every lane as in the
//   loop, and -inf / +inf pad the tail. Equal floats have equal bits except +0 and -0, where
//   the loop keeps the first one it met while lanes see other orders: when a row's result is
//   a zero, that row is recomputed with the sequential loop.
// - Float sums are reassociated. By the standard analysis of floating-point summation
//   (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2), a sum
//   where every term takes part in at most d rounded additions has |error| <= gamma_d *
//   sum|x_i|, gamma_d = d u / (1 - d u), u = 2^-24. Here an element takes part in at most
//   ceil(n / 4N) + 3 additions in its lane (the unrolled loop, up to three single vectors, the
//   tail), 2 combining the four accumulators and N - 1 across the lanes: d <= n / (4N) + N + 6,
//   against d = n - 1 for the sequential loop, so the reordered sum is the more accurate one
//   for long rows. tests/simd/reduce_f32.cpp checks that bound against a sum in double. The
//   corpus compares float32 outputs with |actual - expected| <= 1e-5 + 5 ulp(expected)
//   (../cts SCHEMA "criteria"); for its reductions (a few to a few hundred terms of magnitude
//   ~1) both orders are within a few ulp of the exact sum.
// - Float products: every multiplication rounds with a relative error of at most u whatever
//   the order, so the result is within gamma_{n-1} relative of the exact product in any order,
//   as the sequential loop's is; the orders can differ beyond that only when an intermediate
//   product overflows or underflows in one order and not in the other.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace reduce_detail {
namespace hn = hwy::HWY_NAMESPACE;

// The lane steps (function objects: lambdas would not carry the target attributes on every
// compiler).
struct AddStep {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return hn::Add(a, b);
  }
};
struct MulStep {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return hn::Mul(a, b);
  }
};
// acc = v > acc ? v : acc, as the sequential loop (NaN never replaces the accumulator).
struct MaxStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V v) const {
    return hn::IfThenElse(hn::Gt(v, acc), v, acc);
  }
};
struct MinStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V v) const {
    return hn::IfThenElse(hn::Lt(v, acc), v, acc);
  }
};
// The same steps on scalars, for the lanes of the final vector.
template <class T>
HWY_INLINE T Scalar(AddStep, T a, T b) {
  return a + b;
}
template <class T>
HWY_INLINE T Scalar(MulStep, T a, T b) {
  return a * b;
}
template <class T>
HWY_INLINE T Scalar(MaxStep, T acc, T v) {
  return v > acc ? v : acc;
}
template <class T>
HWY_INLINE T Scalar(MinStep, T acc, T v) {
  return v < acc ? v : acc;
}

/// One vector holding the row `p[0, n)` reduced lane-wise by `step` from `identity`.
template <class D, class T, class Step>
HWY_INLINE hn::Vec<D> Accumulate(D d, const T* p, std::size_t n, T identity, Step step) {
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN T tail[HWY_MAX_BYTES / sizeof(T)];
  const hn::Vec<D> init = hn::Set(d, identity);
  hn::Vec<D> a0 = init, a1 = init, a2 = init, a3 = init;
  std::size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    a0 = step(a0, hn::LoadU(d, p + i));
    a1 = step(a1, hn::LoadU(d, p + i + N));
    a2 = step(a2, hn::LoadU(d, p + i + 2 * N));
    a3 = step(a3, hn::LoadU(d, p + i + 3 * N));
  }
  for (; i + N <= n; i += N) a0 = step(a0, hn::LoadU(d, p + i));
  if (i < n) {
    for (std::size_t k = 0; k < N; ++k) tail[k] = identity;
    std::memcpy(tail, p + i, (n - i) * sizeof(T));
    a1 = step(a1, hn::Load(d, tail));
  }
  return step(step(a0, a1), step(a2, a3));
}

/// The lanes of `v` reduced in lane order by the scalar step.
template <class D, class Step>
HWY_INLINE hn::TFromD<D> Lanes(D d, hn::Vec<D> v, Step step) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T lanes[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(v, d, lanes);
  T r = lanes[0];
  for (std::size_t k = 1; k < hn::Lanes(d); ++k) r = Scalar(step, r, lanes[k]);
  return r;
}

/// Rows of max / min: exact, with the sequential loop redone for a row whose result is a zero
/// (the only equal values with different bits; see the file comment).
template <class T, class Step>
HWY_INLINE void ExtremeRows(const T* in, std::size_t rows, std::size_t n, T* out, T identity, Step step) {
  const hn::ScalableTag<T> d;
  for (std::size_t r = 0; r < rows; ++r, in += n) {
    T m = Lanes(d, Accumulate(d, in, n, identity, step), step);
    if constexpr (hwy::IsFloat<T>()) {
      if (m == T(0)) {
        m = identity;
        for (std::size_t i = 0; i < n; ++i) m = Scalar(step, m, in[i]);
      }
    }
    out[r] = m;
  }
}

/// The exact sum of a row of bytes, each biased by `bias` (0, or 0x80 to turn int8 into
/// unsigned bytes): sum(byte ^ bias).
HWY_INLINE std::uint64_t ByteSum(const std::uint8_t* p, std::size_t n, std::uint8_t bias) {
  const hn::ScalableTag<std::uint8_t> d8;
  using V64 = decltype(hn::SumsOf8(hn::Zero(d8)));
  const hn::DFromV<V64> d64;
  const std::size_t N = hn::Lanes(d8);
  const auto vbias = hn::Set(d8, bias);
  V64 s0 = hn::Zero(d64), s1 = s0;
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    s0 = hn::Add(s0, hn::SumsOf8(hn::Xor(hn::LoadU(d8, p + i), vbias)));
    s1 = hn::Add(s1, hn::SumsOf8(hn::Xor(hn::LoadU(d8, p + i + N), vbias)));
  }
  for (; i + N <= n; i += N) s0 = hn::Add(s0, hn::SumsOf8(hn::Xor(hn::LoadU(d8, p + i), vbias)));
  if (i < n) {
    HWY_ALIGN std::uint8_t tail[HWY_MAX_BYTES];
    for (std::size_t k = 0; k < N; ++k) tail[k] = bias;  // bias ^ bias = 0: adds nothing
    std::memcpy(tail, p + i, n - i);
    s1 = hn::Add(s1, hn::SumsOf8(hn::Xor(hn::Load(d8, tail), vbias)));
  }
  return Lanes(d64, hn::Add(s0, s1), AddStep{});
}

}  // namespace reduce_detail

inline void ReduceF32Sum(const float* in, std::size_t rows, std::size_t n, float* out) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> d;
  for (std::size_t r = 0; r < rows; ++r, in += n)
    out[r] = hn::GetLane(hn::SumOfLanes(d, reduce_detail::Accumulate(d, in, n, 0.0f, reduce_detail::AddStep{})));
}

inline void ReduceF32Prod(const float* in, std::size_t rows, std::size_t n, float* out) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> d;
  const reduce_detail::MulStep step;
  for (std::size_t r = 0; r < rows; ++r, in += n)
    out[r] = reduce_detail::Lanes(d, reduce_detail::Accumulate(d, in, n, 1.0f, step), step);
}

inline void ReduceF32Max(const float* in, std::size_t rows, std::size_t n, float* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, -std::numeric_limits<float>::infinity(), reduce_detail::MaxStep{});
}

inline void ReduceF32Min(const float* in, std::size_t rows, std::size_t n, float* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, std::numeric_limits<float>::infinity(), reduce_detail::MinStep{});
}

inline void ReduceMaxU8(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, std::uint8_t{0}, reduce_detail::MaxStep{});
}

inline void ReduceMinU8(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, std::uint8_t{255}, reduce_detail::MinStep{});
}

inline void ReduceMaxI8(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, std::int8_t{-128}, reduce_detail::MaxStep{});
}

inline void ReduceMinI8(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out) {
  reduce_detail::ExtremeRows(in, rows, n, out, std::int8_t{127}, reduce_detail::MinStep{});
}

inline void ReduceMeanU8(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out) {
  for (std::size_t r = 0; r < rows; ++r, in += n)
    out[r] = n == 0 ? std::uint8_t{0} : static_cast<std::uint8_t>(reduce_detail::ByteSum(in, n, 0) / n);
}

inline void ReduceMeanI8(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out) {
  for (std::size_t r = 0; r < rows; ++r, in += n) {
    if (n == 0) {
      out[r] = 0;
      continue;
    }
    const auto biased = reduce_detail::ByteSum(reinterpret_cast<const std::uint8_t*>(in), n, 0x80);
    const std::int64_t sum = static_cast<std::int64_t>(biased) - 128 * static_cast<std::int64_t>(n);
    out[r] = static_cast<std::int8_t>(sum / static_cast<std::int64_t>(n));
  }
}

/// This target's table of the family.
inline constexpr simd::ReduceF32 kReduceF32{&ReduceF32Sum, &ReduceF32Prod, &ReduceF32Max, &ReduceF32Min,
                                            &ReduceMaxU8,  &ReduceMinU8,   &ReduceMaxI8,  &ReduceMinI8,
                                            &ReduceMeanU8, &ReduceMeanI8};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
