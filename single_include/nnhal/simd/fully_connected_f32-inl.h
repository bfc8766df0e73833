// Per-target body of nnhal's FLOAT32 FULLY_CONNECTED kernel, out = clamp(input x weights^T +
// bias): compiled once per Highway target by nnhal/simd/fully_connected_f32.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::FullyConnectedF32 first. Not a header
// to include on its own; it has no include guard on purpose.
//
// Both operands are contiguous along input_size (weights are [num_units, input_size]), so each
// output is a dot product. The kernel computes a register tile of R batch rows x C units at a
// time: per step along input_size it loads R input vectors and C weight vectors and does R*C
// fused multiply-adds into R*C vector accumulators; the horizontal sums, the bias and the clamp
// come once per output at the end. Tile shapes follow the register file (16 or 32 vector
// registers). The loop over units is outermost so a tile's C weight rows stay in L1 while the
// batch rows stream past them; a batch of 1 (matrix-vector) uses a 1-row, 8-unit tile. The
// last partial vector along input_size goes through zero-padded copies (nothing past the end
// of a row is read); a last partial group of units recomputes the final unit in the spare
// columns and stores only the real ones. On scalable targets (SVE, RVV), whose vectors cannot
// be held in arrays, a 1-row x 4-unit tile with masked loads is used instead.
//
// Results differ from the scalar reference (nnhal::kernels::fully_connected::reference_f32) only by
// the order of the additions: per-lane partial sums with fused multiply-adds, then a tree sum
// of the lanes. The usual bound for any summation order holds: with u = 2^-24 and
// S = sum_k |in[b,k] * w[u,k]| + |bias[u]|, both results lie within (input_size + 1) * u * S
// (to first order) of the exact value (tests/simd/fully_connected_f32.cpp checks it).

#include <cstddef>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace fc_detail {

/// Vector registers of the target: 32 on AVX-512 and AArch64, 16 elsewhere.
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || HWY_ARCH_ARM_A64 || HWY_ARCH_RVV
inline constexpr std::size_t kVectorRegisters = 32;
#else
inline constexpr std::size_t kVectorRegisters = 16;
#endif

#if !HWY_HAVE_SCALABLE
/// Float lanes of a full vector (a compile-time constant on fixed-width targets).
inline constexpr std::size_t kMaxLanes = HWY_LANES(float);
#endif

/// Rows of the main tile, and units per tile for a given number of rows. The count of live
/// vectors is R*C accumulators + C weight vectors + 1 input vector.
/// (On a 2-core AVX-512 VM with 1024-long rows, 4 x 6 ran faster than 6 x 4, 8 x 3 and 4 x 4.)
/// On HWY_SCALAR (one float per "vector", the target of microcontrollers and of builds without
/// SIMD flags) tiles of at most 2 rows: each tile shape is a function of its own, and the 3- and
/// 4-row ones would add 2 KB of code (a fifth of a small firmware's kernels) for a gain in
/// weight reuse that one-lane registers make small.
#if !HWY_HAVE_SCALABLE
#if HWY_TARGET == HWY_SCALAR
inline constexpr std::size_t kMaxRows = 2;
#else
inline constexpr std::size_t kMaxRows = 4;
#endif
constexpr std::size_t units_for_rows(std::size_t rows) {
  if constexpr (kVectorRegisters >= 32) return rows <= 2 ? 8 : 6;  // 4 x 6: 24 + 6 + 1 = 31
  return rows == 1 ? 8 : rows == 2 ? 4 : 3;                        // 4 x 3: 12 + 3 + 1 = 16
}
#endif

/// Sum of all lanes. Vectors wider than 128 bits are stored and summed in a fixed order:
/// g++ 12's AVX-512 intrinsics behind Highway's 512-bit SumOfLanes and LowerHalf pass an
/// undefined merge operand that its -Wmaybe-uninitialized reports once inlined (GCC bug
/// 105593). This runs once per output, so its cost is negligible next to the dot product.
template <class D, class V>
HWY_INLINE float sum_lanes(D d, V v) {
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  if constexpr (hn::MaxLanes(d) * sizeof(float) > 16) {
    alignas(64) float lanes[hn::MaxLanes(d)];
    hn::Store(v, d, lanes);
    float sum = 0.0f;
    for (float x : lanes) sum += x;
    return sum;
  } else {
    return hn::GetLane(hn::SumOfLanes(d, v));
  }
#else
  return hn::GetLane(hn::SumOfLanes(d, v));
#endif
}

/// Sum of lanes, then + bias, then the reference clamp.
template <class D, class V>
HWY_INLINE float finish(D d, V acc, float bias, float lo, float hi) {
  const float r = sum_lanes(d, acc) + bias;
  return r < lo ? lo : (r > hi ? hi : r);
}

/// Pointers to the C weight rows of units u0, u0 + 1, ...; rows past the last unit
/// repeat the last one (their results are computed and dropped).
template <std::size_t C>
HWY_INLINE void weight_rows(const float* weights, std::size_t input_size, std::size_t u0,
                            std::size_t num_units, const float* (&rows)[C]) {
  for (std::size_t c = 0; c < C; ++c) {
    const std::size_t u = u0 + c < num_units ? u0 + c : num_units - 1;
    rows[c] = weights + u * input_size;
  }
}

#if !HWY_HAVE_SCALABLE
/// One R x C tile: outputs for batch rows [b0, b0 + R) and units [u0, u0 + valid_units).
template <std::size_t R, std::size_t C>
HWY_NOINLINE void tile(const float* in, const float* weights, const float* bias, float* out,
                       std::size_t b0, std::size_t u0, std::size_t input_size,
                       std::size_t num_units, float lo, float hi) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  const D d;
  const std::size_t N = hn::Lanes(d);
  const std::size_t K = input_size;
  const float* w[C];
  weight_rows(weights, K, u0, num_units, w);
  const float* x = in + b0 * K;

  V acc[R * C];
#pragma GCC unroll 64
  for (std::size_t i = 0; i < R * C; ++i) acc[i] = hn::Zero(d);

  std::size_t k = 0;
  for (; k + N <= K; k += N) {
    V wv[C];
#pragma GCC unroll 16
    for (std::size_t c = 0; c < C; ++c) {
      wv[c] = hn::LoadU(d, w[c] + k);
      KeepInRegister(wv[c]);  // (simd/base-inl.h)
    }
#pragma GCC unroll 16
    for (std::size_t r = 0; r < R; ++r) {
      const V xv = hn::LoadU(d, x + r * K + k);
#pragma GCC unroll 16
      for (std::size_t c = 0; c < C; ++c) acc[r * C + c] = hn::MulAdd(xv, wv[c], acc[r * C + c]);
    }
  }
  if (k < K) {
    // The last partial vector: copied into zero-padded buffers, so nothing past the end of a
    // row is read (Highway 1.0's MaskedLoad may read the whole vector, and needs alignment on
    // SSE4/NEON) and the extra lanes add 0 * 0.
    const std::size_t rest = K - k;
    HWY_ALIGN float xt[R][kMaxLanes] = {};
    HWY_ALIGN float wt[C][kMaxLanes] = {};
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t j = 0; j < rest; ++j) xt[r][j] = x[r * K + k + j];
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t j = 0; j < rest; ++j) wt[c][j] = w[c][k + j];
    V wv[C];
#pragma GCC unroll 16
    for (std::size_t c = 0; c < C; ++c) wv[c] = hn::Load(d, wt[c]);
#pragma GCC unroll 16
    for (std::size_t r = 0; r < R; ++r) {
      const V xv = hn::Load(d, xt[r]);
#pragma GCC unroll 16
      for (std::size_t c = 0; c < C; ++c) acc[r * C + c] = hn::MulAdd(xv, wv[c], acc[r * C + c]);
    }
  }

  const std::size_t valid = num_units - u0 < C ? num_units - u0 : C;
#pragma GCC unroll 16
  for (std::size_t r = 0; r < R; ++r) {
    float* o = out + (b0 + r) * num_units + u0;
#pragma GCC unroll 16
    for (std::size_t c = 0; c < C; ++c) {
      if (c < valid)
        o[c] = finish(d, acc[r * C + c], bias != nullptr ? bias[u0 + c] : 0.0f, lo, hi);
    }
  }
}

/// Batch rows [b_begin, b_end) in tiles of R rows (b_end - b_begin is a multiple of R), all
/// units; units outermost so the weight rows of a tile are reused across the batch.
template <std::size_t R>
HWY_INLINE void rows_block(const float* in, const float* weights, const float* bias, float* out,
                           std::size_t b_begin, std::size_t b_end, std::size_t input_size,
                           std::size_t num_units, float lo, float hi) {
  constexpr std::size_t C = units_for_rows(R);
  for (std::size_t u0 = 0; u0 < num_units; u0 += C)
    for (std::size_t b0 = b_begin; b0 < b_end; b0 += R)
      tile<R, C>(in, weights, bias, out, b0, u0, input_size, num_units, lo, hi);
}

/// The last `rows` (< kMaxRows) batch rows, with the tile shape made for that many rows.
template <std::size_t R>
HWY_INLINE void rows_tail(std::size_t rows, const float* in, const float* weights,
                          const float* bias, float* out, std::size_t b_begin, std::size_t b_end,
                          std::size_t input_size, std::size_t num_units, float lo, float hi) {
  if constexpr (R > 0) {
    if (rows == R)
      rows_block<R>(in, weights, bias, out, b_begin, b_end, input_size, num_units, lo, hi);
    else
      rows_tail<R - 1>(rows, in, weights, bias, out, b_begin, b_end, input_size, num_units, lo, hi);
  } else {
    (void)rows, (void)in, (void)weights, (void)bias, (void)out, (void)b_begin, (void)b_end;
    (void)input_size, (void)num_units, (void)lo, (void)hi;
  }
}

#else   // HWY_HAVE_SCALABLE: sizeless vectors cannot live in arrays; 1 row x 4 units.

HWY_NOINLINE void tile_1x4(const float* in, const float* weights, const float* bias, float* out,
                           std::size_t b, std::size_t u0, std::size_t input_size,
                           std::size_t num_units, float lo, float hi) {
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  const std::size_t K = input_size;
  const float* w[4];
  weight_rows(weights, K, u0, num_units, w);
  const float* x = in + b * K;
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  for (std::size_t k = 0; k < K; k += N) {
    const auto m = hn::FirstN(d, K - k);
    const auto xv = hn::MaskedLoad(m, d, x + k);
    a0 = hn::MulAdd(xv, hn::MaskedLoad(m, d, w[0] + k), a0);
    a1 = hn::MulAdd(xv, hn::MaskedLoad(m, d, w[1] + k), a1);
    a2 = hn::MulAdd(xv, hn::MaskedLoad(m, d, w[2] + k), a2);
    a3 = hn::MulAdd(xv, hn::MaskedLoad(m, d, w[3] + k), a3);
  }
  const std::size_t valid = num_units - u0 < 4 ? num_units - u0 : 4;
  float* o = out + b * num_units + u0;
  auto bias_of = [&](std::size_t c) { return bias != nullptr ? bias[u0 + c] : 0.0f; };
  o[0] = finish(d, a0, bias_of(0), lo, hi);
  if (valid > 1) o[1] = finish(d, a1, bias_of(1), lo, hi);
  if (valid > 2) o[2] = finish(d, a2, bias_of(2), lo, hi);
  if (valid > 3) o[3] = finish(d, a3, bias_of(3), lo, hi);
}
#endif  // HWY_HAVE_SCALABLE

}  // namespace fc_detail

/// Target-specific body of simd::fully_connected_f32.
inline void FullyConnectedF32(const float* in, const float* weights, const float* bias, float* out,
                              std::size_t batch, std::size_t input_size, std::size_t num_units,
                              float act_min, float act_max) {
  namespace fd = fc_detail;
  if (batch == 0 || num_units == 0) return;
#if !HWY_HAVE_SCALABLE
  constexpr std::size_t R = fd::kMaxRows;
  const std::size_t main_rows = batch - batch % R;
  fd::rows_block<R>(in, weights, bias, out, 0, main_rows, input_size, num_units, act_min, act_max);
  fd::rows_tail<R - 1>(batch - main_rows, in, weights, bias, out, main_rows, batch, input_size,
                       num_units, act_min, act_max);
#else
  for (std::size_t u0 = 0; u0 < num_units; u0 += 4)
    for (std::size_t b = 0; b < batch; ++b)
      fd::tile_1x4(in, weights, bias, out, b, u0, input_size, num_units, act_min, act_max);
#endif
}

/// This target's table of the family.
inline constexpr simd::FullyConnectedF32 kFullyConnectedF32{&FullyConnectedF32};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
