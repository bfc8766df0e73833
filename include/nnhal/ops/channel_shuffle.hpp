#pragma once
/// \file
/// CHANNEL_SHUFFLE (46). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// CHANNEL_SHUFFLE in the operation table.
struct ChannelShuffle : OperationDescriptor<OperationType::CHANNEL_SHUFFLE> {
  static constexpr OperationInfo info{OperationType::CHANNEL_SHUFFLE, "CHANNEL_SHUFFLE", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
