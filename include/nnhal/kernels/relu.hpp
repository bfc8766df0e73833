#pragma once
/// \file
/// RELU kernels (the row: nnhal/ops/relu.hpp): elementwise `max(0, x)` over FLOAT32, FLOAT16 and
/// both quant8 types (kernels/common/relu.hpp).

#include <string_view>

#include "nnhal/kernels/common/relu.hpp"
#include "nnhal/ops/relu.hpp"

namespace nnhal {

namespace kernels::relu {
inline constexpr std::string_view kReluName = "RELU";
}  // namespace kernels::relu

/// RELU: the clamp family with the RELU bounds.
template <>
struct Kernels<OperationType::RELU>
    : kernels::relu::Family<FusedActivationFunc::RELU, kernels::relu::kReluName> {};
static_assert(kernels_cover_row<OperationType::RELU>());

}  // namespace nnhal
