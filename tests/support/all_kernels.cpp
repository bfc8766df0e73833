// The one file of the doctest suite that compiles the default kernel set (for the tests that run
// whole models through it) and the executor of the default clock.
#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"

NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels);
NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);
