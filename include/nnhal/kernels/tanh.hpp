#pragma once
/// \file
/// TANH kernels (the row: nnhal/ops/tanh.hpp): elementwise tanh(x); quantized outputs at the fixed scale 1/128, zeroPoint
/// 128 (QA8) or 0 (QAS8) (kernels/common/sigmoid.hpp).

#include <string_view>

#include "nnhal/kernels/common/sigmoid.hpp"
#include "nnhal/ops/tanh.hpp"

namespace nnhal {

namespace kernels::sigmoid {
inline constexpr std::string_view kTanhName = "TANH";
}  // namespace kernels::sigmoid

/// TANH: float maps and the reference's fixed-point quantized kernel.
template <>
struct Kernels<OperationType::TANH> : kernels::sigmoid::Family<true, kernels::sigmoid::kTanhName> {};
static_assert(kernels_cover_row<OperationType::TANH>());

}  // namespace nnhal
