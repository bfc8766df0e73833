// The default kernel set (every kernel) and the default clock's executor, compiled once for the
// project's own programs (the doctest suite, the conformance runner, the tools, the benchmarks
// and the examples that run the default set; CMake's nnhal_default_kernels). This file compiles
// the set's table, preparation and the executor; the kernels of each operation are compiled in
// the part files (part.cpp, once per part), so that they build in parallel. Users write the same
// in one file: examples/two_files/kernels.cpp.
#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"

#define NNHAL_DEFAULT_KERNELS_EXTERN(name, code) NNHAL_EXTERN_KERNELS_OF(name);
NNHAL_OPERATION_TYPES(NNHAL_DEFAULT_KERNELS_EXTERN)
#undef NNHAL_DEFAULT_KERNELS_EXTERN

NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels);
NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);
