#pragma once
/// \file
/// The SIMD targets nnhal compiles and the one it runs: Highway's ops for every compiled target,
/// the choice of target for this CPU (simd::chosen_target()), and the vocabulary SIMD families
/// use to offer one table of entry points per target (NNHAL_SIMD_PER_TARGET, simd::pick).
///
/// A SIMD family (nnhal/simd/elementwise_f32.hpp, nnhal/simd/fully_connected_f32.hpp, ...) is a
/// header with a table type, a per-target body in an -inl file and an accessor returning the
/// table of a target. Its header includes this one, then nnhal/simd/foreach_target-inl.h, which
/// compiles the body for every compiled target. A program compiles only the families whose
/// headers it includes.
///
/// Static dispatch (NNHAL_SIMD_STATIC_DISPATCH=1, nnhal/config.hpp; the default outside x86):
/// only HWY_STATIC_TARGET, the target of the compiler flags, is compiled; chosen_target() is a
/// constant and no CPU detection exists. This is what firmware builds get.
///
/// Dynamic dispatch (the default on x86 with g++ and clang): families are also compiled, with
/// per-function target attributes, for each target of NNHAL_SIMD_DYNAMIC_TARGETS that Highway's
/// HWY_TARGETS holds (by default the targets better than the static one). The first call of
/// chosen_target() checks the CPU (__builtin_cpu_supports plus three CPUID bits) and keeps the
/// best supported target for the rest of the process; the static target is always usable.
/// Code that prepares a kernel takes the family's table of that target once and keeps the
/// kernel pointer, so executing costs one indirect call. If the flags already give the best
/// target of NNHAL_SIMD_DYNAMIC_TARGETS (e.g. -march=native on a CPU with AVX3_DL), nothing extra
/// is compiled and chosen_target() is a constant as in static mode. Flags below it still compile
/// the better ones: -march=native on an AVX2 CPU without AVX-512 (Zen 3) compiles every family
/// for AVX3 and AVX3_DL too, since the program may run on a CPU that has them.
///
/// How the targets are compiled. Highway's per-target code relies on include guards that
/// toggle: an -inl file is processed again whenever the macro its guard compares with flips.
/// This header includes Highway for the static target where it stands (as any Highway code
/// would), then, for each extra target, sets HWY_TARGET, flips Highway's toggle and includes
/// nnhal/simd/base-inl.h (nnhal/simd/per_target-inl.h), which makes Highway define its ops for
/// that target; finally it sets Highway's per-target macros (HWY_NAMESPACE, HWY_ATTR, ...) back
/// to the static target. A family's passes later only switch those macros (Highway's ops exist
/// by then), so families can be included in any number and order.
///
/// It does this itself instead of including <hwy/foreach_target.h>, because that file has an
/// ordinary include guard: in a header-only library it would run once per translation unit, so
/// either nnhal's kernels or the user's own Highway code would silently lose their extra
/// targets, and its HWY_TARGET_INCLUDE (one global name) would be redefined under the user.
/// Highway 1.0.3's foreach_target.h also mishandles a highway.h included before it: the first
/// extra target is skipped and HWY_NAMESPACE is left at the last one. nnhal neither defines nor
/// reads HWY_TARGET_INCLUDE. The rules for a translation unit that mixes in its own Highway
/// code:
///   - plain (static-dispatch) Highway code and <hwy/highway.h> may come before or after
///     nnhal's SIMD headers;
///   - the user's own <hwy/foreach_target.h> pass (with its -inl files) must come before the
///     first nnhal SIMD header, or live in another translation unit. Highway cannot start a
///     foreach pass once highway.h has been included, and nnhal's headers include it. After
///     such a pass nnhal compiles its families for the targets that pass compiled, reusing
///     Highway's ops instead of defining them a second time.
///
/// All translation units of one program must see the same target flags (-march, HWY_* and
/// NNHAL_SIMD_* macros): the inline functions here are merged by the linker.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>

#include "nnhal/config.hpp"
#include "nnhal/simd/highway.hpp"

#if HWY_TARGET != HWY_STATIC_TARGET
#error "nnhal/simd/dispatch.hpp is being included inside a Highway per-target pass"
#endif

namespace nnhal::simd {

/// One compiled Highway target.
struct TargetInfo {
  /// Highway's name of the target: "AVX3_DL", "AVX2", "SSE4", "NEON", "SCALAR", ...
  const char* name;
  /// Highway's bit for the target (HWY_AVX2, ...); on x86 a lower value is a better target.
  std::int64_t target;
  /// Float lanes of one vector of the target (1 for SCALAR).
  std::size_t (*lanes_f32)();
};

/// A SIMD family's table of entry points for one target (see NNHAL_SIMD_PER_TARGET).
template <class Table>
struct PerTarget {
  std::int64_t target;
  const Table* table;
};

}  // namespace nnhal::simd

// The static target, where this header stands (no toggle flipped).
#include "nnhal/simd/base-inl.h"

/// Targets compiled in addition to HWY_STATIC_TARGET (dynamic dispatch on x86 only).
#if !NNHAL_SIMD_STATIC_DISPATCH && HWY_ARCH_X86
#define NNHAL_SIMD_EXTRA_TARGETS                                     \
  (HWY_TARGETS & (NNHAL_SIMD_DYNAMIC_TARGETS) & ~HWY_STATIC_TARGET & \
   (HWY_SSSE3 | HWY_SSE4 | HWY_AVX2 | HWY_AVX3 | HWY_AVX3_DL))
#else
#define NNHAL_SIMD_EXTRA_TARGETS 0
#endif

/// Every target whose code is compiled.
#define NNHAL_SIMD_COMPILED_TARGETS (NNHAL_SIMD_EXTRA_TARGETS | HWY_STATIC_TARGET)

#if NNHAL_SIMD_EXTRA_TARGETS & HWY_SSSE3
#undef HWY_TARGET
#define HWY_TARGET HWY_SSSE3
#include "nnhal/simd/per_target-inl.h"
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_SSE4
#undef HWY_TARGET
#define HWY_TARGET HWY_SSE4
#include "nnhal/simd/per_target-inl.h"
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX2
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX2
#include "nnhal/simd/per_target-inl.h"
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX3
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX3
#include "nnhal/simd/per_target-inl.h"
#endif
#if NNHAL_SIMD_EXTRA_TARGETS & HWY_AVX3_DL
#undef HWY_TARGET
#define HWY_TARGET HWY_AVX3_DL
#include "nnhal/simd/per_target-inl.h"
#endif

#if NNHAL_SIMD_EXTRA_TARGETS
// Back to the static target. Highway's toggled guards are left as the last pass consumed
// them, so a later include of <hwy/highway.h> adds nothing (as after any Highway include);
// only the per-target macros still describe the last target. set_macros-inl.h sets them from
// HWY_TARGET on every include (its own toggled guard covers nothing).
#undef HWY_TARGET
#define HWY_TARGET HWY_STATIC_TARGET
#include <hwy/ops/set_macros-inl.h>

#include <cpuid.h>  // __get_cpuid_count, for cpu_supports below
#endif

// NNHAL_SIMD_PER_TARGET(name): the initializer list of a family's tables,
// `{{HWY_AVX3_DL, &nnhal::N_AVX3_DL::name}, ...}`, one entry per compiled target, best first.
#if NNHAL_SIMD_COMPILED_TARGETS & HWY_AVX3_DL
#define NNHAL_SIMD_ENTRY_AVX3_DL_(name) {HWY_AVX3_DL, &::nnhal::N_AVX3_DL::name},
#else
#define NNHAL_SIMD_ENTRY_AVX3_DL_(name)
#endif
#if NNHAL_SIMD_COMPILED_TARGETS & HWY_AVX3
#define NNHAL_SIMD_ENTRY_AVX3_(name) {HWY_AVX3, &::nnhal::N_AVX3::name},
#else
#define NNHAL_SIMD_ENTRY_AVX3_(name)
#endif
#if NNHAL_SIMD_COMPILED_TARGETS & HWY_AVX2
#define NNHAL_SIMD_ENTRY_AVX2_(name) {HWY_AVX2, &::nnhal::N_AVX2::name},
#else
#define NNHAL_SIMD_ENTRY_AVX2_(name)
#endif
#if NNHAL_SIMD_COMPILED_TARGETS & HWY_SSE4
#define NNHAL_SIMD_ENTRY_SSE4_(name) {HWY_SSE4, &::nnhal::N_SSE4::name},
#else
#define NNHAL_SIMD_ENTRY_SSE4_(name)
#endif
#if NNHAL_SIMD_COMPILED_TARGETS & HWY_SSSE3
#define NNHAL_SIMD_ENTRY_SSSE3_(name) {HWY_SSSE3, &::nnhal::N_SSSE3::name},
#else
#define NNHAL_SIMD_ENTRY_SSSE3_(name)
#endif
#if !(HWY_STATIC_TARGET & (HWY_SSSE3 | HWY_SSE4 | HWY_AVX2 | HWY_AVX3 | HWY_AVX3_DL))
// SCALAR, EMU128 or a non-x86 target: the static one alone.
#define NNHAL_SIMD_ENTRY_OTHER_(name) {HWY_STATIC_TARGET, &::nnhal::HWY_STATIC_DISPATCH(name)},
#else
#define NNHAL_SIMD_ENTRY_OTHER_(name)
#endif
#define NNHAL_SIMD_PER_TARGET(name)                                                 \
  {                                                                                 \
    NNHAL_SIMD_ENTRY_AVX3_DL_(name) NNHAL_SIMD_ENTRY_AVX3_(name)                    \
        NNHAL_SIMD_ENTRY_AVX2_(name) NNHAL_SIMD_ENTRY_SSE4_(name)                   \
            NNHAL_SIMD_ENTRY_SSSE3_(name) NNHAL_SIMD_ENTRY_OTHER_(name)             \
  }

namespace nnhal::simd {

/// Highway bits of every target whose code this program contains (whether or not this CPU
/// can run them).
inline constexpr std::int64_t kCompiledTargets = NNHAL_SIMD_COMPILED_TARGETS;

namespace dispatch_detail {

/// Every compiled target, best first (on x86 a lower Highway bit is a better target).
inline constexpr PerTarget<TargetInfo> kCompiled[] = NNHAL_SIMD_PER_TARGET(kTargetInfo);

#if NNHAL_SIMD_EXTRA_TARGETS

/// One bit of CPUID(leaf, subleaf) register `reg` (0 EAX, 1 EBX, 2 ECX, 3 EDX), for the features
/// clang 14's __builtin_cpu_supports cannot name (f16c, vaes, avxvnni).
inline bool cpuid_bit(unsigned leaf, unsigned subleaf, int reg, unsigned bit) noexcept {
  unsigned r[4] = {0, 0, 0, 0};
  if (__get_cpuid_count(leaf, subleaf, &r[0], &r[1], &r[2], &r[3]) == 0) return false;
  return ((r[reg] >> bit) & 1u) != 0;
}

/// Whether this CPU (and OS) can run code compiled for the x86 Highway target `target`: every
/// feature in that target's HWY_TARGET_STR, the attribute its functions are compiled with.
/// __builtin_cpu_supports reports AVX and AVX-512 features only when the OS saves their
/// registers, so the CPUID bits are read only together with those.
inline bool cpu_supports(std::int64_t target) noexcept {
  __builtin_cpu_init();  // in case this runs before the runtime's own initializer
  const bool ssse3 = __builtin_cpu_supports("ssse3");
  bool sse4 = ssse3 && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2");
#ifndef HWY_DISABLE_PCLMUL_AES  // else Highway compiles SSE4 and up without AES/CLMul
  sse4 = sse4 && __builtin_cpu_supports("aes") && __builtin_cpu_supports("pclmul");
#endif
  bool avx2 = sse4 && __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2");
#ifndef HWY_DISABLE_BMI2_FMA
  avx2 = avx2 && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("fma");
#endif
#ifndef HWY_DISABLE_F16C
  avx2 = avx2 && cpuid_bit(1, 0, 2, 29);  // F16C
#endif
  const bool avx3 = avx2 && __builtin_cpu_supports("avx512f") &&
                    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                    __builtin_cpu_supports("avx512bw");
  // Highway 1.0.3 compiles AVX3_DL with vpclmulqdq, vaes, avxvnni (the VEX-encoded VNNI, not
  // AVX512-VNNI: a CPU with only the latter, such as Ice Lake, gets AVX3), VBMI, VBMI2, BITALG
  // and VPOPCNTDQ, whatever HWY_DISABLE_PCLMUL_AES says.
  const bool vaes = cpuid_bit(7, 0, 2, 9), avx_vnni = cpuid_bit(7, 1, 0, 4);
  const bool avx3_dl =
      avx3 && vaes && avx_vnni && __builtin_cpu_supports("vpclmulqdq") &&
      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
      __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("avx512vpopcntdq");
  switch (target) {
    case HWY_SSSE3:
      return ssse3;
    case HWY_SSE4:
      return sse4;
    case HWY_AVX2:
      return avx2;
    case HWY_AVX3:
      return avx3;
    case HWY_AVX3_DL:
      return avx3_dl;
    default:
      return false;
  }
}

/// The compiled targets this CPU can run, best first; the static target is always among them.
struct Supported {
  TargetInfo targets[std::size(kCompiled)];
  std::size_t count;
};

/// Checks the CPU on first use (thread-safe), then returns the same list for the whole process.
inline const Supported& supported() noexcept {
  static const Supported list = [] {
    Supported s{};
    for (const PerTarget<TargetInfo>& t : kCompiled)
      if (t.target == HWY_STATIC_TARGET || cpu_supports(t.target)) s.targets[s.count++] = *t.table;
    return s;
  }();
  return list;
}

#endif  // NNHAL_SIMD_EXTRA_TARGETS

}  // namespace dispatch_detail

#if NNHAL_SIMD_EXTRA_TARGETS

/// The best compiled target this CPU supports, chosen on the first call and the same for the
/// rest of the process.
inline const TargetInfo& chosen() noexcept {
  return dispatch_detail::supported().targets[0];
}

/// Every compiled target this CPU supports, best first (chosen() is the first). For tests and
/// benchmarks that compare targets.
inline std::span<const TargetInfo> compiled_targets() noexcept {
  const dispatch_detail::Supported& s = dispatch_detail::supported();
  return {s.targets, s.count};
}

#else  // only the static target: a constant, no CPU detection, no static variable

/// The static target (the only one compiled).
inline const TargetInfo& chosen() noexcept {
  return HWY_STATIC_DISPATCH(kTargetInfo);
}

/// The static target, the only one compiled.
inline std::span<const TargetInfo> compiled_targets() noexcept {
  return {&HWY_STATIC_DISPATCH(kTargetInfo), 1};
}

#endif  // NNHAL_SIMD_EXTRA_TARGETS

/// Highway's bit of the target this process runs (chosen()).
inline std::int64_t chosen_target() noexcept { return chosen().target; }

/// The table of `target` among a family's tables (NNHAL_SIMD_PER_TARGET, best first); the
/// first (best) one for a target that was not compiled. Families call it with chosen_target()
/// by default; tests pass each of compiled_targets() in turn.
template <class Table, std::size_t N>
constexpr const Table& pick(const PerTarget<Table> (&tables)[N], std::int64_t target) noexcept {
  for (const PerTarget<Table>& t : tables)
    if (t.target == target) return *t.table;
  return *tables[0].table;
}

}  // namespace nnhal::simd
