# Functions of tools/test.sh (sourced by it, and by tests/cmake/ci_lib_test.sh): the stages of a
# CI run. They use `jobs`, `summaries` and `failed`, which the caller sets.

banner() { printf '\n==== %s ====\n' "$*"; }
seconds() { date +%s; }

# ctest_stage NAME BUILD_DIR: runs ctest and keeps its summary (from "N% tests passed" on).
ctest_stage() {
  local name=$1 dir=$2 log rc=0
  log=$(mktemp)
  ctest --test-dir "$dir" --output-on-failure -j"$jobs" 2>&1 | tee "$log" || rc=$?
  summaries+=("[$name]" "$(sed -n '/tests passed, /,$p' "$log")")
  rm -f "$log"
  if [[ $rc -ne 0 ]]; then failed+=("$name: ctest"); fi
}

# Ninja when it is installed (tools/install-deps.sh installs it), unless the build folder was
# already configured with another generator.
generator_args() {
  local dir=$1
  if [[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    echo "-G Ninja"
  fi
}

# slowest_steps BUILD_DIR: the ten build steps that took longest (Ninja builds only).
slowest_steps() {
  local log=$1/.ninja_log
  [[ -f "$log" ]] || return 0
  echo "slowest build steps (seconds, wall):"
  # sed reads all of sort's output: with `head`, sort could die of SIGPIPE, and under pipefail
  # the stage would then have counted as failed to build and skipped its tests.
  awk 'NR > 1 { printf "%8.1f  %s\n", ($2 - $1) / 1000, $4 }' "$log" | sort -rn | sed -n '1,10p'
}

# build_stage NAME BUILD_DIR CONFIGURE_ARGS...: configures and builds; a failure is recorded.
build_stage() {
  local name=$1 dir=$2
  shift 2
  local start
  start=$(seconds)
  banner "$name: configure ($dir)"
  # shellcheck disable=SC2046  # word splitting of the generator arguments is intended
  if ! cmake -S . -B "$dir" $(generator_args "$dir") "$@"; then
    failed+=("$name: configure")
    return 1
  fi
  banner "$name: build"
  if ! cmake --build "$dir" -j"$jobs"; then
    failed+=("$name: build")
    return 1
  fi
  echo "$name: configured and built in $(( $(seconds) - start )) s"
  slowest_steps "$dir" || true  # a listing, not a check: it must not decide whether tests run
  return 0
}
