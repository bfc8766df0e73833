// nnhal::simd::chosen() and compiled_targets() (include/nnhal/simd/dispatch.hpp): the target
// descriptions are consistent with Highway, the list holds exactly the compiled targets this
// CPU can run, best first, chosen() is the best of them, and a family's accessor returns that
// target's table (simd::pick). On Linux x86 the CPU's features come from
// /proc/cpuinfo, independently of the CPUID checks the dispatcher makes.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "nnhal/simd/dispatch.hpp"
#include "nnhal/simd/elementwise_f32.hpp"
#include "nnhal/simd/fully_connected_f32.hpp"
#include "nnhal/simd/target.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace simd = nnhal::simd;

/// The "flags" line of /proc/cpuinfo as a set of words; empty if there is none.
std::set<std::string> cpuinfo_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> flags;
    for (std::string w; words >> w;) flags.insert(w);
    return flags;
  }
  return {};
}

/// Whether the Linux CPU flags cover what Highway compiles an x86 target with (the kernel
/// lists AVX and AVX-512 features only when it saves their registers).
bool flags_support(const std::set<std::string>& f, std::int64_t target) {
  auto all = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (f.count(n) == 0) return false;
    return true;
  };
  const bool ssse3 = all({"ssse3"});
  bool sse4 = ssse3 && all({"sse4_1", "sse4_2"});
#ifndef HWY_DISABLE_PCLMUL_AES
  sse4 = sse4 && all({"aes", "pclmulqdq"});
#endif
  bool avx2 = sse4 && all({"avx", "avx2"});
#ifndef HWY_DISABLE_BMI2_FMA
  avx2 = avx2 && all({"bmi1", "bmi2", "fma"});
#endif
#ifndef HWY_DISABLE_F16C
  avx2 = avx2 && all({"f16c"});
#endif
  const bool avx3 = avx2 && all({"avx512f", "avx512vl", "avx512dq", "avx512bw"});
  const bool avx3_dl = avx3 && all({"vpclmulqdq", "avx512vbmi", "avx512_vbmi2", "avx512_bitalg",
                                    "avx512_vpopcntdq", "vaes", "avx_vnni"});
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

/// Float lanes Highway gives each fixed-width target.
std::size_t expected_lanes(std::int64_t target) {
  switch (target) {
    case HWY_AVX3_DL:
    case HWY_AVX3:
      return 16;
    case HWY_AVX2:
      return 8;
    case HWY_SCALAR:
      return 1;
    default:
      return 4;  // SSE4, SSSE3, EMU128, NEON, WASM
  }
}

}  // namespace

TEST_CASE("simd::compiled_targets: best first, the static target included, tables consistent") {
  const std::span<const simd::TargetInfo> targets = simd::compiled_targets();
  REQUIRE(!targets.empty());
  bool has_static = false;
  std::int64_t previous = 0;
  for (const simd::TargetInfo& t : targets) {
    const std::string target = t.name;
    CAPTURE(target);
    CHECK((simd::kCompiledTargets & t.target) == t.target);
    CHECK(std::strcmp(t.name, hwy::TargetName(t.target)) == 0);
    CHECK(t.target > previous);  // on x86 a lower bit is a better target; no duplicates
    previous = t.target;
    has_static = has_static || t.target == HWY_STATIC_TARGET;
    if (!HWY_HAVE_SCALABLE) CHECK(t.lanes_f32() == expected_lanes(t.target));
    // Each family has this target's table, distinct from every other target's.
    CHECK((simd::elementwise_f32<simd::BinaryOp::Add>(t.target).binary != nullptr));  // (doctest cannot
    CHECK((simd::elementwise_f32<simd::BinaryOp::Add>(t.target).binary_scalar_first != nullptr));  // print fn ptrs)
    CHECK((simd::fully_connected_f32_table(t.target).run != nullptr));
    for (const simd::TargetInfo& other : targets)
      if (other.target != t.target)
        CHECK((&simd::elementwise_f32<simd::BinaryOp::Add>(t.target) !=
               &simd::elementwise_f32<simd::BinaryOp::Add>(other.target)));
  }
  CHECK(has_static);
  MESSAGE("compiled targets this CPU runs: ", [&] {
    std::string names;
    for (const simd::TargetInfo& t : targets) names += std::string(names.empty() ? "" : " ") + t.name;
    return names;
  }());
}

TEST_CASE("simd::chosen picks the best supported compiled target, once") {
  const simd::TargetInfo& chosen = simd::chosen();
  CHECK(&simd::chosen() == &chosen);  // cached: the same description on every call
  CHECK(chosen.target == simd::compiled_targets().front().target);
  CHECK(simd::chosen_target() == chosen.target);
  // A family's default table is the chosen target's.
  CHECK((&simd::elementwise_f32<simd::BinaryOp::Mul>() == &simd::elementwise_f32<simd::BinaryOp::Mul>(chosen.target)));
  CHECK((&simd::fully_connected_f32_table() == &simd::fully_connected_f32_table(chosen.target)));
  CHECK(std::strcmp(simd::target_name(), chosen.name) == 0);
  CHECK(simd::lanes_f32() == chosen.lanes_f32());

#if HWY_ARCH_X86
  const std::set<std::string> flags = cpuinfo_flags();
  if (flags.empty()) {
    MESSAGE("no /proc/cpuinfo flags: the CPU-feature cross-check is NOT RUN");
    return;
  }
  // Expected: every compiled target the flags support (and the static one, which the binary
  // already assumes), in the order of Highway's bits.
  std::vector<std::int64_t> want;
  for (int bit = 0; bit < 63; ++bit) {
    const std::int64_t target = std::int64_t{1} << bit;
    if ((simd::kCompiledTargets & target) == 0) continue;
    if (target == HWY_STATIC_TARGET || flags_support(flags, target)) want.push_back(target);
  }
  std::vector<std::int64_t> got;
  for (const simd::TargetInfo& t : simd::compiled_targets()) got.push_back(t.target);
  CHECK(got == want);
  REQUIRE(!want.empty());
  CHECK(chosen.target == want.front());
#endif
}
