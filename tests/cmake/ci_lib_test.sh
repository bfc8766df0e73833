#!/usr/bin/env bash
# ctest ci_lib: the stage functions of tools/test.sh under the script's own `set -euo pipefail`.
# Regression: slowest_steps piped sort into head; on a long .ninja_log sort died of SIGPIPE, the
# pipeline failed, build_stage returned non-zero after a successful build, and test.sh skipped
# that stage's ctest without recording a failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
jobs=1
summaries=()
failed=()
source tools/test_lib.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A .ninja_log of 50,000 steps (a few MB of sorted output, far more than a pipe holds).
{
  echo "# ninja log v5"
  awk 'BEGIN { for (i = 0; i < 50000; ++i) printf "%d\t%d\t0\tobj/step%d.o\t0\n", i, i + (i * 7919) % 100000, i }'
} > "$work/.ninja_log"

out=$(slowest_steps "$work") || { echo "FAIL: slowest_steps returned $? on a long log"; exit 1; }
lines=$(printf '%s\n' "$out" | wc -l)
[[ $lines -eq 11 ]] || { echo "FAIL: slowest_steps printed $lines lines, expected a title and 10 steps"; exit 1; }
first=$(printf '%s\n' "$out" | sed -n '2p' | awk '{print $1}')
[[ $first == "100.0" ]] || { echo "FAIL: the slowest step took $first s, expected 100.0"; exit 1; }

# build_stage on a trivial CMake project: a successful build returns 0 and records nothing.
mkdir -p "$work/src"
printf 'cmake_minimum_required(VERSION 3.21)\nproject(t NONE)\n' > "$work/src/CMakeLists.txt"
(cd "$work/src" && build_stage tiny "$work/build" > "$work/stage.log" 2>&1) || {
  echo "FAIL: build_stage returned non-zero for a project that builds"; cat "$work/stage.log"; exit 1; }
echo "ci_lib: slowest_steps and build_stage behave under pipefail"
