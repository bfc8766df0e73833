// Per-target body of nnhal's FLOAT32 activations and MAXIMUM / MINIMUM: compiled once per
// Highway target by nnhal/simd/activation_f32.hpp (through nnhal/simd/foreach_target-inl.h),
// which declares simd::ActivationF32 first. Not a header to include on its own; it has no
// include guard on purpose.
//
// Exactness. clamp, hard_swish, prelu and min_max give the scalar reference's results bit for
// bit: each lane does the reference's IEEE operations in its order (never a fused multiply-add)
// and every std::min / std::max / ?: of the reference is a compare-and-select with the same
// operand order, so NaN and -0.0 come out as in the scalar code. (hard_swish divides; on 32-bit
// Arm NEON, whose vector division is an approximation, it runs the scalar loop.)
//
// logistic, tanh and elu use a vector exp: the argument clamped to [-104, 88.72283], split as
// n * ln2 + r with |r| <= ln2 / 2 (ln2 in two parts), exp(r) from the degree-6 Cephes expf
// polynomial, and 2^n applied as two factors 2^(n/2) so that results down in the subnormal
// range are still rounded once; above 88.72283 (where expf overflows) it is +inf and NaN stays
// NaN. Its error is within 2 ulp of exp. LOGISTIC is 1 / (1 + e) (x >= 0) or e / (1 + e)
// (x < 0) with e = exp(-|x|); TANH is the Cephes tanhf odd polynomial below |x| = 0.625 and
// (1 - e) / (1 + e) with e = exp(-2|x|) above, with x's sign. Measured bounds against double
// precision are in tests/simd/activation_f32.cpp (a few ulp; the corpus allows 5 ulp + 1e-5).
// NaN gives NaN, +-inf give the limits, as the scalar code does; where the scalar formula
// underflows (LOGISTIC below -88, whose 1 / (1 + inf) is 0) this one keeps the subnormal result.
// ELU keeps the reference's formula max(0, x) + min(0, alpha * (exp(x) - 1)) with the vector
// exp, so its error is that of exp(x) - 1 (absolute, about 2^-23 near 0), as in float.
//
// Tails: the last partial vector goes through a padded copy on the stack (Highway 1.0's
// MaskedLoad / BlendedStore touch the whole vector on some targets): nothing past `n` is read or
// written. In place: each vector is loaded before it is stored.

#include <cstddef>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace activation_detail {
namespace hn = hwy::HWY_NAMESPACE;


/// The largest float whose exp is finite, and the clamp below which exp(x) rounds to 0.
inline constexpr float kExpHi = 88.72283172607421875f;
inline constexpr float kExpLo = -104.0f;

/// exp(x) within 2 ulp, subnormal results included, +inf above kExpHi, NaN for NaN.
template <class D, class V>
HWY_INLINE V Exp(D d, V x) {
  const hn::RebindToSigned<D> di;
  const V xc = hn::Min(hn::Max(x, hn::Set(d, kExpLo)), hn::Set(d, kExpHi));
  const V n = hn::Round(hn::Mul(xc, hn::Set(d, 1.44269504088896341f)));
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), xc);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.9875691500e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3981999507e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.3334519073e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.1665795894e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.6666665459e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.0000001201e-1f));
  const V y = hn::Add(hn::MulAdd(p, hn::Mul(r, r), r), hn::Set(d, 1.0f));
  // n in [-150, 128]: 2^n = 2^n1 * 2^n2 with n1 = floor(n / 2), both factors normal.
  const auto ni = hn::ConvertTo(di, n);
  const auto n1 = hn::ShiftRight<1>(ni);
  const auto n2 = hn::Sub(ni, n1);
  const auto bias = hn::Set(di, 127);
  const V s1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
  const V s2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n2, bias)));
  V e = hn::Mul(hn::Mul(y, s1), s2);
  e = hn::IfThenElse(hn::Gt(x, hn::Set(d, kExpHi)), hn::Set(d, std::numeric_limits<float>::infinity()), e);
  return hn::IfThenElse(hn::IsNaN(x), x, e);
}

struct Logistic {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V e = Exp(d, hn::Neg(hn::Abs(x)));
    const V one = hn::Set(d, 1.0f);
    const V num = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), e, one);
    return hn::Div(num, hn::Add(one, e));
  }
};

struct Tanh {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V ax = hn::Abs(x);
    // |x| < 0.625 (and NaN): x + x^3 * P(x^2).
    const V z = hn::Mul(x, x);
    V p = hn::Set(d, -5.70498872745e-3f);
    p = hn::MulAdd(p, z, hn::Set(d, 2.06390887954e-2f));
    p = hn::MulAdd(p, z, hn::Set(d, -5.37397155531e-2f));
    p = hn::MulAdd(p, z, hn::Set(d, 1.33314422036e-1f));
    p = hn::MulAdd(p, z, hn::Set(d, -3.33332819422e-1f));
    const V small = hn::MulAdd(hn::Mul(p, z), x, x);
    // Otherwise: (1 - e) / (1 + e), e = exp(-2|x|) <= exp(-1.25), with x's sign.
    const V e = Exp(d, hn::Mul(ax, hn::Set(d, -2.0f)));
    const V one = hn::Set(d, 1.0f);
    const V large = hn::CopySign(hn::Div(hn::Sub(one, e), hn::Add(one, e)), x);
    return hn::IfThenElse(hn::Ge(ax, hn::Set(d, 0.625f)), large, small);
  }
};

struct Elu {
  float alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V zero = hn::Zero(d);
    const V pos = hn::IfThenElse(hn::Lt(zero, x), x, zero);               // std::max(0.0f, x)
    const V t = hn::Mul(hn::Set(d, alpha), hn::Sub(Exp(d, x), hn::Set(d, 1.0f)));
    const V neg = hn::IfThenElse(hn::Lt(t, zero), t, zero);               // std::min(0.0f, t)
    return hn::Add(pos, neg);
  }
};

struct HardSwish {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V zero = hn::Zero(d), six = hn::Set(d, 6.0f);
    const V s = hn::Add(x, hn::Set(d, 3.0f));
    const V m = hn::IfThenElse(hn::Lt(zero, s), s, zero);  // std::max(0.0f, s)
    const V c = hn::IfThenElse(hn::Lt(m, six), m, six);    // std::min(6.0f, m)
    return hn::Div(hn::Mul(x, c), six);
  }
};

struct Clamp {
  float lo, hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
    return ReferenceClamp(x, vlo, vhi);
  }
};

/// Copies the `count` < Lanes(d) floats at `p` into `buf`, zero-filling the rest.
template <class D>
HWY_INLINE void LoadTail(D d, const float* p, std::size_t count, float* buf) {
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) buf[i] = 0.0f;
  std::memcpy(buf, p, count * sizeof(float));
}

/// out[i] = f(d, in[i]) lane-wise, tail through a padded copy.
template <class F>
HWY_INLINE void Map(const float* in, float* out, std::size_t n, const F& f) {
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::LoadU(d, in + i), b = hn::LoadU(d, in + i + N);
    hn::StoreU(f(d, a), d, out + i);
    hn::StoreU(f(d, b), d, out + i + N);
  }
  for (; i + N <= n; i += N) hn::StoreU(f(d, hn::LoadU(d, in + i)), d, out + i);
  if (i < n) {
    HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)];
    LoadTail(d, in + i, n - i, buf);
    hn::Store(f(d, hn::Load(d, buf)), d, buf);
    std::memcpy(out + i, buf, (n - i) * sizeof(float));
  }
}

/// x >= 0 ? x : x * alpha, lane-wise.
template <class V>
HWY_INLINE V PreluVec(V zero, V x, V alpha) {
  return hn::IfThenElse(hn::Ge(x, zero), x, hn::Mul(x, alpha));
}

/// PRELU of `count` elements with alpha read alongside x or broadcast (alpha_scalar).
template <class D>
HWY_INLINE void PreluRun(D d, const float* x, const float* alpha, bool alpha_scalar, float* out, std::size_t count) {
  const std::size_t N = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  const auto a0 = hn::Set(d, alpha[0]);
  std::size_t i = 0;
  for (; i + N <= count; i += N)
    hn::StoreU(PreluVec(zero, hn::LoadU(d, x + i), alpha_scalar ? a0 : hn::LoadU(d, alpha + i)), d, out + i);
  if (i < count) {
    HWY_ALIGN float bx[HWY_MAX_BYTES / sizeof(float)];
    HWY_ALIGN float ba[HWY_MAX_BYTES / sizeof(float)];
    LoadTail(d, x + i, count - i, bx);
    if (!alpha_scalar) LoadTail(d, alpha + i, count - i, ba);
    hn::Store(PreluVec(zero, hn::Load(d, bx), alpha_scalar ? a0 : hn::Load(d, ba)), d, bx);
    std::memcpy(out + i, bx, (count - i) * sizeof(float));
  }
}

/// std::min (kMin) or std::max of a and b, lane-wise, with the reference's operand order.
template <bool kMin, class V>
HWY_INLINE V MinMax(V a, V b) {
  if constexpr (kMin)
    return hn::IfThenElse(hn::Lt(b, a), b, a);
  else
    return hn::IfThenElse(hn::Lt(a, b), b, a);
}

/// MinMax<kMin> as a function object, for BinaryLoop (simd/base-inl.h).
template <bool kMin>
struct MinMaxOp {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    return MinMax<kMin>(a, b);
  }
};

}  // namespace activation_detail

inline void ActivationF32Clamp(const float* in, float* out, std::size_t n, float lo, float hi) {
  activation_detail::Map(in, out, n, activation_detail::Clamp{lo, hi});
}

inline void ActivationF32Logistic(const float* in, float* out, std::size_t n) {
  activation_detail::Map(in, out, n, activation_detail::Logistic{});
}

inline void ActivationF32Tanh(const float* in, float* out, std::size_t n) {
  activation_detail::Map(in, out, n, activation_detail::Tanh{});
}

inline void ActivationF32Elu(const float* in, float* out, std::size_t n, float alpha) {
  activation_detail::Map(in, out, n, activation_detail::Elu{alpha});
}

inline void ActivationF32HardSwish(const float* in, float* out, std::size_t n) {
  if constexpr (kExactVectorDiv) {
    activation_detail::Map(in, out, n, activation_detail::HardSwish{});
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const float x = in[i], s = x + 3.0f;
      const float m = 0.0f < s ? s : 0.0f;
      out[i] = x * (m < 6.0f ? m : 6.0f) / 6.0f;
    }
  }
}

inline void ActivationF32Prelu(const float* in, const float* alpha, std::size_t period, float* out, std::size_t n) {
  const hwy::HWY_NAMESPACE::ScalableTag<float> d;
  if (n == 0) return;
  if (period == 1 || period == n) {
    activation_detail::PreluRun(d, in, alpha, period == 1 && n != 1, out, n);
    return;
  }
  for (std::size_t row = 0; row < n; row += period)
    activation_detail::PreluRun(d, in + row, alpha, false, out + row, period);
}

inline void ActivationF32MinMax(bool min, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
                                std::size_t n) {
  if (n == 0) return;
  if (min)
    BinaryLayout(a, a_scalar, b, b_scalar, out, n, activation_detail::MinMaxOp<true>{});
  else
    BinaryLayout(a, a_scalar, b, b_scalar, out, n, activation_detail::MinMaxOp<false>{});
}

/// This target's table of the family.
inline constexpr simd::ActivationF32 kActivationF32{&ActivationF32Clamp, &ActivationF32Logistic,
                                                    &ActivationF32Tanh,  &ActivationF32Elu,
                                                    &ActivationF32HardSwish, &ActivationF32Prelu,
                                                    &ActivationF32MinMax};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
