// Per-target body of nnhal's 8-bit quantized elementwise kernels (DEQUANTIZE, QUANTIZE, clamp,
// MAXIMUM / MINIMUM): compiled once per Highway target by nnhal/simd/quant8.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::Quant8Ops and simd::Quant8 first. Not
// a header to include on its own; it has no include guard on purpose.
//
// Every kernel gives the scalar reference's results bit for bit:
//   - dequantize: the byte widened to int32, the zero point subtracted in int32, converted to
//     float (exact) and multiplied by the scale once, as the reference does;
//   - quantize: x / scale (one IEEE division; on 32-bit Arm NEON, whose vector division is an
//     approximation, the scalar loop runs), rounded half away from zero as std::round does
//     (t = trunc(y); y - t is exact; t + sign(y) when |y - t| >= 0.5), plus the zero point in
//     float, then the reference's max(lo, min(hi, v)) as compare-and-select in its operand
//     order (NaN ends at hi), converted to int32 (exact: v is an integer in range) and narrowed;
//   - clamp, min_max: integer compares and selects, the reference's operand order.
// Tails: the last partial vector goes through a padded copy on the stack (Highway 1.0's
// MaskedLoad / BlendedStore touch the whole vector on some targets): nothing past `n` is read or
// written. In place: each vector is loaded before it is stored.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace quant8_detail {
namespace hn = hwy::HWY_NAMESPACE;


/// Bytes of the largest vector: the padded tail buffers.
inline constexpr std::size_t kMaxBytes = HWY_MAX_BYTES;

template <class E>
HWY_INLINE void Dequantize(const E* in, float* out, std::size_t n, float scale, std::int32_t zero_point) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<E, decltype(d)> de;
  const std::size_t N = hn::Lanes(d);
  const auto vs = hn::Set(d, scale);
  const auto vz = hn::Set(di, zero_point);
  std::size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::Mul(vs, hn::ConvertTo(d, hn::Sub(hn::PromoteTo(di, hn::LoadU(de, in + i)), vz))), d, out + i);
  if (i < n) {
    HWY_ALIGN E bin[kMaxBytes];
    HWY_ALIGN float bout[kMaxBytes / sizeof(float)];
    std::memset(bin, 0, sizeof bin);
    std::memcpy(bin, in + i, (n - i) * sizeof(E));
    hn::Store(hn::Mul(vs, hn::ConvertTo(d, hn::Sub(hn::PromoteTo(di, hn::Load(de, bin)), vz))), d, bout);
    std::memcpy(out + i, bout, (n - i) * sizeof(float));
  }
}

/// std::round(y) lane-wise: halfway cases away from zero.
template <class D, class V>
HWY_INLINE V RoundHalfAway(D d, V y) {
  const V t = hn::Trunc(y);
  const V step = hn::CopySign(hn::Set(d, 1.0f), y);
  return hn::Add(t, hn::IfThenElseZero(hn::Ge(hn::Abs(hn::Sub(y, t)), hn::Set(d, 0.5f)), step));
}

template <class E, class D, class V>
HWY_INLINE auto QuantizeVec(D d, V x, V scale, V zero_point, V lo, V hi) {
  const hn::RebindToSigned<D> di;
  const hn::Rebind<E, D> de;
  const V v = hn::Add(zero_point, RoundHalfAway(d, hn::Div(x, scale)));
  const V m = hn::IfThenElse(hn::Lt(v, hi), v, hi);  // std::min<float>(hi, v)
  const V c = hn::IfThenElse(hn::Lt(lo, m), m, lo);  // std::max<float>(lo, m)
  return hn::DemoteTo(de, hn::ConvertTo(di, c));
}

template <class E>
HWY_INLINE void Quantize(const float* in, E* out, std::size_t n, float scale, std::int32_t zero_point) {
  constexpr auto lo = static_cast<float>(std::numeric_limits<E>::min());
  constexpr auto hi = static_cast<float>(std::numeric_limits<E>::max());
  const auto zp = static_cast<float>(zero_point);
  if constexpr (!kExactVectorDiv) {
    for (std::size_t i = 0; i < n; ++i) {
      const float v = zp + std::round(in[i] / scale);
      const float m = v < hi ? v : hi;
      out[i] = static_cast<E>(lo < m ? m : lo);
    }
    return;
  }
  const hn::ScalableTag<float> d;
  const hn::Rebind<E, decltype(d)> de;
  const std::size_t N = hn::Lanes(d);
  const auto vs = hn::Set(d, scale), vz = hn::Set(d, zp), vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  std::size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(QuantizeVec<E>(d, hn::LoadU(d, in + i), vs, vz, vlo, vhi), de, out + i);
  if (i < n) {
    HWY_ALIGN float bin[kMaxBytes / sizeof(float)];
    HWY_ALIGN E bout[kMaxBytes];
    for (float& f : bin) f = 0.0f;
    std::memcpy(bin, in + i, (n - i) * sizeof(float));
    hn::Store(QuantizeVec<E>(d, hn::Load(d, bin), vs, vz, vlo, vhi), de, bout);
    std::memcpy(out + i, bout, (n - i) * sizeof(E));
  }
}

template <class D, class V>
HWY_INLINE V ClampVec(V x, V lo, V hi) {
  return hn::IfThenElse(hn::Lt(x, lo), lo, hn::IfThenElse(hn::Gt(x, hi), hi, x));
}

template <class E>
HWY_INLINE void Clamp(const E* in, E* out, std::size_t n, E lo, E hi) {
  const hn::ScalableTag<E> d;
  using D = decltype(d);
  const std::size_t N = hn::Lanes(d);
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  std::size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(ClampVec<D>(hn::LoadU(d, in + i), vlo, vhi), d, out + i);
  if (i < n) {
    HWY_ALIGN E buf[kMaxBytes];
    std::memset(buf, 0, sizeof buf);
    std::memcpy(buf, in + i, (n - i) * sizeof(E));
    hn::Store(ClampVec<D>(hn::Load(d, buf), vlo, vhi), d, buf);
    std::memcpy(out + i, buf, (n - i) * sizeof(E));
  }
}

template <bool kMin, class V>
HWY_INLINE V MinMax(V a, V b) {
  if constexpr (kMin)
    return hn::Min(a, b);
  else
    return hn::Max(a, b);
}

/// MinMax<kMin> as a function object, for BinaryLoop (simd/base-inl.h).
template <bool kMin>
struct MinMaxOp {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return MinMax<kMin>(a, b);
  }
};

template <class E>
HWY_INLINE void MinMaxAny(bool min, const E* a, bool a_scalar, const E* b, bool b_scalar, E* out, std::size_t n) {
  if (n == 0) return;
  if (min)
    BinaryLayout(a, a_scalar, b, b_scalar, out, n, MinMaxOp<true>{});
  else
    BinaryLayout(a, a_scalar, b, b_scalar, out, n, MinMaxOp<false>{});
}

}  // namespace quant8_detail

inline void Quant8DequantizeU8(const std::uint8_t* in, float* out, std::size_t n, float scale, std::int32_t zp) {
  quant8_detail::Dequantize(in, out, n, scale, zp);
}
inline void Quant8DequantizeS8(const std::int8_t* in, float* out, std::size_t n, float scale, std::int32_t zp) {
  quant8_detail::Dequantize(in, out, n, scale, zp);
}
inline void Quant8QuantizeU8(const float* in, std::uint8_t* out, std::size_t n, float scale, std::int32_t zp) {
  quant8_detail::Quantize(in, out, n, scale, zp);
}
inline void Quant8QuantizeS8(const float* in, std::int8_t* out, std::size_t n, float scale, std::int32_t zp) {
  quant8_detail::Quantize(in, out, n, scale, zp);
}
inline void Quant8ClampU8(const std::uint8_t* in, std::uint8_t* out, std::size_t n, std::uint8_t lo, std::uint8_t hi) {
  quant8_detail::Clamp(in, out, n, lo, hi);
}
inline void Quant8ClampS8(const std::int8_t* in, std::int8_t* out, std::size_t n, std::int8_t lo, std::int8_t hi) {
  quant8_detail::Clamp(in, out, n, lo, hi);
}
inline void Quant8MinMaxU8(bool min, const std::uint8_t* a, bool a_scalar, const std::uint8_t* b, bool b_scalar,
                           std::uint8_t* out, std::size_t n) {
  quant8_detail::MinMaxAny(min, a, a_scalar, b, b_scalar, out, n);
}
inline void Quant8MinMaxS8(bool min, const std::int8_t* a, bool a_scalar, const std::int8_t* b, bool b_scalar,
                           std::int8_t* out, std::size_t n) {
  quant8_detail::MinMaxAny(min, a, a_scalar, b, b_scalar, out, n);
}

/// This target's table of the family.
inline constexpr simd::Quant8 kQuant8{
    {&Quant8DequantizeU8, &Quant8QuantizeU8, &Quant8ClampU8, &Quant8MinMaxU8},
    {&Quant8DequantizeS8, &Quant8QuantizeS8, &Quant8ClampS8, &Quant8MinMaxS8},
};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
