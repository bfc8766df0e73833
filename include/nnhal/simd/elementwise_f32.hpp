#pragma once
/// \file
/// FLOAT32 elementwise kernels (ADD, SUB, MUL, DIV with a fused clamp).
/// PLACEHOLDER: plain loops until the Highway implementation lands.

#include <cstddef>

namespace nnhal::simd {

/// Which binary operation a SIMD kernel applies.
enum class BinaryOp { Add, Sub, Mul, Div };

/// out[i] = clamp(a[i] op b[b_scalar ? 0 : i], lo, hi) for i < n.
inline void binary_f32(BinaryOp op, const float* a, const float* b, bool b_scalar, float* out,
                       std::size_t n, float lo, float hi) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const float x = a[i], y = b[b_scalar ? 0 : i];
    float r = op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y : op == BinaryOp::Mul ? x * y : x / y;
    out[i] = r < lo ? lo : (r > hi ? hi : r);
  }
}

/// out[i] = clamp(a op b[i], lo, hi) for i < n.
inline void binary_f32_scalar_first(BinaryOp op, float a, const float* b, float* out,
                                    std::size_t n, float lo, float hi) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const float y = b[i];
    float r = op == BinaryOp::Add ? a + y : op == BinaryOp::Sub ? a - y : op == BinaryOp::Mul ? a * y : a / y;
    out[i] = r < lo ? lo : (r > hi ? hi : r);
  }
}

}  // namespace nnhal::simd
