// Per-target body of nnhal's FLOAT32 SOFTMAX rows: compiled once per Highway target by
// nnhal/simd/softmax_f32.hpp (through nnhal/simd/foreach_target-inl.h), which declares
// simd::SoftmaxF32 first. Not a header to include on its own; it has no include guard on
// purpose.
//
// Per row: the maximum (vector max, then across lanes), then e = exp(beta * (x - max)) written
// to `out` while summing it in one vector accumulator, then out *= 1 / sum. The exponent
// argument is never positive, so the exp needs no overflow handling: the argument is clamped
// at -87.3 (below it exp is under 2^-126 and the result is flushed to 0, an absolute error
// under 1.2e-38), split as n * ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, so r is exact
// to a few ulp), exp(r) from a degree-6 minimax polynomial (the classic Cephes expf
// coefficients) and 2^n put in the exponent bits. Its error is within 2 ulp of exp; the
// softmax then differs from the scalar reference (std::exp, division per element) by a few
// ulp relative, inside the corpus' 5-ulp + 1e-5 criteria (tests/simd/softmax_f32.cpp checks
// the bound against double precision). The last partial vector of a row goes through a
// padded copy on the stack (Highway 1.0's MaskedLoad / BlendedStore touch the whole vector on
// some targets): nothing past `n` is read or written.

#include <cstddef>
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace softmax_detail {
namespace hn = hwy::HWY_NAMESPACE;

/// exp(x) for x <= 0 (lanes above 0 are not handled).
template <class D, class V>
HWY_INLINE V ExpNonPositive(D d, V x) {
  const hn::RebindToSigned<D> di;
  x = hn::Max(x, hn::Set(d, -87.3365447505f));
  // n = round(x / ln2), r = x - n * ln2.
  const V n = hn::Round(hn::Mul(x, hn::Set(d, 1.44269504088896341f)));
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), x);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.9875691500e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3981999507e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.3334519073e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.1665795894e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.6666665459e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.0000001201e-1f));
  const V r2 = hn::Mul(r, r);
  const V y = hn::Add(hn::MulAdd(p, r2, r), hn::Set(d, 1.0f));
  // 2^n for n in [-126, 0]: (n + 127) << 23 as float bits.
  const auto bits = hn::ShiftLeft<23>(hn::Add(hn::ConvertTo(di, n), hn::Set(di, 127)));
  return hn::Mul(y, hn::BitCast(d, bits));
}

/// Copies the `count` < Lanes(d) floats at `p` into `buf`, filling the rest with `fill`.
template <class D>
HWY_INLINE void LoadTail(D d, const float* p, std::size_t count, float fill, float* buf) {
  for (std::size_t i = 0; i < hwy::HWY_NAMESPACE::Lanes(d); ++i) buf[i] = fill;
  std::memcpy(buf, p, count * sizeof(float));
}

}  // namespace softmax_detail

inline void SoftmaxF32Rows(const float* in, float* out, std::size_t rows, std::size_t n, float beta) {
  namespace hn = hwy::HWY_NAMESPACE;
  namespace sd = softmax_detail;
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
  const float lowest = -hwy::HighestValue<float>();
  const auto neg_inf = hn::Set(d, lowest);
  for (std::size_t row = 0; row < rows; ++row, in += n, out += n) {
    if (n == 0) continue;
    const std::size_t full = n - n % N, rest = n - full;
    auto vmax = neg_inf;
    for (std::size_t i = 0; i < full; i += N) vmax = hn::Max(vmax, hn::LoadU(d, in + i));
    if (rest != 0) {
      sd::LoadTail(d, in + full, rest, lowest, tail);
      vmax = hn::Max(vmax, hn::Load(d, tail));
    }
    const float max_value = hn::GetLane(hn::MaxOfLanes(d, vmax));
    const auto max = hn::Set(d, max_value);
    const auto vbeta = hn::Set(d, beta);
    auto sum = hn::Zero(d);
    for (std::size_t i = 0; i < full; i += N) {
      const auto e = sd::ExpNonPositive(d, hn::Mul(hn::Sub(hn::LoadU(d, in + i), max), vbeta));
      sum = hn::Add(sum, e);
      hn::StoreU(e, d, out + i);
    }
    if (rest != 0) {
      // Padding with the maximum gives exp(0) = 1 in the spare lanes: masked out of the sum.
      sd::LoadTail(d, in + full, rest, max_value, tail);
      const auto e = sd::ExpNonPositive(d, hn::Mul(hn::Sub(hn::Load(d, tail), max), vbeta));
      sum = hn::Add(sum, hn::IfThenElseZero(hn::FirstN(d, rest), e));
      hn::Store(e, d, tail);
      std::memcpy(out + full, tail, rest * sizeof(float));
    }
    const auto scale = hn::Set(d, 1.0f / hn::GetLane(hn::SumOfLanes(d, sum)));
    for (std::size_t i = 0; i < full; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, out + i), scale), d, out + i);
    if (rest != 0) {
      sd::LoadTail(d, out + full, rest, 0.0f, tail);
      hn::Store(hn::Mul(hn::Load(d, tail), scale), d, tail);
      std::memcpy(out + full, tail, rest * sizeof(float));
    }
  }
}

inline void SoftmaxF32ExpNonPositive(const float* in, float* out, std::size_t n) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
  const std::size_t full = n - n % N, rest = n - full;
  for (std::size_t i = 0; i < full; i += N)
    hn::StoreU(softmax_detail::ExpNonPositive(d, hn::LoadU(d, in + i)), d, out + i);
  if (rest != 0) {
    softmax_detail::LoadTail(d, in + full, rest, 0.0f, tail);
    hn::Store(softmax_detail::ExpNonPositive(d, hn::Load(d, tail)), d, tail);
    std::memcpy(out + full, tail, rest * sizeof(float));
  }
}

/// This target's table of the family.
inline constexpr simd::SoftmaxF32 kSoftmaxF32{&SoftmaxF32Rows, &SoftmaxF32ExpNonPositive};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
