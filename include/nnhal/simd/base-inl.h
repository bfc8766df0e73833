// Per-target body of what every SIMD family shares: the target's description
// (`nnhal::HWY_NAMESPACE::kTargetInfo`). nnhal/simd/dispatch.hpp includes it once per compiled
// target, in the pass that also gives Highway's ops for that target; it expects simd::TargetInfo
// (nnhal/simd/dispatch.hpp) to be declared. Not a header to include on its own.
//
// Helpers several families use (a vector exp, ...) belong here: this pass runs once per target
// in a translation unit, before any family. (This file includes no nnhal header: the
// single-header edition copies -inl files verbatim next to nnhal.hpp.)

// Toggled include guard: processed once per pass of nnhal/simd/dispatch.hpp.
#if defined(NNHAL_SIMD_BASE_TOGGLE) == defined(NNHAL_SIMD_TARGET_TOGGLE)
#ifdef NNHAL_SIMD_BASE_TOGGLE
#undef NNHAL_SIMD_BASE_TOGGLE
#else
#define NNHAL_SIMD_BASE_TOGGLE
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

// Highway's name of a target is its namespace without the "N_" (N_AVX3_DL -> "AVX3_DL"); a
// string literal keeps the description a constant, with no call to hwy::TargetName at run time.
#ifndef NNHAL_SIMD_STRINGIZE
#define NNHAL_SIMD_STRINGIZE_(x) #x
#define NNHAL_SIMD_STRINGIZE(x) NNHAL_SIMD_STRINGIZE_(x)
#endif

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {

/// Whether this target's vector division is correctly rounded. 32-bit Arm NEON has no vector
/// division instruction; Highway emulates it with a refined reciprocal estimate, which is not.
#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_V7
inline constexpr bool kExactVectorDiv = false;
#else
inline constexpr bool kExactVectorDiv = true;
#endif

/// Vector registers of this target (32 with AVX-512, on Arm A64 and RVV; 16 otherwise): what
/// the register tiles of the GEMM-shaped families are sized by.
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || HWY_ARCH_ARM_A64 || HWY_ARCH_RVV
inline constexpr std::size_t kVectorRegisters = 32;
#else
inline constexpr std::size_t kVectorRegisters = 16;
#endif

/// Pins a vector to a register. g++ tuning for some CPUs (-mtune=znver3, which -march=native
/// selects on AMD Zen 3 and later) folds a weight load into each of the R fused multiply-adds
/// that use it: R*C loads per step instead of C, and a tile that is bound by loads (about 70%
/// slower on a Zen 5 with the 4 x 6 AVX-512 tile of FULLY_CONNECTED, so the -march=native build
/// ran slower than a baseline build whose extra targets are compiled with generic tuning). An
/// empty asm that takes the vector in a register stops the folding and emits no instruction.
template <class V>
HWY_INLINE void KeepInRegister(V& v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  asm("" : "+v"(v.raw));
#else
  (void)v;
#endif
}

/// The plain kernels' clamp `x < lo ? lo : (x > hi ? hi : x)` per lane, also for a NaN x (which
/// stays NaN) and for equal values (x itself, -0 included). Highway leaves Min and Max with a NaN
/// to the target. On x86's SIMD targets they are minps / maxps (and the integer forms), which
/// return their second operand when one input is a NaN or both are equal, so Min(hi, Max(lo, x))
/// is that clamp in two instructions (Min(Max(x, lo), hi) would turn a NaN into lo). Other targets
/// (Highway's scalar and emulated ones return the operand that is not a NaN) compare.
/// tests/simd/depthwise_f32.cpp checks NaNs on every target.
template <class V>
HWY_INLINE V ReferenceClamp(V x, V lo, V hi) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
  return hwy::HWY_NAMESPACE::Min(hi, hwy::HWY_NAMESPACE::Max(lo, x));
#else
  namespace hn = hwy::HWY_NAMESPACE;
  return hn::IfThenElse(hn::Lt(x, lo), lo, hn::IfThenElse(hn::Gt(x, hi), hi, x));
#endif
}

#if HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
/// The 8-bit kernels' output stage on AVX2 for 8 int32 lanes whose channels have no left
/// shift, a right shift e in [1, 31] and a multiplier m >= 0 (quantize_multiplier gives those
/// for real multipliers below 1/2): quant::multiply_by_quantized_multiplier + the output offset,
/// bit for bit, from the biased sum a' = acc + 2^31 (mod 2^32; the derivation is above
/// depthwise_q8-inl.h's Avx2Block). The constants, per lane: m, the odd lanes' m moved down,
/// the 64-bit addends A of the even and odd lanes, their shifts (31 + e even, e - 1 odd) and
/// output offset - K.
struct Avx2Requant {
  __m256i m, m_odd, add_even, add_odd, sh_even, sh_odd, offset;
};

/// Whether a channel's rescale is one Avx2Requant does.
HWY_INLINE bool Avx2RequantFits(std::int32_t multiplier, std::int32_t left_shift, std::int32_t right_shift) {
  return left_shift == 0 && right_shift >= 1 && right_shift <= 31 && multiplier >= 0;
}

/// The constants of lanes 0..n-1 from multiplier[i] and right_shift[i] (each fitting); lanes
/// past n get m = 0, e = 1 (their results are not used).
HWY_INLINE Avx2Requant Avx2RequantAt(const std::int32_t* multiplier, const std::int32_t* right_shift, std::size_t n,
                                     std::int32_t output_offset) {
  alignas(32) std::uint32_t m[8], offset[8];
  alignas(32) std::uint64_t add[8], sh[8];  // even lanes in 0..3, odd ones in 4..7
  for (std::size_t i = 0; i < 8; ++i) {
    const std::uint64_t mi = i < n ? static_cast<std::uint64_t>(multiplier[i]) : 0u;
    const std::uint32_t e = i < n ? static_cast<std::uint32_t>(right_shift[i]) : 1u;
    const std::uint64_t K = (mi + (std::uint64_t{1} << e)) >> e;  // ceil((m + 1) / 2^e)
    const std::uint64_t A = (std::uint64_t{1} << 30) + (std::uint64_t{1} << (30 + e)) - (std::uint64_t{1} << 31) -
                            (mi << 31) + (K << (31 + e));
    m[i] = static_cast<std::uint32_t>(mi);
    add[(i % 2) * 4 + i / 2] = A;
    sh[(i % 2) * 4 + i / 2] = i % 2 == 0 ? 31 + e : e - 1;
    offset[i] = static_cast<std::uint32_t>(output_offset) - static_cast<std::uint32_t>(K);
  }
  Avx2Requant q;
  q.m = _mm256_load_si256(reinterpret_cast<const __m256i*>(m));
  q.m_odd = _mm256_srli_epi64(q.m, 32);
  q.add_even = _mm256_load_si256(reinterpret_cast<const __m256i*>(add));
  q.add_odd = _mm256_load_si256(reinterpret_cast<const __m256i*>(add + 4));
  q.sh_even = _mm256_load_si256(reinterpret_cast<const __m256i*>(sh));
  q.sh_odd = _mm256_load_si256(reinterpret_cast<const __m256i*>(sh + 4));
  q.offset = _mm256_load_si256(reinterpret_cast<const __m256i*>(offset));
  return q;
}

/// The rescale of the biased sums x (a' = acc + 2^31) + the output offset; top is 2^31 in
/// every 64-bit lane.
HWY_INLINE __m256i Avx2RequantApply(__m256i x, const Avx2Requant& q, __m256i top) {
  const __m256i xo = _mm256_srli_epi64(x, 32);
  __m256i te = _mm256_mul_epu32(x, q.m);
  __m256i to = _mm256_mul_epu32(xo, q.m_odd);
  te = _mm256_add_epi64(_mm256_add_epi64(te, _mm256_and_si256(x, top)), q.add_even);
  to = _mm256_add_epi64(_mm256_add_epi64(to, _mm256_and_si256(xo, top)), q.add_odd);
  te = _mm256_srlv_epi64(te, q.sh_even);
  to = _mm256_srlv_epi64(to, q.sh_odd);
  return _mm256_add_epi32(_mm256_blend_epi32(te, to, 0xAA), q.offset);
}
#endif

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
/// acc + lo(a) * lo(b) + hi(a) * hi(b) per int32 lane (signed 16-bit words): one vpdpwssd with
/// AVX512-VNNI, vpmaddwd and an add without.
HWY_INLINE __m512i Dpwssd(__m512i acc, __m512i a, __m512i b) {
#if defined(__AVX512VNNI__)
  return _mm512_dpwssd_epi32(acc, a, b);
#else
  return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
#endif
}

/// The 8-bit kernels' output stage as one 64-bit rounding on AVX-512 (depthwise_q8-inl.h and
/// quant8_binary-inl.h derive the constants; the result is the reference's
/// SaturatingRoundingDoublingHighMul then RoundingDivideByPOT, + the output offset, bit for
/// bit): per 64-bit half, t = p + add - neg where p < limit, with p = x * m of the even int32
/// lanes (m_even) and of the odd ones shifted down (m_odd), then t >> sh arithmetically. The
/// even halves' shift leaves their result in the low 32 bits, the odd halves' in the high ones,
/// so one blend joins them.
HWY_INLINE __m512i Rescale64(__m512i x, __m512i m_even, __m512i m_odd, __m512i add_even, __m512i add_odd,
                             __m512i sh_even, __m512i sh_odd, __m512i limit, __m512i neg) {
  const __m512i pe = _mm512_mul_epi32(x, m_even);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), m_odd);
  __m512i te = _mm512_add_epi64(pe, add_even);
  __m512i to = _mm512_add_epi64(po, add_odd);
  te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, limit), te, neg);
  to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, limit), to, neg);
  te = _mm512_srav_epi64(te, sh_even);
  to = _mm512_srav_epi64(to, sh_odd);
  return _mm512_mask_blend_epi32(0xAAAA, te, to);
}
#endif

/// Float lanes of one vector of this target (1 for SCALAR; a run-time value on SVE and RVV).
inline std::size_t LanesF32() {
  return hwy::HWY_NAMESPACE::Lanes(hwy::HWY_NAMESPACE::ScalableTag<float>());
}

/// This target's description.
inline constexpr simd::TargetInfo kTargetInfo{
    &NNHAL_SIMD_STRINGIZE(HWY_NAMESPACE)[2],
    HWY_TARGET,
    &LanesF32,
};

/// out[i] = op(x, y) over vectors of E for i < n, where x is a[0] broadcast when kScalarA, else
/// a[i], and y likewise from b. The tail goes through zero-filled copies on the stack (Highway 1.0's
/// masked loads and stores touch whole vectors on some targets): nothing past `n` is read or
/// written. `out` may equal `a` or `b`.
template <bool kScalarA, bool kScalarB, class E, class Op>
HWY_NOINLINE void BinaryLoop(const E* a, const E* b, E* out, std::size_t n, Op op) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<E> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto a0 = hn::Set(d, a[0]), b0 = hn::Set(d, b[0]);
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto x = kScalarA ? a0 : hn::LoadU(d, a + i);
    const auto y = kScalarB ? b0 : hn::LoadU(d, b + i);
    hn::StoreU(op(x, y), d, out + i);
  }
  if (i < n) {
    HWY_ALIGN E ta[HWY_MAX_BYTES / sizeof(E)];
    HWY_ALIGN E tb[HWY_MAX_BYTES / sizeof(E)];
    std::memset(ta, 0, sizeof ta);
    std::memset(tb, 0, sizeof tb);
    if (!kScalarA) std::memcpy(ta, a + i, (n - i) * sizeof(E));
    if (!kScalarB) std::memcpy(tb, b + i, (n - i) * sizeof(E));
    const auto x = kScalarA ? a0 : hn::Load(d, ta);
    const auto y = kScalarB ? b0 : hn::Load(d, tb);
    hn::Store(op(x, y), d, ta);
    std::memcpy(out + i, ta, (n - i) * sizeof(E));
  }
}

/// BinaryLoop with the broadcast sides chosen at run time.
template <class E, class Op>
HWY_INLINE void BinaryLayout(const E* a, bool a_scalar, const E* b, bool b_scalar, E* out, std::size_t n, Op op) {
  if (a_scalar && b_scalar)
    BinaryLoop<true, true>(a, b, out, n, op);
  else if (a_scalar)
    BinaryLoop<true, false>(a, b, out, n, op);
  else if (b_scalar)
    BinaryLoop<false, true>(a, b, out, n, op);
  else
    BinaryLoop<false, false>(a, b, out, n, op);
}

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // NNHAL_SIMD_BASE_TOGGLE
