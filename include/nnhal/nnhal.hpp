#pragma once
/// \file
/// nnhal umbrella header: the HAL 1.3 vocabulary, the operation table, validation, the
/// supported-operations query, the executor and the device layer — everything but the kernels.
///
/// Kernels are compiled only where a program asks for them: include <nnhal/kernels/all.hpp> in
/// one file for the default set (every kernel), or name a smaller set (see
/// nnhal/interface/kernel_set.hpp). <nnhal/nnhal_all.hpp> is this header plus every kernel.

#include "nnhal/config.hpp"
#include "nnhal/core/dims.hpp"
#include "nnhal/core/enums.hpp"
#include "nnhal/core/limits.hpp"
#include "nnhal/core/half.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/model/request_builder.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/tensor/tensor_view.hpp"
#include "nnhal/util/chrome_trace.hpp"
#include "nnhal/util/dot.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/util/trace.hpp"
#include "nnhal/validate/compliance.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"
#include "nnhal/validate/support.hpp"
#include "nnhal/version.hpp"

/// NNHAL_EXTERN_DEFAULT_KERNELS=1 (a compile definition for every file of a program): one file
/// of the program compiles the default kernel set and the default clock's executor
/// (NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels); NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);
/// as in examples/two_files/kernels.cpp), and every other file, even one that includes
/// <nnhal/nnhal_all.hpp>, uses them without compiling them again: the same as writing
/// NNHAL_EXTERN_KERNEL_SET / NNHAL_EXTERN_EXECUTION in each file, set once in the build.
#if defined(NNHAL_EXTERN_DEFAULT_KERNELS) && NNHAL_EXTERN_DEFAULT_KERNELS
NNHAL_EXTERN_KERNEL_SET(nnhal::AllKernels);
NNHAL_EXTERN_EXECUTION(nnhal::SteadyClock);
#endif
