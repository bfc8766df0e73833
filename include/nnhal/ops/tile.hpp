#pragma once
/// \file
/// TILE (89). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// TILE in the operation table.
struct Tile : OperationDescriptor<OperationType::TILE> {
  static constexpr OperationInfo info{OperationType::TILE, "TILE", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
