#pragma once
/// \file
/// GROUPED_CONV_2D kernels (the row: nnhal/ops/grouped_conv_2d.hpp): the shared convolution of
/// nnhal/kernels/common/conv_family.hpp with num_groups groups.

#include "nnhal/kernels/common/conv_family.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/grouped_conv_2d.hpp"

namespace nnhal {

/// GROUPED_CONV_2D: FLOAT32, FLOAT16, QUANT8_ASYMM and QUANT8_ASYMM_SIGNED with same-type or
/// per-channel filters.
template <>
struct Kernels<OperationType::GROUPED_CONV_2D> : kernels::conv::Family<kernels::conv::Kind::Grouped> {};
static_assert(kernels_cover_row<OperationType::GROUPED_CONV_2D>());

}  // namespace nnhal
