// board.h for a hosted build of main.cpp (the top-level project builds examples/<dir>/*.cpp as a
// host program and runs it as ctest example.firmware): the steady clock in milliseconds, stdout,
// exit(). Heap allocations are not counted here. On the board (NNHAL_FIRMWARE_BARE_METAL, set by
// examples/firmware/CMakeLists.txt) startup.c provides these instead and this file is empty.
#if !defined(NNHAL_FIRMWARE_BARE_METAL)

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "board.h"

extern "C" {

std::uint32_t board_ticks(void) {
  static const auto start = std::chrono::steady_clock::now();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  return static_cast<std::uint32_t>(ms.count());
}

void board_write(const char* text) { std::fputs(text, stdout); }

void board_exit(int code) {
  std::fflush(stdout);
  std::exit(code);
}

long board_allocations(void) { return -1; }

long board_heap_bytes(void) { return -1; }

const char* board_name(void) { return "the host (no heap allocation count)"; }

}  // extern "C"

#endif
