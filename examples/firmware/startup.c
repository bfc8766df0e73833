/* Start-up code and board support for QEMU's mps2-an500 (Cortex-M7, FPv5 double-precision FPU):
 * the vector table, Reset_Handler, a 1 ms SysTick, Arm semihosting output and exit, the heap for
 * newlib's malloc and a count of heap allocations.
 *
 * Semihosting is done here in a few lines (SYS_WRITE0 and SYS_EXIT_EXTENDED through `bkpt 0xab`)
 * rather than with newlib's rdimon specs: rdimon brings its own crt0 and a file-handle layer
 * (open/close/fstat/isatty over semihosting, initialise_monitor_handles) that this program does
 * not use; it only writes finished strings and exits. Measured with this program: rdimon makes
 * text 4.2 KB and bss 176 bytes larger (both pass the exit status on to QEMU). */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

/* ---- Semihosting ------------------------------------------------------------------------- */

enum {
  SYS_WRITE0 = 0x04,
  SYS_EXIT_EXTENDED = 0x20,
  ADP_Stopped_ApplicationExit = 0x20026,
};

/* A semihosting call: the operation in r0, its argument in r1, `bkpt 0xab` (Thumb), result in r0. */
static int semihosting_call(int operation, const void* argument) {
  register int r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void board_write(const char* text) { semihosting_call(SYS_WRITE0, text); }

void board_exit(int code) {
  /* SYS_EXIT_EXTENDED passes the exit status on (plain SYS_EXIT on AArch32 only says "success"
   * or "failure"); QEMU's -semihosting makes it qemu-system-arm's own exit code. */
  const uint32_t block[2] = {ADP_Stopped_ApplicationExit, (uint32_t)code};
  semihosting_call(SYS_EXIT_EXTENDED, block);
  for (;;) __asm__ volatile("wfi");  /* not reached under a semihosting debugger */
}

const char* board_name(void) { return "mps2-an500 (Cortex-M7, QEMU)"; }

/* ---- SysTick: a 1 ms tick ---------------------------------------------------------------- */

/* QEMU models the MPS2 boards' SYSCLK, which drives the Cortex-M CPU clock input of SysTick, at
 * 25 MHz (its 1 MHz reference clock is the other source). QEMU's timers follow the host's
 * clock, so a tick is a millisecond of real time, not of emulated cycles. */
#define CPU_CLOCK_HZ 25000000u
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CLKSOURCE_CPU 4u

static volatile uint32_t ticks;

void SysTick_Handler(void) { ticks = ticks + 1; }

uint32_t board_ticks(void) { return ticks; }

static void start_systick(void) {
  SYST_RVR = CPU_CLOCK_HZ / 1000u - 1u;
  SYST_CVR = 0;
  SYST_CSR = SYST_CSR_CLKSOURCE_CPU | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

/* ---- Heap: newlib's malloc grows it with _sbrk; the linker script places it ----------------- */

extern char __heap_start[], __heap_end[];

static char* heap_top = __heap_start;

void* _sbrk(ptrdiff_t increment) {
  char* top = heap_top;
  if (increment > __heap_end - top || increment < __heap_start - top) {
    errno = ENOMEM;
    return (void*)-1;
  }
  heap_top = top + increment;
  return top;
}

long board_heap_bytes(void) { return heap_top - __heap_start; }

/* Every malloc, calloc and realloc in the program (operator new's too) goes through these
 * (linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc). */
static volatile long allocations;
void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* p, size_t size);
void* __wrap_malloc(size_t size) {
  allocations = allocations + 1;
  return __real_malloc(size);
}
void* __wrap_calloc(size_t count, size_t size) {
  allocations = allocations + 1;
  return __real_calloc(count, size);
}
void* __wrap_realloc(void* p, size_t size) {
  allocations = allocations + 1;
  return __real_realloc(p, size);
}
long board_allocations(void) { return allocations; }

/* ---- The system calls newlib's abort() needs (raise -> _kill; then _exit) ------------------- */

void _exit(int code) { board_exit(code); }
int _getpid(void) { return 1; }
int _kill(int pid, int signal) {
  (void)pid;
  board_write("firmware: abort\n");
  board_exit(128 + signal);
}

/* ---- Reset and the vector table ---------------------------------------------------------- */

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);
extern char __stack_top[];
int main(void);

#define CPACR (*(volatile uint32_t*)0xE000ED88u)

void Reset_Handler(void) {
  /* Full access to the FPU (coprocessors 10 and 11) before any floating-point instruction. */
  CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");

  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;) *dst++ = *src++;
  for (uint32_t* dst = __bss_start; dst < __bss_end;) *dst++ = 0;

  start_systick();
  for (void (**ctor)(void) = __init_array_start; ctor < __init_array_end; ++ctor) (*ctor)();
  board_exit(main());
}

/* Any fault or unexpected interrupt: say so and exit with 99, so that a crash fails the run
 * at once instead of hanging until the time limit. */
void Default_Handler(void) {
  board_write("firmware: fault or unexpected interrupt\n");
  board_exit(99);
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))__stack_top,  /* initial stack pointer */
    Reset_Handler,
    Default_Handler,  /* NMI */
    Default_Handler,  /* HardFault */
    Default_Handler,  /* MemManage */
    Default_Handler,  /* BusFault */
    Default_Handler,  /* UsageFault */
    0, 0, 0, 0,       /* reserved */
    Default_Handler,  /* SVCall */
    Default_Handler,  /* DebugMonitor */
    0,                /* reserved */
    Default_Handler,  /* PendSV */
    SysTick_Handler,
};
