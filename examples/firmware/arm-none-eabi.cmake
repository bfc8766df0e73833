# CMake toolchain file for bare-metal Cortex-M7 (hard float, FPv5 double-precision FPU) with the
# GNU Arm Embedded toolchain (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
# libstdc++-arm-none-eabi-newlib).
#
#   cmake -S examples/firmware -B build-fw -DCMAKE_TOOLCHAIN_FILE=examples/firmware/arm-none-eabi.cmake

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(NNHAL_ARM_PREFIX arm-none-eabi- CACHE STRING "Prefix of the cross tools (arm-none-eabi-g++ ...)")
set(CMAKE_C_COMPILER ${NNHAL_ARM_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${NNHAL_ARM_PREFIX}g++)
set(CMAKE_ASM_COMPILER ${NNHAL_ARM_PREFIX}gcc)
set(CMAKE_SIZE ${NNHAL_ARM_PREFIX}size CACHE FILEPATH "size for the target")

# No operating system to link a test program against: check the compilers with a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -mfp16-format=ieee: Highway's base.h declares __fp16 on ARMv7 with an FPU, which GCC only
# accepts with an fp16 format chosen.
set(NNHAL_ARM_CPU_FLAGS "-mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16 -mfp16-format=ieee")
# These initialise CMAKE_<LANG>_FLAGS: a CMAKE_CXX_FLAGS given on the command line replaces them,
# so it must repeat them.
set(CMAKE_C_FLAGS_INIT "${NNHAL_ARM_CPU_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${NNHAL_ARM_CPU_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${NNHAL_ARM_CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${NNHAL_ARM_CPU_FLAGS}")

# Never pick up the build machine's libraries or headers; programs (qemu, size) come from it.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
