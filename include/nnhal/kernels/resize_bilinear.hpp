#pragma once
/// \file
/// RESIZE_BILINEAR kernels (the row: nnhal/ops/resize_bilinear.hpp): the resize core of
/// nnhal/kernels/common/resize.hpp, bilinear method (coordinates and rounding described there).

#include "nnhal/kernels/common/resize.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/resize_bilinear.hpp"

namespace nnhal {

/// RESIZE_BILINEAR's kernels, keyed by the input type (float32 also serves relaxed models).
template <>
struct Kernels<OperationType::RESIZE_BILINEAR> : kernels::resize::Family<kernels::resize::Method::kBilinear> {};
static_assert(kernels_cover_row<OperationType::RESIZE_BILINEAR>());

}  // namespace nnhal
