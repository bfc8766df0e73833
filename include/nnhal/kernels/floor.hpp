#pragma once
/// \file
/// FLOOR kernels (the row: nnhal/ops/floor.hpp): elementwise floor over FLOAT32 and FLOAT16 (input rank <= 4, checked again at execution).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/floor.hpp"

namespace nnhal {

namespace kernels::math {
/// FLOOR of one element.
struct Floor {
  static constexpr std::string_view kName = "FLOOR";
  static constexpr std::size_t kMaxRank = 4;
  static float apply(float x) noexcept { return std::floor(x); }
};
}  // namespace kernels::math

/// FLOOR: one elementwise kernel per type.
template <>
struct Kernels<OperationType::FLOOR>
    : kernels::elementwise::MathFamily<kernels::math::Floor, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::FLOOR>());

}  // namespace nnhal
