#pragma once
/// \file
/// SIN kernels (the row: nnhal/ops/sin.hpp): elementwise sine over FLOAT32 and FLOAT16.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/sin.hpp"

namespace nnhal {

namespace kernels::math {
/// SIN of one element.
struct Sin {
  static constexpr std::string_view kName = "SIN";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return std::sin(x); }
};
}  // namespace kernels::math

/// SIN: one elementwise kernel per type.
template <>
struct Kernels<OperationType::SIN>
    : kernels::elementwise::MathFamily<kernels::math::Sin, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::SIN>());

}  // namespace nnhal
