#pragma once
/// \file
/// LOG kernels (the row: nnhal/ops/log.hpp): elementwise natural logarithm over FLOAT32 and FLOAT16.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/log.hpp"

namespace nnhal {

namespace kernels::math {
/// LOG of one element.
struct Log {
  static constexpr std::string_view kName = "LOG";
  static constexpr std::size_t kMaxRank = nnhal::kMaxRank;
  static float apply(float x) noexcept { return std::log(x); }
};
}  // namespace kernels::math

/// LOG: one elementwise kernel per type.
template <>
struct Kernels<OperationType::LOG>
    : kernels::elementwise::MathFamily<kernels::math::Log, kernels::elementwise::kFloatTypes> {};
static_assert(kernels_cover_row<OperationType::LOG>());

}  // namespace nnhal
