#pragma once
/// \file
/// RELU6 kernels (the row: nnhal/ops/relu6.hpp): elementwise `min(6, max(0, x))` over FLOAT32, FLOAT16 and
/// both quant8 types (kernels/common/relu.hpp).

#include <string_view>

#include "nnhal/kernels/common/relu.hpp"
#include "nnhal/ops/relu6.hpp"

namespace nnhal {

namespace kernels::relu {
inline constexpr std::string_view kRelu6Name = "RELU6";
}  // namespace kernels::relu

/// RELU6: the clamp family with the RELU6 bounds.
template <>
struct Kernels<OperationType::RELU6>
    : kernels::relu::Family<FusedActivationFunc::RELU6, kernels::relu::kRelu6Name> {};
static_assert(kernels_cover_row<OperationType::RELU6>());

}  // namespace nnhal
