#pragma once
/// \file
/// SQRT kernels (the row: nnhal/ops/sqrt.hpp): elementwise square root over FLOAT32 and FLOAT16.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/sqrt.hpp"

namespace nnhal {

namespace kernels::math {
/// SQRT of one element.
struct Sqrt {
  static constexpr std::string_view kName = "SQRT";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return std::sqrt(x); }
};
}  // namespace kernels::math

/// SQRT: one elementwise kernel per type.
template <>
struct Kernels<OperationType::SQRT>
    : kernels::elementwise::MathFamily<kernels::math::Sqrt, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::SQRT>());

}  // namespace nnhal
