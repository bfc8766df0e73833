#pragma once
/// \file
/// RELU1 kernels (the row: nnhal/ops/relu1.hpp): elementwise `min(1, max(-1, x))` over FLOAT32, FLOAT16 and
/// both quant8 types (kernels/common/relu.hpp).

#include <string_view>

#include "nnhal/kernels/common/relu.hpp"
#include "nnhal/ops/relu1.hpp"

namespace nnhal {

namespace kernels::relu {
inline constexpr std::string_view kRelu1Name = "RELU1";
}  // namespace kernels::relu

/// RELU1: the clamp family with the RELU1 bounds.
template <>
struct Kernels<OperationType::RELU1>
    : kernels::relu::Family<FusedActivationFunc::RELU1, kernels::relu::kRelu1Name> {};
static_assert(kernels_cover_row<OperationType::RELU1>());

}  // namespace nnhal
