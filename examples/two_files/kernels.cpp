// The one file of the two_files program that compiles the default kernel set (its kernels,
// validation and preparation) and the executor of the default clock.
#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"

NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels);
NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);
