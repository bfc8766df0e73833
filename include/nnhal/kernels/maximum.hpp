#pragma once
/// \file
/// MAXIMUM kernels (the row: nnhal/ops/maximum.hpp): the larger of two broadcast operands
/// (kernels/common/min_max.hpp).

#include <string_view>

#include "nnhal/kernels/common/min_max.hpp"
#include "nnhal/ops/maximum.hpp"

namespace nnhal {

namespace kernels::min_max {
inline constexpr std::string_view kMaximumName = "MAXIMUM";
}  // namespace kernels::min_max

/// MAXIMUM: one broadcast kernel per type.
template <>
struct Kernels<OperationType::MAXIMUM> : kernels::min_max::Family<false, kernels::min_max::kMaximumName> {};
static_assert(kernels_cover_row<OperationType::MAXIMUM>());

}  // namespace nnhal
