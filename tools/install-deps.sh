#!/usr/bin/env bash
# Installs what nnhal's build, tests and benchmarks need on Debian 12 (bookworm), skipping
# everything that is already installed. Run as root (or with sudo).
#
#   tools/install-deps.sh            install what is missing
#   tools/install-deps.sh --check    only list what is missing (exit 1 if anything is)
set -euo pipefail

packages=(
  g++              # the main compiler (g++ 12)
  clang-14         # second compiler: the embedded-profile check runs on both
  libclang-rt-14-dev  # sanitizer runtimes for clang
  cmake
  make
  ninja-build      # tools/test.sh builds with Ninja when it is installed
  python3          # tools/amalgamate.py
  libboost-dev     # Boost.Hana
  librange-v3-dev
  libhwy-dev       # Highway (headers; libhwy only with NNHAL_LINK_LIBHWY)
  doctest-dev      # tests
  nlohmann-json3-dev  # conformance runner
  libbenchmark-dev    # benchmarks
  graphviz         # dot: the test that renders nnhal_cts --dump-dot output
  gcc-arm-none-eabi               # Cortex-M7 cross compiler: examples/firmware, ctest firmware_qemu
  libnewlib-arm-none-eabi         #   its C library (newlib, newlib-nano)
  libstdc++-arm-none-eabi-newlib  #   its C++ library
  qemu-system-arm                 # runs the firmware on the emulated mps2-an500 board
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ "${1:-}" == "--check" ]]; then
  echo "install-deps: missing: ${missing[*]}"
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: run me as root (missing: ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
