#pragma once
/// \file
/// SIMD family: FLOAT32 elementwise kernels (ADD, SUB, MUL, DIV with a fused clamp), compiled
/// for every target (nnhal/simd/dispatch.hpp). The per-target code, and what it guarantees
/// (results bit for bit equal to the scalar reference, in-place operation), is in
/// nnhal/simd/elementwise_f32-inl.h.
///
/// Each operation has a table of its own (elementwise_f32<BinaryOp::Add>() ...), whose entries
/// run that operation only: a program whose kernels call ADD's table links ADD's loops and no
/// SUB, MUL or DIV loop.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// Which binary operation a SIMD kernel applies.
enum class BinaryOp { Add, Sub, Mul, Div };

/// The family's entry points for one operation `op` and one target.
struct ElementwiseF32 {
  /// out[i] = clamp(a[i] op b[b_scalar ? 0 : i], lo, hi) for i < n, where clamp(r) is
  /// `r < lo ? lo : (r > hi ? hi : r)`. `out` may equal `a` or `b` (in place).
  void (*binary)(const float* a, const float* b, bool b_scalar, float* out, std::size_t n,
                 float lo, float hi);
  /// out[i] = clamp(a op b[i], lo, hi) for i < n. `out` may equal `b` (in place).
  void (*binary_scalar_first)(float a, const float* b, float* out, std::size_t n, float lo,
                              float hi);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/elementwise_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The entry points of operation `kOp` compiled for `target` (default: the one this process
/// runs).
template <BinaryOp kOp>
const ElementwiseF32& elementwise_f32(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<ElementwiseF32> kTables[] = NNHAL_SIMD_PER_TARGET(kElementwiseF32<kOp>);
  return pick(kTables, target);
}

/// ElementwiseF32::binary of operation `kOp` on the target this process runs.
template <BinaryOp kOp>
void binary_f32(const float* a, const float* b, bool b_scalar, float* out, std::size_t n, float lo,
                float hi) noexcept {
  elementwise_f32<kOp>().binary(a, b, b_scalar, out, n, lo, hi);
}

/// ElementwiseF32::binary_scalar_first of operation `kOp` on the target this process runs.
template <BinaryOp kOp>
void binary_f32_scalar_first(float a, const float* b, float* out, std::size_t n, float lo,
                             float hi) noexcept {
  elementwise_f32<kOp>().binary_scalar_first(a, b, out, n, lo, hi);
}

}  // namespace nnhal::simd
