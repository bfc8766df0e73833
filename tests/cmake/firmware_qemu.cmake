# ctest firmware_qemu (cmake/nnhalFirmware.cmake): builds examples/firmware for the Cortex-M7 and
# runs its two images on QEMU's mps2-an500 board: firmware.elf (main.cpp) and firmware_device.elf
# (device.cpp, the device layer). Run with cmake -P, with
#   SOURCE_DIR    examples/firmware                BINARY_DIR   its build folder (kept between runs)
#   GENERATOR     CMake generator                  MAKE_PROGRAM its build tool (optional)
#   TOOL_PREFIX   e.g. /usr/bin/arm-none-eabi-     HOST_INCLUDE folder with hwy/, boost/hana, range/
#   SIZE          arm-none-eabi-size               QEMU         qemu-system-arm
#   MAX_TEXT      firmware.elf's text limit        RUN_TIMEOUT  seconds QEMU may run (each image)
#
# Fails when the build fails, when an image's run fails (its exit code comes through
# semihosting), when its output lacks the lines that say the checks passed (for
# firmware_device.elf: that executions after the first allocate nothing), or when firmware.elf's
# text is larger than MAX_TEXT (reported after the runs, so their output is always shown);
# firmware_device.elf has no text limit.

cmake_minimum_required(VERSION 3.21)

foreach(var SOURCE_DIR BINARY_DIR GENERATOR TOOL_PREFIX HOST_INCLUDE SIZE QEMU MAX_TEXT RUN_TIMEOUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "firmware_qemu: ${var} is not set")
  endif()
endforeach()

set(RUN_CONTEXT firmware_qemu)
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

# 1. Configure and build (one compiler at a time).
set(make_program "")
if(MAKE_PROGRAM)
  set(make_program "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}" ${make_program}
    "-DCMAKE_TOOLCHAIN_FILE=${SOURCE_DIR}/arm-none-eabi.cmake"
    "-DNNHAL_ARM_PREFIX=${TOOL_PREFIX}" "-DNNHAL_FIRMWARE_HOST_INCLUDE=${HOST_INCLUDE}")
run("${CMAKE_COMMAND}" --build "${BINARY_DIR}" --parallel 1)

# 2. Each image: its size (the Berkeley format's second line is "text data bss dec hex filename"),
#    then its run (semihosting gives the program's output and its exit code), then its checks:
#    exit code 0, every line given after `max_text` (regular expressions) in the output, and text
#    at most `max_text` bytes when that is not 0. Problems are appended to `problems` in the caller.
function(check_image name max_text)
  set(elf "${BINARY_DIR}/${name}")
  execute_process(COMMAND "${SIZE}" "${elf}" OUTPUT_VARIABLE size_out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT size_out MATCHES "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)")
    message(FATAL_ERROR "firmware_qemu: ${SIZE} failed on ${elf}:\n${size_out}")
  endif()
  set(text ${CMAKE_MATCH_1})
  set(limit "no text limit")
  if(max_text)
    set(limit "text limit ${max_text}")
  endif()
  message(STATUS "${name}: text ${text}, data ${CMAKE_MATCH_2}, bss ${CMAKE_MATCH_3} bytes (${limit})")

  string(TIMESTAMP started "%s%f")
  execute_process(
    COMMAND "${QEMU}" -M mps2-an500 -nographic -monitor none -semihosting -kernel "${elf}"
    TIMEOUT ${RUN_TIMEOUT}
    OUTPUT_VARIABLE output ERROR_VARIABLE output
    RESULT_VARIABLE rc)
  string(TIMESTAMP finished "%s%f")
  math(EXPR elapsed_ms "(${finished} - ${started}) / 1000")
  message(STATUS "${name}: qemu-system-arm ran for ${elapsed_ms} ms, exit ${rc}; its output:\n${output}")

  set(found ${problems})
  if(NOT rc EQUAL 0)
    list(APPEND found "${name}: the run ended with '${rc}' (expected exit code 0)")
  endif()
  foreach(line IN LISTS ARGN)
    if(NOT output MATCHES "${line}")
      list(APPEND found "${name}: no output line matching '${line}'")
    endif()
  endforeach()
  if(max_text AND text GREATER max_text)
    list(APPEND found "${name}: text is ${text} bytes, more than the limit of ${max_text} (NNHAL_FIRMWARE_MAX_TEXT)")
  endif()
  set(problems ${found} PARENT_SCOPE)
endfunction()

set(problems "")
# main.cpp: PreparedModel / Execution, with the text limit.
check_image(firmware.elf ${MAX_TEXT}
  "a [0-9]+-byte arena: RESOURCE_EXHAUSTED_PERSISTENT while preparing; heap allocations 0[^0-9]"
  "heap allocations: building the model 0 "
  "heap allocations: validating and preparing 0 "
  "run 1: [0-9]+ iterations, result ok"
  "run 2: [0-9]+ iterations, result ok"
  "time per loop iteration: [0-9]+ ns"
  "endless loop, [0-9]+ ms loop timeout: MISSED_DEADLINE_TRANSIENT"
  "firmware: all checks passed")
# device.cpp: the device layer; executions after the first of each model and mode allocate
# nothing. No text limit.
set(device_lines "")
foreach(model ADD WHILE)
  foreach(mode sync burst)
    list(APPEND device_lines "${model}: device ${mode}: [0-9]+ executions after the first, heap allocations 0[^0-9]")
  endforeach()
endforeach()
list(APPEND device_lines "firmware_device: all checks passed")
check_image(firmware_device.elf 0 ${device_lines})

if(problems)
  list(JOIN problems "\n  " problems)
  message(FATAL_ERROR "firmware_qemu failed:\n  ${problems}")
endif()
