# ctest firmware_qemu: examples/firmware cross-compiled for a Cortex-M7 (arm-none-eabi-g++, newlib)
# and run on QEMU's mps2-an500 board. Included from cmake/nnhalTests.cmake.
#
# The test (tests/cmake/firmware_qemu.cmake) configures and builds examples/firmware with
# examples/firmware/arm-none-eabi.cmake in <build>/firmware, and for each of its two images
# (firmware.elf from main.cpp, firmware_device.elf from device.cpp) prints arm-none-eabi-size's
# text, data and bss and runs it under qemu-system-arm with semihosting. It fails when a program
# fails (exit code, expected output lines) or when firmware.elf's text exceeds
# NNHAL_FIRMWARE_MAX_TEXT (firmware_device.elf has no limit).
# Without the cross tools or QEMU it adds nothing.

# The size goal of firmware.elf, built as examples/firmware/CMakeLists.txt builds it by default
# (NNHAL_ERROR_MESSAGES=0): at most 64 KiB of text (docs/embedded.md says what takes the space).
set(NNHAL_FIRMWARE_MAX_TEXT 65536 CACHE STRING
  "Largest text size (bytes) of examples/firmware's firmware.elf that ctest firmware_qemu accepts")

find_program(NNHAL_ARM_GXX arm-none-eabi-g++ DOC "C++ cross compiler for examples/firmware")
find_program(NNHAL_ARM_SIZE arm-none-eabi-size DOC "size tool of the cross toolchain")
find_program(NNHAL_QEMU_ARM qemu-system-arm DOC "QEMU for 32-bit Arm (runs examples/firmware)")

if(NNHAL_ARM_GXX AND NNHAL_ARM_SIZE AND NNHAL_QEMU_ARM)
  # The firmware build links the host's header-only dependencies from where hwy::hwy has them.
  set(_nnhal_fw_host_include /usr/include)
  if(TARGET hwy::hwy)
    get_target_property(_nnhal_fw_hwy hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
    if(_nnhal_fw_hwy)
      list(GET _nnhal_fw_hwy 0 _nnhal_fw_host_include)
    endif()
  endif()
  string(REGEX REPLACE "g\\+\\+$" "" _nnhal_fw_prefix "${NNHAL_ARM_GXX}")  # .../arm-none-eabi-
  add_test(NAME firmware_qemu
    COMMAND ${CMAKE_COMMAND}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/firmware
      -DBINARY_DIR=${PROJECT_BINARY_DIR}/firmware
      "-DGENERATOR=${CMAKE_GENERATOR}"
      "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
      -DTOOL_PREFIX=${_nnhal_fw_prefix}
      -DHOST_INCLUDE=${_nnhal_fw_host_include}
      -DSIZE=${NNHAL_ARM_SIZE}
      -DQEMU=${NNHAL_QEMU_ARM}
      -DMAX_TEXT=${NNHAL_FIRMWARE_MAX_TEXT}
      -DRUN_TIMEOUT=60
      -P ${PROJECT_SOURCE_DIR}/tests/cmake/firmware_qemu.cmake)
  # Configuring and compiling the image takes most of it; QEMU's run is under a second.
  set_tests_properties(firmware_qemu PROPERTIES TIMEOUT 600)
else()
  message(STATUS "nnhal: arm-none-eabi-g++, arm-none-eabi-size or qemu-system-arm not found; "
                 "ctest firmware_qemu is not added")
endif()
