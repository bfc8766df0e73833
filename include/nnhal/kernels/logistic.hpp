#pragma once
/// \file
/// LOGISTIC kernels (the row: nnhal/ops/logistic.hpp): elementwise 1 / (1 + exp(-x)); quantized outputs at the fixed scale 1/256,
/// zeroPoint 0 (QA8) or -128 (QAS8) (kernels/common/sigmoid.hpp).

#include <string_view>

#include "nnhal/kernels/common/sigmoid.hpp"
#include "nnhal/ops/logistic.hpp"

namespace nnhal {

namespace kernels::sigmoid {
inline constexpr std::string_view kLogisticName = "LOGISTIC";
}  // namespace kernels::sigmoid

/// LOGISTIC: float maps and the reference's fixed-point quantized kernel.
template <>
struct Kernels<OperationType::LOGISTIC> : kernels::sigmoid::Family<false, kernels::sigmoid::kLogisticName> {};
static_assert(kernels_cover_row<OperationType::LOGISTIC>());

}  // namespace nnhal
