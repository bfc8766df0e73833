#pragma once
/// \file
/// The one way nnhal's SIMD kernels include Highway: static dispatch (the target follows from
/// the compiler flags, e.g. -march), plus the weak `hwy::Abort` for debug builds.
///
/// Kernels live in `namespace nnhal::HWY_NAMESPACE` (one namespace per target, so two
/// translation units built with different -march never share a kernel through the linker) and
/// are called through HWY_STATIC_DISPATCH from thin inline functions in `nnhal::simd`. Those
/// wrappers (like every other inline function of a header-only library) are still merged by
/// the linker, so build all translation units of one program with the same target flags.

// Highway 1.0.3 stops with "#error Logic error: best baseline should be included in dynamic
// targets" when the compiler flags enable every AVX3_DL feature (e.g. -march=native on Ice Lake
// or Sapphire Rapids): detect_targets.h tests an undefined HWY_BASELINE instead of
// HWY_BASELINE_TARGETS, so AVX3_DL is left out of the attainable targets unless the user asks
// for it. Asking for it in exactly that case makes the static target (AVX3_DL) usable and
// changes nothing for other flags. A user who defines HWY_WANT_AVX3_DL keeps their setting.
#if !defined(HWY_WANT_AVX3_DL) && defined(__AVX512F__) && defined(__AVX512BW__) &&                 \
    defined(__AVX512DQ__) && defined(__AVX512VL__) && defined(__AVXVNNI__) && defined(__VAES__) && \
    defined(__VPCLMULQDQ__) && defined(__AVX512VBMI__) && defined(__AVX512VBMI2__) &&              \
    defined(__AVX512VPOPCNTDQ__) && defined(__AVX512BITALG__)
#define HWY_WANT_AVX3_DL 1
#endif

#include <hwy/highway.h>

#include "nnhal/simd/hwy_abort.hpp"
