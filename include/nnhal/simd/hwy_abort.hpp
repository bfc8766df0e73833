#pragma once
/// \file
/// A weak definition of `hwy::Abort`, so that nnhal's Highway kernels link without libhwy in
/// builds where Highway's debug assertions are on.
///
/// Why: Highway's static dispatch is header-only except for `hwy::Abort`, which `HWY_DASSERT`
/// calls when `HWY_IS_DEBUG_BUILD` is 1 (CMake Debug: -O0 without NDEBUG; clang sanitizer
/// builds). Debian ships libhwy only as a shared library, and firmware has none, so such builds
/// would otherwise fail to link. The definition is weak: one copy survives however many
/// translation units include this header.
///
/// It is emitted only when `NNHAL_HWY_WEAK_ABORT` is non-zero, by default exactly in Highway
/// debug builds, so optimized builds (and firmware) never pull stdio in through it. Define
/// `NNHAL_HWY_WEAK_ABORT` to 0 to provide your own `hwy::Abort` (or link libhwy), or to 1 to
/// force this one. It prints to stderr with <cstdio> (not iostream) and calls std::abort().

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include <hwy/base.h>

#ifndef NNHAL_HWY_WEAK_ABORT
#define NNHAL_HWY_WEAK_ABORT HWY_IS_DEBUG_BUILD
#endif

#if NNHAL_HWY_WEAK_ABORT && (defined(__GNUC__) || defined(__clang__))
namespace hwy {

/// Reports a failed Highway assertion on stderr and aborts. Weak: libhwy's own definition (or
/// the application's) is used instead when one is linked in statically.
__attribute__((weak)) HWY_NORETURN void Abort(const char* file, int line, const char* format, ...) {
  std::fprintf(stderr, "Highway abort at %s:%d: ", file, line);
  std::va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace hwy
#endif
