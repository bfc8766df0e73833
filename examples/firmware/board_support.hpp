// What both programs of examples/firmware build on the board's functions (board.h): the board's
// nnhal::Clock, printing through nnhal's formatter, and heap-allocation counts.
#pragma once

#include <chrono>
#include <cstdarg>
#include <cstdint>

#include "board.h"
#include "nnhal/core/format.hpp"
#include "nnhal/exec/clock.hpp"

// Each program is a single file, and in an unnamed namespace these have internal linkage: the
// compiler may then specialise nnhal's executor for TickClock within the program (firmware.elf
// has 512 bytes less text than with external linkage).
namespace firmware {
namespace {

/// The nnhal::Clock of this board: milliseconds of the SysTick counter. The device and the
/// executor read it for deadlines, loop timeouts and timings. Differences of the wrapping 32-bit
/// counter are taken as signed, which is right for intervals under 2^31 ms.
struct TickClock {
  struct time_point {
    std::uint32_t ticks;
    friend std::chrono::nanoseconds operator-(time_point a, time_point b) noexcept {
      return std::chrono::milliseconds(static_cast<std::int32_t>(a.ticks - b.ticks));
    }
  };
  time_point now() const noexcept { return {board_ticks()}; }
};
static_assert(nnhal::Clock<TickClock>);

/// printf to the board's console, one line of at most 159 characters, formatted by nnhal's own
/// formatter (nnhal/core/format.hpp), which nnhal's messages use already: newlib-nano's printf
/// has no %zu, %lld or floating point, and linking it too would only add code.
void print(const char* format, ...) __attribute__((format(printf, 1, 2)));
void print(const char* format, ...) {
  char line[160];
  va_list args;
  va_start(args, format);
  nnhal::vformat(line, sizeof line, format, args);
  va_end(args);
  board_write(line);
}

/// Heap allocations since the last call; -1 when the board does not count them.
struct AllocationCounter {
  long last = board_allocations();
  long since_last() {
    const long now = board_allocations();
    if (now < 0) return -1;
    const long made = now - last;
    last = now;
    return made;
  }
};

/// An allocation count as text ("not counted" for -1).
struct CountText {
  char text[24];
  explicit CountText(long count) {
    if (count < 0)
      nnhal::format(text, sizeof text, "not counted");
    else
      nnhal::format(text, sizeof text, "%ld", count);
  }
};

}  // namespace
}  // namespace firmware
