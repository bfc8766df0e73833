// Compile-only (ctest embedded_arm_kernels, cmake/nnhalArmHeaders.cmake): instantiates the
// default kernel set, the executor and the device layer's class templates for arm-none-eabi.
// A printf-style message whose arguments depend on a template parameter is checked against its
// format only when the template is instantiated, which including the headers does not do; on
// arm-none-eabi int32_t / uint32_t are long / unsigned long, so such a message formatting them
// with %d / %u instead of PRId32 / PRIu32 fails here.
#include "nnhal/kernels/all.hpp"
#include "nnhal/nnhal.hpp"

NNHAL_INSTANTIATE_KERNEL_SET(nnhal::AllKernels);
NNHAL_INSTANTIATE_EXECUTION(nnhal::SteadyClock);

template class nnhal::Device<nnhal::SteadyClock, nnhal::AllKernels>;
template class nnhal::DevicePreparedModel<nnhal::SteadyClock>;
template class nnhal::Burst<nnhal::SteadyClock>;
