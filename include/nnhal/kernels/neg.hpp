#pragma once
/// \file
/// NEG kernels (the row: nnhal/ops/neg.hpp): elementwise negation over FLOAT32, FLOAT16 and TENSOR_INT32.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/neg.hpp"

namespace nnhal {

namespace kernels::math {
/// NEG of one element.
struct Neg {
  static constexpr std::string_view kName = "NEG";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return -x; }
  static std::int32_t apply(std::int32_t x) noexcept {
    // -INT32_MIN wraps to INT32_MIN (two's complement), where the reference's negation is undefined.
    return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(x));
  }
};
}  // namespace kernels::math

/// NEG: one elementwise kernel per type.
template <>
struct Kernels<OperationType::NEG>
    : kernels::elementwise::MathFamily<kernels::math::Neg, kernels::elementwise::kFloatIntTypes> {};
static_assert(kernels_cover_row<OperationType::NEG>());

}  // namespace nnhal
