// One more target pass of nnhal/simd/dispatch.hpp: gives Highway's ops for the HWY_TARGET the
// includer has just defined and compiles nnhal/simd/base-inl.h for it. Included by
// dispatch.hpp only, once per extra target (it has no include guard on purpose).

// nnhal's shared -inl files toggle on their own macro, so each pass admits them exactly once
// whatever Highway's toggle does.
#ifdef NNHAL_SIMD_TARGET_TOGGLE
#undef NNHAL_SIMD_TARGET_TOGGLE
#else
#define NNHAL_SIMD_TARGET_TOGGLE
#endif

#if defined(HIGHWAY_HWY_FOREACH_TARGET_H_) && (HWY_TARGETS & HWY_TARGET)
// Highway's own foreach_target.h has run in this translation unit (user code before nnhal's
// headers), so Highway's ops for this target exist already and must not be defined twice:
// only switch the per-target macros (HWY_NAMESPACE, HWY_ATTR, ...) to HWY_TARGET; that file
// sets them on every include.
#include <hwy/ops/set_macros-inl.h>
#else
// A new phase of Highway's toggled include guards: <hwy/highway.h>, included by base-inl.h,
// then defines Highway's ops for HWY_TARGET (hwy::HWY_NAMESPACE) and its per-target macros.
#ifdef HWY_TARGET_TOGGLE
#undef HWY_TARGET_TOGGLE
#else
#define HWY_TARGET_TOGGLE
#endif
#endif

#include "nnhal/simd/base-inl.h"
