// Compiles one SIMD family's per-target body, the file named by NNHAL_SIMD_FAMILY_INL, for
// every target nnhal/simd/dispatch.hpp compiled (NNHAL_SIMD_COMPILED_TARGETS). A family header
// (e.g. nnhal/simd/elementwise_f32.hpp) includes dispatch.hpp, defines NNHAL_SIMD_FAMILY_INL
// and includes this file once; no include guard on purpose.
//
// Highway's ops for every target already exist (dispatch.hpp's passes defined them), so a pass
// here only switches Highway's per-target macros (HWY_NAMESPACE, HWY_ATTR, ...) to the target
// and includes the family's body, which then lands in nnhal::N_<target>. Highway's toggled
// include guards are not touched: <hwy/highway.h> in the body adds nothing. A family's body
// therefore uses Highway's core ops and nnhal/simd/base-inl.h only; a Highway -inl file beyond
// <hwy/highway.h> belongs in base-inl.h, whose passes run with Highway's own.
//
// Each family is compiled only in the programs that include its header: a program running
// ADD alone has no FULLY_CONNECTED SIMD code in it.

#ifndef NNHAL_SIMD_FAMILY_INL
#error "define NNHAL_SIMD_FAMILY_INL (the family's -inl file) before including this file"
#endif

#if HWY_TARGET != HWY_STATIC_TARGET
#error "a SIMD family header is being included inside a Highway per-target pass"
#endif

// The static target first, where dispatch.hpp left the per-target macros.
#include NNHAL_SIMD_FAMILY_INL

#if NNHAL_SIMD_EXTRA_TARGETS & HWY_SSSE3
#undef HWY_TARGET
#define HWY_TARGET HWY_SSSE3
#include <hwy/ops/set_macros-inl.h>
#include NNHAL_SIMD_FAMILY_INL
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_SSE4
#undef HWY_TARGET
#define HWY_TARGET HWY_SSE4
#include <hwy/ops/set_macros-inl.h>
#include NNHAL_SIMD_FAMILY_INL
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX2
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX2
#include <hwy/ops/set_macros-inl.h>
#include NNHAL_SIMD_FAMILY_INL
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX3
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX3
#include <hwy/ops/set_macros-inl.h>
#include NNHAL_SIMD_FAMILY_INL
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX3_DL
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX3_DL
#include <hwy/ops/set_macros-inl.h>
#include NNHAL_SIMD_FAMILY_INL
#endif

#if NNHAL_SIMD_EXTRA_TARGETS
// Back to the static target's per-target macros.
#undef HWY_TARGET
#define HWY_TARGET HWY_STATIC_TARGET
#include <hwy/ops/set_macros-inl.h>
#endif
