#pragma once
/// \file
/// Everything in one include: the umbrella <nnhal/nnhal.hpp> and every kernel (the default
/// kernel set, AllKernels). Convenient for one-file programs; larger programs include the
/// kernels in one file only (nnhal/interface/kernel_set.hpp).

#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"
