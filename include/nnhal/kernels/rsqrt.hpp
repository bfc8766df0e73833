#pragma once
/// \file
/// RSQRT kernels (the row: nnhal/ops/rsqrt.hpp): elementwise 1 / sqrt(x) over FLOAT32 and FLOAT16.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/rsqrt.hpp"

namespace nnhal {

namespace kernels::math {
/// RSQRT of one element.
struct Rsqrt {
  static constexpr std::string_view kName = "RSQRT";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return 1.0f / std::sqrt(x); }
};
}  // namespace kernels::math

/// RSQRT: one elementwise kernel per type.
template <>
struct Kernels<OperationType::RSQRT>
    : kernels::elementwise::MathFamily<kernels::math::Rsqrt, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::RSQRT>());

}  // namespace nnhal
