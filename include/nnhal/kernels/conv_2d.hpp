#pragma once
/// \file
/// CONV_2D kernels (the row: nnhal/ops/conv_2d.hpp): the shared convolution of
/// nnhal/kernels/common/conv_family.hpp with one group.

#include "nnhal/kernels/common/conv_family.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/conv_2d.hpp"

namespace nnhal {

/// CONV_2D: FLOAT32 (packed SIMD kernel for NHWC), FLOAT16, QUANT8_ASYMM and
/// QUANT8_ASYMM_SIGNED with same-type or per-channel filters.
template <>
struct Kernels<OperationType::CONV_2D> : kernels::conv::Family<kernels::conv::Kind::Conv> {};
static_assert(kernels_cover_row<OperationType::CONV_2D>());

}  // namespace nnhal
