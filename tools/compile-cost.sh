#!/usr/bin/env bash
# Measures what nnhal costs its users at build time: for each case below, the CPU seconds
# (user + sys) and peak memory of compiling ONE translation unit to an object file, and for the
# cases that link, the .text size of the linked executable. Prints a Markdown table.
#
#   tools/compile-cost.sh [SOURCE_ROOT]
#
# SOURCE_ROOT defaults to the checkout this script lives in; give another one (e.g. an older
# worktree) to measure it with the same script. A case whose file is absent there is reported
# as such. Environment:
#   NNHAL_COST_CXXS      compilers to use (default: "g++ clang++", those installed)
#   NNHAL_COST_MARCH     -march value (default: native; empty: no -march)
#   NNHAL_COST_CXXFLAGS  extra flags, e.g. -I for dependencies outside the system include path
# See docs/compile-cost.md.
set -euo pipefail

# name | source relative to the root | link (yes/no) | note
cases=(
  "include_only|tools/compile-cost/include_only.cpp|no|"
  "op_subset|examples/op_subset.cpp|yes|"
  "full_set|examples/demo.cpp|yes|"
  "full_set_second_file|examples/two_files/main.cpp|no|"
  "add_model_old_api|tools/compile-cost/add_model_old_api.cpp|yes|before only"
)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "${1:-$repo}" && pwd)
march=${NNHAL_COST_MARCH-native}
flags=(-std=c++20 -O2 -DHWY_DISABLE_PCLMUL_AES "-I$root/include")
if [[ -n $march ]]; then flags+=("-march=$march"); fi
read -r -a extra <<<"${NNHAL_COST_CXXFLAGS:-}"
flags+=("${extra[@]}")

cxxs=()
for cxx in ${NNHAL_COST_CXXS:-g++ clang++}; do
  if command -v "$cxx" >/dev/null; then cxxs+=("$cxx"); else echo "skipping $cxx: not found" >&2; fi
done
if [[ ${#cxxs[@]} -eq 0 ]]; then echo "no compiler found" >&2; exit 1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure OUT CMD...: runs CMD, writes "user_s sys_s maxrss_KiB" to OUT, returns CMD's status.
if [[ -x /usr/bin/time ]]; then
  timer="/usr/bin/time"
  measure() { local out=$1; shift; /usr/bin/time -f '%U %S %M' -o "$out" "$@"; }
else
  timer="python3 resource.getrusage(RUSAGE_CHILDREN) (no /usr/bin/time)"
  measure() {
    python3 -c 'import resource as r, subprocess as s, sys
c = s.call(sys.argv[2:]); u = r.getrusage(r.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{u.ru_utime} {u.ru_stime} {u.ru_maxrss}\n"); sys.exit(c)' "$@"
  }
fi

rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")
if [[ -n $(git -C "$root" status --porcelain 2>/dev/null) ]]; then rev+=" + uncommitted changes"; fi
echo "Source root: \`$root\` ($rev)"
echo
echo "Flags: \`${flags[*]/#-I$root/-I<root>}\`; timing: $timer"
for cxx in "${cxxs[@]}"; do echo "- $cxx: $("$cxx" --version | head -n1)"; done
echo
echo "| case | compiler | CPU s (user+sys) | peak MiB | .text KiB | note |"
echo "|---|---|---:|---:|---:|---|"

row() { echo "| $name | $cxx | $1 | $2 | $3 | $4 |"; }
unexpected=0
for entry in "${cases[@]}"; do
  IFS='|' read -r name src link note <<<"$entry"
  for cxx in "${cxxs[@]}"; do
    if [[ ! -f $root/$src ]]; then row "n/a (absent)" "" "" "$note"; continue; fi
    obj=$tmp/$name.o
    if ! measure "$tmp/rusage" "$cxx" "${flags[@]}" -c "$root/$src" -o "$obj" 2>"$tmp/log"; then
      if [[ $note == "before only" ]]; then
        row "fails (API changed)" "" "" "$note"
      else
        row "fails (compile error)" "" "" "$note"; unexpected=1
        echo "$name with $cxx:" >&2; head -n 20 "$tmp/log" >&2
      fi
      continue
    fi
    read -r user sys rss <"$tmp/rusage"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
    mib=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
    text=""
    if [[ $link == yes ]]; then
      if "$cxx" "${flags[@]}" "$obj" -o "$tmp/$name" -pthread 2>"$tmp/log"; then
        text=$(size -A "$tmp/$name" | awk '$1 == ".text" { printf "%.1f", $2 / 1024 }')
      else
        text="link fails"; unexpected=1; head -n 20 "$tmp/log" >&2
      fi
    fi
    row "$cpu" "$mib" "$text" "$note"
  done
done
exit "$unexpected"
