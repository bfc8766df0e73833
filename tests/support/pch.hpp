#pragma once
// The doctest suite's precompiled header: the light umbrella (no kernels) and the promise that
// the default kernel set and the executor of the default clock are compiled once, in
// tests/support/all_kernels.cpp. A test file compiles only the kernels it includes itself (its
// operation family's), so the suite's build does not grow with every kernel nnhal adds.
#include "nnhal/nnhal.hpp"

NNHAL_EXTERN_KERNEL_SET(nnhal::AllKernels);
NNHAL_EXTERN_EXECUTION(nnhal::SteadyClock);
