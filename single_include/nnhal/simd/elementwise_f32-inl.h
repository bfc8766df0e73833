// Per-target body of nnhal's FLOAT32 elementwise kernels (ADD, SUB, MUL, DIV with a fused
// clamp): compiled once per Highway target by nnhal/simd/elementwise_f32.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::BinaryOp and simd::ElementwiseF32
// first. Not a header to include on its own; it has no include guard on purpose.
//
// Results equal the scalar reference (nnhal::kernels::arithmetic::reference_f32) bit for bit: each
// lane does one IEEE operation (never a fused multiply-add) and the clamp mirrors the
// reference's `r < lo ? lo : (r > hi ? hi : r)` with ordered compares, so NaN passes through
// and -0.0 stays -0.0 exactly as in the scalar code. One exception is outside the library's
// control: 32-bit Arm NEON flushes denormals to zero in vector arithmetic (Highway's NEON
// target on ARMv7); DIV there runs the scalar loop because that target's vector division is a
// reciprocal approximation.
//
// Aliasing: `out` may be the same pointer as `a` and/or `b` (in-place operation). Each vector
// (and each scalar in the tail) is loaded before the store that overwrites it, and every store
// writes only elements whose inputs were already read. Partially overlapping ranges (out
// shifted against an input) are not supported.

#include <cstddef>
#include <limits>
#include <type_traits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace elementwise_detail {

struct AddF32 {
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Add(a, b);
  }
  static HWY_INLINE float one(float a, float b) { return a + b; }
};
struct SubF32 {
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Sub(a, b);
  }
  static HWY_INLINE float one(float a, float b) { return a - b; }
};
struct MulF32 {
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Mul(a, b);
  }
  static HWY_INLINE float one(float a, float b) { return a * b; }
};
struct DivF32 {
  template <class V>
  static HWY_INLINE V vec(V a, V b) {
    return hn::Div(a, b);
  }
  static HWY_INLINE float one(float a, float b) { return a / b; }
};

/// Which operand is a broadcast scalar: none, the second, or the first.
enum class Layout { kBoth, kScalarB, kScalarA };

/// The reference clamp, lane-wise (base-inl.h), or nothing when !kClamp.
template <bool kClamp, class V>
HWY_INLINE V clamp(V r, V lo, V hi) {
  if constexpr (!kClamp) return r;
  return ReferenceClamp(r, lo, hi);
}

template <bool kClamp>
HWY_INLINE float clamp_one(float r, float lo, float hi) {
  if constexpr (!kClamp) return r;
  return r < lo ? lo : (r > hi ? hi : r);
}

/// The vector at p + i, or the broadcast scalar when this side is the scalar one.
template <bool kScalar, class D, class V>
HWY_INLINE V load(D d, V broadcast, const float* p, std::size_t i) {
  if constexpr (kScalar) {
    (void)d, (void)p, (void)i;
    return broadcast;
  } else {
    (void)broadcast;
    return hn::LoadU(d, p + i);
  }
}

/// out[i] = clamp(A(i) op B(i)); A or B reads element 0 only when it is the scalar side.
template <class Op, Layout kLayout, bool kClamp>
HWY_NOINLINE void binary_loop(const float* a, const float* b, float* out, std::size_t n, float lo,
                              float hi) {
  constexpr bool kScalarA = kLayout == Layout::kScalarA, kScalarB = kLayout == Layout::kScalarB;
  std::size_t i = 0;
  if constexpr (!std::is_same_v<Op, DivF32> || kExactVectorDiv) {
    const hn::ScalableTag<float> d;
    const std::size_t N = hn::Lanes(d);
    const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
    const auto va0 = hn::Set(d, a[0]), vb0 = hn::Set(d, b[0]);  // the broadcast side, if any
    // Four independent vectors per step keep the loads ahead of the stores (all four are read
    // before any is written, which is also what keeps in-place operation correct). Not on
    // HWY_SCALAR, whose "vector" is one float: there the loop below is the plain scalar loop,
    // and a four-fold copy of it would only make every (operation, layout, clamp) loop larger.
    if constexpr (HWY_TARGET != HWY_SCALAR) {
      for (; i + 4 * N <= n; i += 4 * N) {
        const auto a0 = load<kScalarA>(d, va0, a, i), a1 = load<kScalarA>(d, va0, a, i + N);
        const auto a2 = load<kScalarA>(d, va0, a, i + 2 * N),
                   a3 = load<kScalarA>(d, va0, a, i + 3 * N);
        const auto b0 = load<kScalarB>(d, vb0, b, i), b1 = load<kScalarB>(d, vb0, b, i + N);
        const auto b2 = load<kScalarB>(d, vb0, b, i + 2 * N),
                   b3 = load<kScalarB>(d, vb0, b, i + 3 * N);
        hn::StoreU(clamp<kClamp>(Op::vec(a0, b0), vlo, vhi), d, out + i);
        hn::StoreU(clamp<kClamp>(Op::vec(a1, b1), vlo, vhi), d, out + i + N);
        hn::StoreU(clamp<kClamp>(Op::vec(a2, b2), vlo, vhi), d, out + i + 2 * N);
        hn::StoreU(clamp<kClamp>(Op::vec(a3, b3), vlo, vhi), d, out + i + 3 * N);
      }
    }
    for (; i + N <= n; i += N)
      hn::StoreU(clamp<kClamp>(Op::vec(load<kScalarA>(d, va0, a, i), load<kScalarB>(d, vb0, b, i)),
                               vlo, vhi),
                 d, out + i);
  }
  // Tail (fewer than one vector), or everything when the vector op is not exact.
  for (; i < n; ++i) {
    const float x = kScalarA ? a[0] : a[i];
    const float y = kScalarB ? b[0] : b[i];
    out[i] = clamp_one<kClamp>(Op::one(x, y), lo, hi);
  }
}

template <class Op, Layout kLayout>
HWY_INLINE void binary_clamped(const float* a, const float* b, float* out, std::size_t n, float lo,
                               float hi) {
  // With lo = -inf and hi = +inf the reference clamp is the identity (no value compares below
  // -inf or above +inf, NaN compares false), so skipping it is exact.
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (lo == -kInf && hi == kInf)
    binary_loop<Op, kLayout, false>(a, b, out, n, lo, hi);
  else
    binary_loop<Op, kLayout, true>(a, b, out, n, lo, hi);
}

/// The functor of simd::BinaryOp `kOp`.
template <simd::BinaryOp kOp>
struct OpOf;
template <>
struct OpOf<simd::BinaryOp::Add> {
  using type = AddF32;
};
template <>
struct OpOf<simd::BinaryOp::Sub> {
  using type = SubF32;
};
template <>
struct OpOf<simd::BinaryOp::Mul> {
  using type = MulF32;
};
template <>
struct OpOf<simd::BinaryOp::Div> {
  using type = DivF32;
};

}  // namespace elementwise_detail

/// Target-specific body of simd::binary_f32<kOp>.
template <simd::BinaryOp kOp>
void BinaryF32(const float* a, const float* b, bool b_scalar, float* out, std::size_t n, float lo,
               float hi) {
  namespace ed = elementwise_detail;
  using Op = typename ed::OpOf<kOp>::type;
  if (n == 0) return;
  if (b_scalar)
    ed::binary_clamped<Op, ed::Layout::kScalarB>(a, b, out, n, lo, hi);
  else
    ed::binary_clamped<Op, ed::Layout::kBoth>(a, b, out, n, lo, hi);
}

/// Target-specific body of simd::binary_f32_scalar_first<kOp>.
template <simd::BinaryOp kOp>
void BinaryF32ScalarFirst(float a, const float* b, float* out, std::size_t n, float lo, float hi) {
  namespace ed = elementwise_detail;
  if (n == 0) return;
  // ADD and MUL commute (IEEE a + b and b + a are the same value; at most a NaN's payload can
  // differ), so they run the scalar-second loops with the operands swapped instead of loops of
  // their own.
  if constexpr (kOp == simd::BinaryOp::Add || kOp == simd::BinaryOp::Mul)
    ed::binary_clamped<typename ed::OpOf<kOp>::type, ed::Layout::kScalarB>(b, &a, out, n, lo, hi);
  else
    ed::binary_clamped<typename ed::OpOf<kOp>::type, ed::Layout::kScalarA>(&a, b, out, n, lo, hi);
}

/// This target's table of operation `kOp`: its entries reach kOp's loops only.
template <simd::BinaryOp kOp>
inline constexpr simd::ElementwiseF32 kElementwiseF32{&BinaryF32<kOp>, &BinaryF32ScalarFirst<kOp>};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
