#pragma once
/// \file
/// ABS kernels (the row: nnhal/ops/abs.hpp): elementwise absolute value over FLOAT32, FLOAT16 and TENSOR_INT32.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/abs.hpp"

namespace nnhal {

namespace kernels::math {
/// ABS of one element.
struct Abs {
  static constexpr std::string_view kName = "ABS";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return std::fabs(x); }
  static std::int32_t apply(std::int32_t x) noexcept {
    // |INT32_MIN| wraps to INT32_MIN (two's complement), where the reference's std::abs is undefined.
    return x < 0 ? static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(x)) : x;
  }
};
}  // namespace kernels::math

/// ABS: one elementwise kernel per type.
template <>
struct Kernels<OperationType::ABS>
    : kernels::elementwise::MathFamily<kernels::math::Abs, kernels::elementwise::kFloatIntTypes> {};
static_assert(kernels_cover_row<OperationType::ABS>());

}  // namespace nnhal
