#pragma once
/// \file
/// RESIZE_NEAREST_NEIGHBOR kernels (the row: nnhal/ops/resize_nearest_neighbor.hpp): the resize
/// core of nnhal/kernels/common/resize.hpp, nearest-neighbour method (NNAPI's own rounding of
/// the source index, described there).

#include "nnhal/kernels/common/resize.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/resize_nearest_neighbor.hpp"

namespace nnhal {

/// RESIZE_NEAREST_NEIGHBOR's kernels, keyed by the input type (float32 also serves relaxed
/// models).
template <>
struct Kernels<OperationType::RESIZE_NEAREST_NEIGHBOR>
    : kernels::resize::Family<kernels::resize::Method::kNearest> {};
static_assert(kernels_cover_row<OperationType::RESIZE_NEAREST_NEIGHBOR>());

}  // namespace nnhal
