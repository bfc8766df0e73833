#pragma once
/// \file
/// TILE (89): repeats the input `multiples[i]` times along every axis; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace tile {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data}, {"multiples", Role::Parameter},  // TENSOR_INT32 [rank]
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::TENSOR_INT32}, {t});
  });
}  // namespace tile

}  // namespace nnhal::ops

namespace nnhal {

/// TILE in the operation table.
template <>
struct Row<OperationType::TILE> {
  static constexpr OperationInfo info = make_row(OperationType::TILE, {
      .inputs = ops::tile::kInputs,
      .outputs = ops::tile::kOutputs,
      .signatures = ops::tile::kSignatures,
  });
};

}  // namespace nnhal
