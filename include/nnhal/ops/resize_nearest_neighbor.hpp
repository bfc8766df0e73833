#pragma once
/// \file
/// RESIZE_NEAREST_NEIGHBOR (94): nearest-neighbour resize of a 4-D tensor, by output size or by
/// scale; out q = in. Zero-sized inputs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace resize_nearest_neighbor {
inline constexpr std::array<Slot, 6> kInputs{{
    {"input", Role::Data},
    {"width", Role::Parameter},                         // INT32 output width, or fT width scale
    {"height", Role::Parameter},                        // same scalar type as the width
    {"layout", Role::Layout},                           // required (unlike RESIZE_BILINEAR)
    {"align_corners", Role::Parameter, kSlotTrailing},  // BOOL, 1.3
    {"half_pixel_centers", Role::Parameter, kSlotTrailing},  // BOOL, 1.3
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;

/// For each input type (F16, F32, QA8 1.2; QAS8 1.3) and each size kind (INT32 sizes, or fT
/// scales: FLOAT16 for F16, FLOAT32 otherwise): 4 inputs (1.2), + align_corners (5 inputs,
/// 1.3), + half_pixel_centers (6 inputs, 1.3).
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  std::array<Signature, lists::kFloatQuant.size() * 2 * 3> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : lists::kFloatQuant) {
    for (const OperandType s : {INT32, float_scalar_for(tv.type)}) {
      const HalVersion v13 = HalVersion::V1_3;
      out[k++] = sig(tv.version, {tv.type, s, s, BOOL}, {tv.type});
      out[k++] = sig(v13, {tv.type, s, s, BOOL, BOOL}, {tv.type});
      out[k++] = sig(v13, {tv.type, s, s, BOOL, BOOL, BOOL}, {tv.type});
    }
  }
  return out;
}();
}  // namespace resize_nearest_neighbor

}  // namespace nnhal::ops

namespace nnhal {

/// RESIZE_NEAREST_NEIGHBOR in the operation table.
template <>
struct Row<OperationType::RESIZE_NEAREST_NEIGHBOR> {
  static constexpr OperationInfo info = make_row(OperationType::RESIZE_NEAREST_NEIGHBOR, {
      .inputs = ops::resize_nearest_neighbor::kInputs,
      .outputs = ops::resize_nearest_neighbor::kOutputs,
      .signatures = ops::resize_nearest_neighbor::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
