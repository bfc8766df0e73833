# ctest firmware_qemu (cmake/nnhalFirmware.cmake): builds examples/firmware for the Cortex-M7 and
# runs it on QEMU's mps2-an500 board. Run with cmake -P, with
#   SOURCE_DIR    examples/firmware                BINARY_DIR   its build folder (kept between runs)
#   GENERATOR     CMake generator                  MAKE_PROGRAM its build tool (optional)
#   TOOL_PREFIX   e.g. /usr/bin/arm-none-eabi-     HOST_INCLUDE folder with hwy/, boost/hana, range/
#   SIZE          arm-none-eabi-size               QEMU         qemu-system-arm
#   MAX_TEXT      largest text size accepted       RUN_TIMEOUT  seconds QEMU may run
#
# Fails when the build fails, when QEMU's run fails (the image's exit code comes through
# semihosting), when its output lacks the lines that say the checks passed, or when text is
# larger than MAX_TEXT (reported after the run, so the run's output is always shown).

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
set(elf "${BINARY_DIR}/firmware.elf")

# 2. Size: the Berkeley format's second line is "text data bss dec hex filename".
execute_process(COMMAND "${SIZE}" "${elf}" OUTPUT_VARIABLE size_out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT size_out MATCHES "\n[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)")
  message(FATAL_ERROR "firmware_qemu: ${SIZE} failed on ${elf}:\n${size_out}")
endif()
set(text ${CMAKE_MATCH_1})
set(data ${CMAKE_MATCH_2})
set(bss ${CMAKE_MATCH_3})
message(STATUS "firmware.elf: text ${text}, data ${data}, bss ${bss} bytes (text limit ${MAX_TEXT})")

# 3. Run: semihosting gives the program's output and its exit code.
string(TIMESTAMP started "%s%f")
execute_process(
  COMMAND "${QEMU}" -M mps2-an500 -nographic -monitor none -semihosting -kernel "${elf}"
  TIMEOUT ${RUN_TIMEOUT}
  OUTPUT_VARIABLE output ERROR_VARIABLE output
  RESULT_VARIABLE rc)
string(TIMESTAMP finished "%s%f")
math(EXPR elapsed_ms "(${finished} - ${started}) / 1000")
message(STATUS "qemu-system-arm ran for ${elapsed_ms} ms, exit ${rc}; its output:\n${output}")

set(problems "")
if(NOT rc EQUAL 0)
  list(APPEND problems "the run ended with '${rc}' (expected exit code 0)")
endif()
foreach(line
    "run 1: [0-9]+ iterations, result ok"
    "run 2: [0-9]+ iterations, result ok"
    "time per loop iteration: [0-9]+ ns"
    "endless loop, [0-9]+ ms loop timeout: MISSED_DEADLINE_TRANSIENT"
    "firmware: all checks passed")
  if(NOT output MATCHES "${line}")
    list(APPEND problems "no output line matching '${line}'")
  endif()
endforeach()
if(text GREATER MAX_TEXT)
  list(APPEND problems "text is ${text} bytes, more than the limit of ${MAX_TEXT} (NNHAL_FIRMWARE_MAX_TEXT)")
endif()
if(problems)
  list(JOIN problems "\n  " problems)
  message(FATAL_ERROR "firmware_qemu failed:\n  ${problems}")
endif()
