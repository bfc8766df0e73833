// Every nnhal SIMD kernel for the current HWY_TARGET, and that target's simd::Dispatch table
// (`nnhal::HWY_NAMESPACE::kDispatch`). nnhal/simd/dispatch.hpp includes this once per target;
// it expects simd::BinaryOp and simd::Dispatch (nnhal/simd/dispatch_table.hpp) to be declared.
// Not a header to include on its own.
//
// A new kernel family adds its -inl file here and its entry point to simd::Dispatch. (This
// file, like the ones it includes, includes no nnhal header: the single-header edition copies
// -inl files verbatim next to nnhal.hpp, where those headers do not exist as files.)

// Toggled include guard: processed once per target pass (see nnhal/simd/dispatch.hpp).
#if defined(NNHAL_SIMD_KERNELS_TOGGLE) == defined(NNHAL_SIMD_TARGET_TOGGLE)
#ifdef NNHAL_SIMD_KERNELS_TOGGLE
#undef NNHAL_SIMD_KERNELS_TOGGLE
#else
#define NNHAL_SIMD_KERNELS_TOGGLE
#endif

#include <cstddef>

#include <hwy/highway.h>

#include "nnhal/simd/elementwise_f32-inl.h"
#include "nnhal/simd/fully_connected_f32-inl.h"

// Highway's name of a target is its namespace without the "N_" (N_AVX3_DL -> "AVX3_DL"); a
// string literal keeps the table a constant, with no call to hwy::TargetName at run time.
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

/// This target's kernels.
inline constexpr simd::Dispatch kDispatch{
    &NNHAL_SIMD_STRINGIZE(HWY_NAMESPACE)[2],
    HWY_TARGET,
    &LanesF32,
    &BinaryF32,
    &BinaryF32ScalarFirst,
    &FullyConnectedF32,
};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // NNHAL_SIMD_KERNELS_TOGGLE
