#pragma once
/// \file
/// RESIZE_BILINEAR (23): bilinear resize of the spatial dimensions of a 4-D tensor, to a given
/// size or by given scales, with optional layout flag, align-corners and half-pixel-centers
/// flags; the output keeps the input's quantization.

#include <array>
#include <cstddef>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace resize_bilinear {
inline constexpr std::array<Slot, 6> kInputs{{
    {"input", Role::Data},
    {"output_width", Role::Parameter},   // INT32 size, or width scale (fT) since 1.2
    {"output_height", Role::Parameter},  // same scalar type as input 1
    {"layout", Role::Layout, kSlotTrailing},
    {"align_corners", Role::Parameter, kSlotTrailing},
    {"half_pixel_centers", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;

/// Tensor types: F32 1.0; F16, QA8 1.2; QAS8 1.3.
inline constexpr std::array<TypeVersion, 4> kTypes{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}};

/// For each T and each of 3..6 inputs: {T, S, S, BOOL x (count - 3)} -> {T} with S = INT32 (by
/// size) or fT (by scale, 1.2). 4 inputs (layout) need 1.2; 5 or 6 (align_corners,
/// half_pixel_centers) need 1.3.
inline constexpr auto kSignatures = [] {
  std::array<Signature, kTypes.size() * 2 * 4> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : kTypes) {
    for (const OperandType s : {OperandType::INT32, float_scalar_for(tv.type)}) {
      HalVersion v = s == OperandType::INT32 ? tv.version : max_version(tv.version, HalVersion::V1_2);
      TypeSeq in{tv.type, s, s};
      out[k++] = sig(v, in, {tv.type});
      for (HalVersion since : {HalVersion::V1_2, HalVersion::V1_3, HalVersion::V1_3}) {
        in = v1_0::append(in, {OperandType::BOOL});
        v = max_version(v, since);
        out[k++] = sig(v, in, {tv.type});
      }
    }
  }
  return out;
}();
}  // namespace resize_bilinear

}  // namespace nnhal::ops

namespace nnhal {

/// RESIZE_BILINEAR in the operation table.
template <>
struct Row<OperationType::RESIZE_BILINEAR> {
  static constexpr OperationInfo info = make_row(OperationType::RESIZE_BILINEAR, {
      .inputs = ops::resize_bilinear::kInputs,
      .outputs = ops::resize_bilinear::kOutputs,
      .signatures = ops::resize_bilinear::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
