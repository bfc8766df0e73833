#pragma once
/// \file
/// The Highway target nnhal's SIMD kernels run on in this process, and its float vector width
/// (what benchmarks print). With dynamic dispatch this is the target simd::chosen() picked for
/// this CPU, not necessarily the one the compiler flags select.

#include <cstddef>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// Name of the Highway target in use ("AVX3_DL", "AVX2", "NEON", "SCALAR", ...).
inline const char* target_name() noexcept {
  return chosen().name;
}

/// Number of float lanes in one vector of that target.
inline std::size_t lanes_f32() noexcept {
  return chosen().lanes_f32();
}

}  // namespace nnhal::simd
