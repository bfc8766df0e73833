/* What main.cpp needs from the board: a millisecond tick counter, text output, an exit code and a
 * count of heap allocations. startup.c implements it for QEMU's mps2-an500 (Cortex-M7) with
 * SysTick and Arm semihosting; board_host.cpp implements it for a hosted build (the top-level
 * project builds the .cpp files of every examples/ folder as a host program too). */
#ifndef NNHAL_FIRMWARE_BOARD_H
#define NNHAL_FIRMWARE_BOARD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Milliseconds since start-up; wraps around after 2^32 ms. */
uint32_t board_ticks(void);
/* Writes a NUL-terminated string to the console. */
void board_write(const char* text);
/* Ends the program with `code` as its exit status (0: success). */
void board_exit(int code) __attribute__((noreturn));
/* Heap allocations (malloc, calloc, realloc) made so far; -1 when the board does not count them. */
long board_allocations(void);
/* Bytes the heap has taken from RAM so far (newlib's malloc never gives them back); -1 when the
 * board does not know. */
long board_heap_bytes(void);
/* The board's name, printed once. */
const char* board_name(void);

#ifdef __cplusplus
}
#endif

#endif
