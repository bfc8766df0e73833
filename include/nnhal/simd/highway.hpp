#pragma once
/// \file
/// The one way nnhal's SIMD code includes Highway: the configuration Highway must see before
/// its first include, Highway itself, and the weak `hwy::Abort` for debug builds.
///
/// Kernels live in `-inl.h` files in `namespace nnhal::HWY_NAMESPACE` (one namespace per
/// target, so copies compiled for different targets never meet in the linker) and are reached
/// through nnhal/simd/dispatch.hpp, which compiles them for each target and picks one.

#include "nnhal/config.hpp"

// Which Highway targets are attainable is decided when Highway's detect_targets.h is first
// included, so these must come before it.
//
// Dynamic dispatch wants AVX3_DL (Ice Lake and later, Zen 4) among the targets even when the
// compiler flags do not enable it: Highway 1.0.3 leaves it out unless HWY_WANT_AVX3_DL is set.
//
// Static dispatch needs it in one case: Highway 1.0.3 stops with "#error Logic error: best
// baseline should be included in dynamic targets" when the compiler flags enable every
// AVX3_DL feature (e.g. -march=native on Sapphire Rapids or Zen 4), because detect_targets.h
// tests an undefined HWY_BASELINE instead of HWY_BASELINE_TARGETS and so drops AVX3_DL from
// the attainable targets even though it is the static one. Asking for it then makes the static
// target usable and changes nothing for other flags.
//
// A user who defines HWY_WANT_AVX3_DL keeps their setting.
#if !defined(HWY_WANT_AVX3_DL)
#if !NNHAL_SIMD_STATIC_DISPATCH
#define HWY_WANT_AVX3_DL 1
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) &&       \
    defined(__AVX512VL__) && defined(__AVXVNNI__) && defined(__VAES__) &&             \
    defined(__VPCLMULQDQ__) && defined(__AVX512VBMI__) && defined(__AVX512VBMI2__) && \
    defined(__AVX512VPOPCNTDQ__) && defined(__AVX512BITALG__)
#define HWY_WANT_AVX3_DL 1
#endif
#endif

#include <hwy/highway.h>

#include "nnhal/simd/hwy_abort.hpp"
