#pragma once
/// \file
/// SIMD family: the integer dot products of the 8-bit FULLY_CONNECTED kernel
/// (TENSOR_QUANT8_ASYMM and TENSOR_QUANT8_ASYMM_SIGNED), compiled for every target
/// (nnhal/simd/dispatch.hpp). The kernel widens one input row, offset included, to int16 once;
/// this family computes every unit's sum of products with the offset weights exactly as the
/// reference does (int32, wrapping), and the kernel adds the bias and rescales. The per-target
/// code is in nnhal/simd/fully_connected_q8-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target. For u < units:
///   out[u] = sum over k < depth of x[k] * (int32(w[u * depth + k]) + w_offset), in int32 with
///   wrap-around (the reference's uint32 accumulation),
/// x the input row plus its offset (each in [-255, 255]), w_offset in [-255, 255].
struct FullyConnectedQ8 {
  void (*dot_u8)(const std::int16_t* x, const std::uint8_t* w, std::int32_t w_offset, std::size_t depth,
                 std::size_t units, std::int32_t* out);
  void (*dot_s8)(const std::int16_t* x, const std::int8_t* w, std::int32_t w_offset, std::size_t depth,
                 std::size_t units, std::int32_t* out);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/fully_connected_q8-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const FullyConnectedQ8& fully_connected_q8_table(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<FullyConnectedQ8> kTables[] = NNHAL_SIMD_PER_TARGET(kFullyConnectedQ8);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
