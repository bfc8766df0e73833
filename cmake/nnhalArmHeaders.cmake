# Cross-compile check for a Cortex-M7 (arm-none-eabi-g++, newlib): every public header, and the
# default kernel set, compile warning-free without exceptions, RTTI or threads. Included from
# cmake/nnhalTests.cmake after the embedded-profile checks.
#
#   embedded_arm_headers   tests/embedded/all_headers.cpp (the generated list of public headers),
#                          compiled to an object at -Os
#   embedded_arm_kernels   tests/embedded/arm_instantiations.cpp with -fsyntax-only: instantiates
#                          the default kernel set, the executor and the device layer, so that
#                          printf-style messages whose arguments depend on a template parameter
#                          are checked too
#
# On arm-none-eabi, int32_t / uint32_t are long / unsigned long (int / unsigned int on Linux), so
# these tests are what catches a message formatting a fixed-width integer with %d / %u instead of
# PRId32 / PRIu32. Without arm-none-eabi-g++ nothing is added.
#
# The cross compiler does not search the host's /usr/include, and passing that folder would bring
# the host's C library along; the header-only dependencies are therefore made visible through a
# folder of symlinks in the build directory (only those found on this machine).

find_program(NNHAL_ARM_CXX arm-none-eabi-g++
  DOC "Cross compiler for the Cortex-M7 header checks (embedded_arm_*)")
if(NOT NNHAL_ARM_CXX)
  message(STATUS "nnhal: arm-none-eabi-g++ not found; embedded_arm_headers and embedded_arm_kernels are not added")
  return()
endif()

set(_nnhal_arm_sys ${PROJECT_BINARY_DIR}/embedded-arm/sysroot-include)
file(REMOVE_RECURSE ${_nnhal_arm_sys})
file(MAKE_DIRECTORY ${_nnhal_arm_sys})
# Where to look: Highway's own include directories first, then the usual prefixes.
set(_nnhal_arm_hints "")
if(TARGET hwy::hwy)
  get_target_property(_nnhal_arm_hints hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _nnhal_arm_hints)
    set(_nnhal_arm_hints "")
  endif()
endif()
# Folder name, and one file that identifies it: Highway, Boost (Hana) and range-v3 (range, meta,
# concepts and its std shim).
set(_nnhal_arm_deps
  "hwy|hwy/highway.h" "boost|boost/hana.hpp" "range|range/v3/range_fwd.hpp"
  "meta|meta/meta.hpp" "concepts|concepts/concepts.hpp"
  "std|std/detail/associated_types.hpp")
set(_nnhal_arm_linked "")
foreach(_nnhal_arm_dep IN LISTS _nnhal_arm_deps)
  string(REPLACE "|" ";" _nnhal_arm_dep "${_nnhal_arm_dep}")
  list(GET _nnhal_arm_dep 0 _nnhal_arm_name)
  list(GET _nnhal_arm_dep 1 _nnhal_arm_marker)
  set(_nnhal_arm_var NNHAL_ARM_DEP_${_nnhal_arm_name})
  find_path(${_nnhal_arm_var} NAMES ${_nnhal_arm_marker} HINTS ${_nnhal_arm_hints}
    DOC "Host include folder with ${_nnhal_arm_name}/ (for the arm-none-eabi checks)")
  set(_nnhal_arm_dir ${${_nnhal_arm_var}}/${_nnhal_arm_name})
  if(${_nnhal_arm_var} AND IS_DIRECTORY ${_nnhal_arm_dir})
    file(CREATE_LINK ${_nnhal_arm_dir} ${_nnhal_arm_sys}/${_nnhal_arm_name} SYMBOLIC)
    list(APPEND _nnhal_arm_linked ${_nnhal_arm_name})
  endif()
endforeach()

# -mfp16-format=ieee: the FPU of this Cortex-M7 (fpv5-d16) has half-precision conversions, so
# Highway 1.0's hwy/base.h declares float16_t as __fp16, a type g++ provides on ARMv7 only with
# that option ("'__fp16' does not name a type" without it).
set(NNHAL_ARM_FLAGS
  -std=c++20 -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16 -mfp16-format=ieee
  -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Werror -DNNHAL_ASYNC=0
  -I ${PROJECT_SOURCE_DIR}/include -isystem ${_nnhal_arm_sys})

add_test(NAME embedded_arm_headers
  COMMAND ${NNHAL_ARM_CXX} ${NNHAL_ARM_FLAGS} -Os -I ${PROJECT_BINARY_DIR}/generated/embedded
          -c ${PROJECT_SOURCE_DIR}/tests/embedded/all_headers.cpp
          -o ${PROJECT_BINARY_DIR}/embedded-arm/all_headers.o)
add_test(NAME embedded_arm_kernels
  COMMAND ${NNHAL_ARM_CXX} ${NNHAL_ARM_FLAGS} -fsyntax-only
          ${PROJECT_SOURCE_DIR}/tests/embedded/arm_instantiations.cpp)
string(REPLACE ";" ", " _nnhal_arm_linked "${_nnhal_arm_linked}")
message(STATUS "nnhal: embedded_arm_headers and embedded_arm_kernels use ${NNHAL_ARM_CXX} "
  "(dependencies linked: ${_nnhal_arm_linked})")
