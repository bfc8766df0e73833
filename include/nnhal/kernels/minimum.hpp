#pragma once
/// \file
/// MINIMUM kernels (the row: nnhal/ops/minimum.hpp): the smaller of two broadcast operands
/// (kernels/common/min_max.hpp).

#include <string_view>

#include "nnhal/kernels/common/min_max.hpp"
#include "nnhal/ops/minimum.hpp"

namespace nnhal {

namespace kernels::min_max {
inline constexpr std::string_view kMinimumName = "MINIMUM";
}  // namespace kernels::min_max

/// MINIMUM: one broadcast kernel per type.
template <>
struct Kernels<OperationType::MINIMUM> : kernels::min_max::Family<true, kernels::min_max::kMinimumName> {};
static_assert(kernels_cover_row<OperationType::MINIMUM>());

}  // namespace nnhal
