#pragma once
/// \file
/// Compile-time configuration of nnhal. Every macro here may be defined by the user before the
/// first nnhal include (or on the command line) to override the default.

#include <cstdlib>

/// Debug check used inside the library for internal invariants (never for untrusted input,
/// which is always validated and reported as an error value). Override to route it to your
/// own assertion handler; the default is active only when NDEBUG is not defined.
#ifndef NNHAL_ASSERT
#ifdef NDEBUG
#define NNHAL_ASSERT(cond) ((void)0)
#else
#define NNHAL_ASSERT(cond) ((cond) ? (void)0 : ::std::abort())
#endif
#endif

/// Largest tensor rank the executor handles. Shapes live inline (no heap), so this bounds the
/// size of every runtime operand record. Models with a larger rank are rejected at prepare time.
#ifndef NNHAL_MAX_RANK
#define NNHAL_MAX_RANK 8
#endif

/// 1 (the default): every nnhal::Error carries a message naming what failed. 0 (images where
/// code size matters more, as in examples/firmware): errors carry their ErrorStatus only, and
/// the message texts, their formatting at each place that reports an error, and the tables that
/// only messages use (operation and type names) are left out of the program. Error::message()
/// is then empty. The statuses are the same in both modes.
#ifndef NNHAL_ERROR_MESSAGES
#define NNHAL_ERROR_MESSAGES 1
#endif

/// Capacity of the inline message buffer of nnhal::Error (bytes, including the terminator).
/// 1 when NNHAL_ERROR_MESSAGES is 0.
#ifndef NNHAL_ERROR_MESSAGE_CAPACITY
#if NNHAL_ERROR_MESSAGES
#define NNHAL_ERROR_MESSAGE_CAPACITY 256
#else
#define NNHAL_ERROR_MESSAGE_CAPACITY 1
#endif
#endif

/// Deepest nesting of IF/WHILE subgraph references a model may have. The executor recurses
/// once per nesting level, so this bounds its stack use; deeper models are rejected at prepare
/// time with a clear error rather than risking the stack.
#ifndef NNHAL_MAX_CONTROL_FLOW_DEPTH
#define NNHAL_MAX_CONTROL_FLOW_DEPTH 256
#endif

/// 1: the device layer offers asynchronous execution, fenced execution that waits on pending
/// fences, and releasing idle execution memory in the background; they use threads (a small
/// worker pool per Device). 0 (embedded builds without threads): those parts are left out, and
/// so is nnhal::ThreadPool (nnhal/exec/thread_pool.hpp); synchronous and burst execution and
/// fenced execution on already signalled fences remain.
#ifndef NNHAL_ASYNC
#define NNHAL_ASYNC 1
#endif

/// How nnhal's SIMD kernels (include/nnhal/simd/) pick their Highway target.
/// 0 (dynamic): the kernels are compiled for the compiler flags' target (HWY_STATIC_TARGET) and
/// for every better target in NNHAL_SIMD_DYNAMIC_TARGETS that Highway can attain, and the
/// best one the CPU supports is chosen once per process at run time. A program built for
/// baseline x86-64 then still runs AVX2 or AVX-512 code where the CPU has it.
/// 1 (static): only HWY_STATIC_TARGET is compiled and used; no CPU detection and no static
/// variable at all. For firmware (on Cortex-M neither Highway's run-time dispatch nor
/// __builtin_cpu_supports exists), and for programs that only run where they were built.
/// Default: dynamic on x86 with g++ or clang, static everywhere else.
#ifndef NNHAL_SIMD_STATIC_DISPATCH
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define NNHAL_SIMD_STATIC_DISPATCH 0
#else
#define NNHAL_SIMD_STATIC_DISPATCH 1
#endif
#endif

/// With dynamic SIMD dispatch: the x86 Highway targets that may be compiled in addition to the
/// static one; those of them in Highway's HWY_TARGETS are (by default Highway's targets better
/// than the static one). Each costs compile time in every translation unit that includes a SIMD
/// kernel. HWY_SSSE3 (for x86 CPUs without SSE4.2) may be added.
#ifndef NNHAL_SIMD_DYNAMIC_TARGETS
#define NNHAL_SIMD_DYNAMIC_TARGETS (HWY_SSE4 | HWY_AVX2 | HWY_AVX3 | HWY_AVX3_DL)
#endif
