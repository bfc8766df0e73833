#pragma once
/// \file
/// The Highway target nnhal's SIMD kernels were compiled for in this translation unit, and its
/// float vector width (what benchmarks print and what the SIMD tests size their cases by).

#include <cstddef>

#include "nnhal/simd/highway.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {

/// Float lanes of one vector of this target (1 for SCALAR; a run-time value on SVE and RVV).
inline std::size_t LanesF32() {
  return hwy::HWY_NAMESPACE::Lanes(hwy::HWY_NAMESPACE::ScalableTag<float>());
}

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

namespace nnhal::simd {

/// Name of the static Highway target ("AVX2", "AVX3_DL", "NEON", "SCALAR", ...) that the
/// compiler flags of the including translation unit select (e.g. -march).
inline const char* target_name() noexcept {
  return hwy::TargetName(HWY_STATIC_TARGET);
}

/// Number of float lanes in one vector of that target.
inline std::size_t lanes_f32() noexcept {
  return HWY_STATIC_DISPATCH(LanesF32)();
}

}  // namespace nnhal::simd
