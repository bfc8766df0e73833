#!/usr/bin/env bash
# tools/fuzz.sh SECONDS [TARGET...]: builds the libFuzzer targets (tests/fuzz/*.cpp, ASan +
# UBSan, -O1) in build-fuzz/ with clang, generates their seed corpora, runs each target for
# SECONDS and prints its executions per second and coverage. Exits non-zero on any finding,
# keeping the crashing input and printing how to replay it. Without a clang that links
# -fsanitize=fuzzer it says so and exits 0 (nothing to run).
#
# TARGET: validate_fuzz, cache_fuzz, buffer_fuzz (default: every tests/fuzz/*.cpp).
# Environment:
#   NNHAL_FUZZ_SECONDS   overrides SECONDS (tools/test.sh passes 60);
#   NNHAL_FUZZ_CORPUS    corpus root, one folder per target, kept between runs
#                        (default ${XDG_CACHE_HOME:-$HOME/.cache}/nnhal-fuzz);
#   NNHAL_FUZZ_JOBS      targets run at once (default 2);
#   NNHAL_FUZZ_BUILD_DIR build folder (default build-fuzz);
#   NNHAL_FUZZ_CXX       the clang++ to use (default clang++, else clang++-14).
# Seeds are written at run time by the targets themselves (NNHAL_FUZZ_SEED_DIR, see each
# target's header comment) into a temporary folder: nothing is stored in the repository.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: tools/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=${NNHAL_FUZZ_SECONDS:-$1}
shift
jobs=${NNHAL_FUZZ_JOBS:-2}
build=${NNHAL_FUZZ_BUILD_DIR:-build-fuzz}
corpus_root=${NNHAL_FUZZ_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/nnhal-fuzz}
start=$(date +%s)

# The compiler: clang++ that links a libFuzzer program.
cxx=${NNHAL_FUZZ_CXX:-}
if [[ -z $cxx ]]; then
  for c in clang++ clang++-14; do
    if command -v "$c" >/dev/null 2>&1; then cxx=$c; break; fi
  done
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if [[ -z $cxx ]] || ! printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' \
    >"$probe/p.cpp" || ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" >/dev/null 2>&1; then
  echo "fuzz: no clang++ with libFuzzer (-fsanitize=fuzzer) found: skipped"
  exit 0
fi

targets=()
if [[ $# -eq 0 ]]; then
  for f in tests/fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
else
  for t in "$@"; do
    t=${t#nnhal_fuzz_}
    [[ $t == *_fuzz ]] || t=${t}_fuzz
    if [[ ! -f tests/fuzz/$t.cpp ]]; then
      echo "fuzz: no target $t (tests/fuzz/$t.cpp)" >&2
      exit 2
    fi
    targets+=("$t")
  done
fi

# Configure and build the fuzz targets only (no tests, checks, benchmarks or examples).
build_start=$(date +%s)
first=()
if [[ ! -f $build/CMakeCache.txt ]]; then
  # Only when configuring afresh: changing the compiler of a configured folder resets its cache.
  first=(-DCMAKE_CXX_COMPILER="$cxx")
  if command -v ninja >/dev/null 2>&1; then first+=(-G Ninja); fi
fi
cmake -S . -B "$build" "${first[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNNHAL_BUILD_FUZZ=ON -DNNHAL_BUILD_TESTS=ON -DNNHAL_BUILD_CHECKS=OFF -DNNHAL_BUILD_BENCH=OFF \
  -DNNHAL_BUILD_EXAMPLES=OFF -DNNHAL_BUILD_CALIBRATE=OFF -DNNHAL_INSTALL=OFF >/dev/null
build_targets=()
for t in "${targets[@]}"; do build_targets+=("nnhal_fuzz_$t"); done
# validate_fuzz's kernels are compiled in parts (nnhal_fuzz_default_kernels) that build in
# parallel; each compile takes up to about 2 GB.
cmake --build "$build" -j"$jobs" --target "${build_targets[@]}"
echo "fuzz: built ${targets[*]} in $(( $(date +%s) - build_start )) s"

# Appended: a failed allocation is an error value the targets check, not a crash.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

seeds=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$probe" "$seeds" "$logs"' EXIT

# run_target NAME: seeds, then the campaign; its log goes to $logs/NAME.log.
run_target() {
  local t=$1 bin=$build/bin/nnhal_fuzz_$1
  local corpus=$corpus_root/$t artifacts=$corpus_root/artifacts/$t
  mkdir -p "$seeds/$t" "$corpus" "$artifacts"
  if ! NNHAL_FUZZ_SEED_DIR="$seeds/$t" "$bin" >"$logs/$t.seeds" 2>&1; then
    echo "seed generation failed:" >"$logs/$t.log"
    cat "$logs/$t.seeds" >>"$logs/$t.log"
    return 1
  fi
  "$bin" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
    -artifact_prefix="$artifacts/" "$corpus" "$seeds/$t" >"$logs/$t.log" 2>&1
}

pids=()
names=()
status=0
wait_one() {
  local rc=0
  wait "${pids[0]}" || rc=$?
  report "${names[0]}" "$rc" || status=1
  pids=("${pids[@]:1}")
  names=("${names[@]:1}")
}

report() {
  local t=$1 rc=$2 log=$logs/$1.log
  local execs cov seeds_n
  execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  seeds_n=$(find "$seeds/$t" -type f | wc -l)
  printf 'fuzz: %-14s %s s, %s seed(s), exec/s %s, cov %s, corpus %s file(s) in %s\n' "$t" "$seconds" \
    "$seeds_n" "${execs:-?}" "${cov:-?}" "$(find "$corpus_root/$t" -type f | wc -l)" "$corpus_root/$t"
  if [[ $rc -ne 0 ]]; then
    echo "fuzz: $t FAILED (exit $rc); the end of its log:"
    grep -v '^"' "$log" | tail -40
    local crash
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    if [[ -n $crash ]]; then
      echo "fuzz: crash input kept: $crash"
      echo "fuzz: replay: $build/bin/nnhal_fuzz_$t $crash   (NNHAL_FUZZ_DUMP=1 prints the decoded model, validate_fuzz)"
    fi
    return 1
  fi
}

for t in "${targets[@]}"; do
  if [[ ${#pids[@]} -ge $jobs ]]; then wait_one; fi
  run_target "$t" &
  pids+=($!)
  names+=("$t")
done
while [[ ${#pids[@]} -gt 0 ]]; do wait_one; done

echo "fuzz: stage took $(( $(date +%s) - start )) s"
exit $status
