#pragma once
/// \file
/// FLOAT32 elementwise kernels (ADD, SUB, MUL, DIV with a fused clamp) through the SIMD
/// dispatcher: each call runs the kernel of simd::dispatch()'s target. The per-target code,
/// and what it guarantees (results bit for bit equal to the scalar reference, in-place
/// operation), is in nnhal/simd/elementwise_f32-inl.h.

#include <cstddef>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// out[i] = clamp(a[i] op b[b_scalar ? 0 : i], lo, hi) for i < n, where clamp(r) is
/// `r < lo ? lo : (r > hi ? hi : r)`. `out` may equal `a` or `b` (in place).
inline void binary_f32(BinaryOp op, const float* a, const float* b, bool b_scalar, float* out,
                       std::size_t n, float lo, float hi) noexcept {
  dispatch().binary_f32(op, a, b, b_scalar, out, n, lo, hi);
}

/// out[i] = clamp(a op b[i], lo, hi) for i < n. `out` may equal `b` (in place).
inline void binary_f32_scalar_first(BinaryOp op, float a, const float* b, float* out, std::size_t n,
                                    float lo, float hi) noexcept {
  dispatch().binary_f32_scalar_first(op, a, b, out, n, lo, hi);
}

}  // namespace nnhal::simd
