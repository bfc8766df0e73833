// Per-target body of what every SIMD family shares: the target's description
// (`nnhal::HWY_NAMESPACE::kTargetInfo`). nnhal/simd/dispatch.hpp includes it once per compiled
// target, in the pass that also gives Highway's ops for that target; it expects simd::TargetInfo
// (nnhal/simd/dispatch.hpp) to be declared. Not a header to include on its own.
//
// Helpers several families use (a vector exp, ...) belong here: this pass runs once per target
// in a translation unit, before any family. (This file includes no nnhal header: the
// single-header edition copies -inl files verbatim next to nnhal.hpp.)

// Toggled include guard: processed once per pass of nnhal/simd/dispatch.hpp.
#if defined(NNHAL_SIMD_BASE_TOGGLE) == defined(NNHAL_SIMD_TARGET_TOGGLE)
#ifdef NNHAL_SIMD_BASE_TOGGLE
#undef NNHAL_SIMD_BASE_TOGGLE
#else
#define NNHAL_SIMD_BASE_TOGGLE
#endif

#include <cstddef>

#include <hwy/highway.h>

// Highway's name of a target is its namespace without the "N_" (N_AVX3_DL -> "AVX3_DL"); a
// string literal keeps the description a constant, with no call to hwy::TargetName at run time.
#ifndef NNHAL_SIMD_STRINGIZE
#define NNHAL_SIMD_STRINGIZE_(x) #x
#define NNHAL_SIMD_STRINGIZE(x) NNHAL_SIMD_STRINGIZE_(x)
#endif

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {

/// Float lanes of one vector of this target (1 for SCALAR; a run-time value on SVE and RVV).
inline std::size_t LanesF32() {
  return hwy::HWY_NAMESPACE::Lanes(hwy::HWY_NAMESPACE::ScalableTag<float>());
}

/// This target's description.
inline constexpr simd::TargetInfo kTargetInfo{
    &NNHAL_SIMD_STRINGIZE(HWY_NAMESPACE)[2],
    HWY_TARGET,
    &LanesF32,
};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // NNHAL_SIMD_BASE_TOGGLE
