#pragma once
// The doctest suite's precompiled header: the light umbrella (no kernels). The suite is compiled
// with NNHAL_EXTERN_DEFAULT_KERNELS=1: the default kernel set and the executor of the default
// clock are compiled once, in the nnhal_default_kernels object library it links (see the
// top-level CMakeLists.txt). A test file compiles only the kernels it includes itself (its
// operation family's), so the suite's build does not grow with every kernel nnhal adds.
#include "nnhal/nnhal.hpp"
