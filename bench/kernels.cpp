// The one file of nnhal_bench that compiles the default kernel set and the executor of the
// default clock; the benchmark files declare them extern.
#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"

NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels);
NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);
