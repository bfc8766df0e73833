#pragma once
/// \file
/// EXP kernels (the row: nnhal/ops/exp.hpp): elementwise e^x over FLOAT32 and FLOAT16.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/exp.hpp"

namespace nnhal {

namespace kernels::math {
/// EXP of one element.
struct Exp {
  static constexpr std::string_view kName = "EXP";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return std::exp(x); }
};
}  // namespace kernels::math

/// EXP: one elementwise kernel per type.
template <>
struct Kernels<OperationType::EXP>
    : kernels::elementwise::MathFamily<kernels::math::Exp, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::EXP>());

}  // namespace nnhal
