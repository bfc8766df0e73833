#!/usr/bin/env bash
# Builds nnhal and runs all of its tests:
#   1. build/       Release: every target (tests, conformance runner, header/static/compile-fail/
#                   embedded checks, examples, benchmarks) and every ctest test;
#   2. build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer in a Debug build (-O0 -g,
#                   assertions on): the doctest suite (in one process), the conformance runner
#                   over V1_0 and V1_3_cts_only (the whole corpus takes minutes there), 20
#                   random graphs (nnhal_random_graphs, without the family kernel sets, which
#                   the release stage checks) and the examples.
#                   -O0 because sanitizers at -O1 make the test files compile about 5x slower.
#   3. build-tsan/  ThreadSanitizer: the device concurrency stress test (nnhal_stress) only;
#   4. build-fuzz/  clang's libFuzzer targets (tests/fuzz) with ASan + UBSan, 60 s each from seeds
#                   generated at test time (tools/fuzz.sh; tools/fuzz.sh SECONDS for a campaign).
# Both builds compile the doctest suite in per-folder groups (NNHAL_UNITY_TESTS): about half the
# compile time of one file at a time. Exits non-zero if any step fails. NNHAL_JOBS sets the parallelism (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs=${NNHAL_JOBS:-2}
summaries=()
failed=()
# shellcheck source=tools/test_lib.sh
source tools/test_lib.sh

total_start=$(seconds)

if build_stage release build -DCMAKE_BUILD_TYPE=Release -DNNHAL_UNITY_TESTS=ON; then
  banner "release: ctest"
  ctest_stage release build
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if build_stage sanitizers build-asan \
    -DCMAKE_BUILD_TYPE=Debug -DNNHAL_UNITY_TESTS=ON \
    -DNNHAL_SANITIZE=address,undefined \
    -DNNHAL_BUILD_CHECKS=OFF -DNNHAL_BUILD_BENCH=OFF -DNNHAL_DOCTEST_PER_CASE=OFF \
    "-DNNHAL_CTS_SUITES=V1_0;V1_3_cts_only" \
    -DNNHAL_RANDOM_GRAPHS_SEEDS=1 -DNNHAL_RANDOM_GRAPHS_COUNT=20 -DNNHAL_RANDOM_GRAPHS_REPLAY=OFF \
    -DNNHAL_RANDOM_GRAPHS_FAMILY_SETS=OFF; then
  banner "sanitizers: ctest"
  ctest_stage sanitizers build-asan
fi

# ThreadSanitizer: the concurrency stress test alone (every execution mode at once on one device).
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
tsan_start=$(seconds)
banner "thread sanitizer: configure and build (build-tsan, nnhal_stress only)"
# shellcheck disable=SC2046
if cmake -S . -B build-tsan $(generator_args build-tsan) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNNHAL_SANITIZE=thread \
      -DNNHAL_BUILD_CHECKS=OFF -DNNHAL_BUILD_BENCH=OFF -DNNHAL_BUILD_EXAMPLES=OFF \
      -DNNHAL_DOCTEST_PER_CASE=OFF &&
    cmake --build build-tsan -j"$jobs" --target nnhal_stress; then
  echo "thread sanitizer: built in $(( $(seconds) - tsan_start )) s"
  log=$(mktemp)
  rc=0
  ctest --test-dir build-tsan -R '^device_stress$' --output-on-failure 2>&1 | tee "$log" || rc=$?
  summaries+=("[thread sanitizer]" "$(sed -n '/tests passed, /,$p' "$log")")
  rm -f "$log"
  if [[ $rc -ne 0 ]]; then failed+=("thread sanitizer: ctest"); fi
else
  failed+=("thread sanitizer: build")
fi

# libFuzzer targets (tests/fuzz) with ASan + UBSan for 60 s each (NNHAL_FUZZ_SECONDS overrides),
# from seed corpora generated now; skipped (passes) when no clang++ links -fsanitize=fuzzer.
fuzz_start=$(seconds)
banner "fuzz: build-fuzz, every libFuzzer target"
if tools/fuzz.sh 60; then
  summaries+=("[fuzz]" "passed in $(( $(seconds) - fuzz_start )) s")
else
  failed+=("fuzz")
fi

banner "summary"
printf '%s\n' "${summaries[@]}"
echo "total time: $(( $(seconds) - total_start )) s"
if [[ ${#failed[@]} -ne 0 ]]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all stages passed"
