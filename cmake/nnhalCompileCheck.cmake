# Compiles one C++ file outside the build system, with nnhal's include directories.
# Run as:  cmake -DMODE=... -DCXX=... -DSOURCE=... [more -D...] -P nnhalCompileCheck.cmake
#
#   MODE           fail: the compile (-fsyntax-only) must FAIL and its diagnostics must match the
#                        regex on the file's first line, "// expect-error: <regex>".
#                  run:  the file must compile and link without a diagnostic, and the program
#                        must exit with 0.
#   CXX            compiler to use
#   SOURCE         the .cpp file
#   INCLUDES_FILE  file with one include directory per line (generated from nnhal's usage
#                  requirements); OWN_INCLUDES of those are passed with -I, the rest with -isystem
#   OWN_INCLUDES   '|'-separated directories passed with -I
#   IMPLICIT       '|'-separated implicit include directories of the compiler (never passed:
#                  -isystem /usr/include breaks libstdc++'s #include_next)
#   FLAGS          '|'-separated extra compiler flags
#   WORK_DIR       where MODE=run puts its executable

cmake_minimum_required(VERSION 3.21)

foreach(var MODE CXX SOURCE INCLUDES_FILE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "nnhalCompileCheck: ${var} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" own "${OWN_INCLUDES}")
string(REPLACE "|" ";" implicit "${IMPLICIT}")
string(REPLACE "|" ";" flags "${FLAGS}")

set(args -std=c++20)
foreach(dir IN LISTS own)
  list(APPEND args "-I${dir}")
endforeach()
file(STRINGS "${INCLUDES_FILE}" deps)
list(REMOVE_DUPLICATES deps)
foreach(dir IN LISTS deps)
  if(dir STREQUAL "" OR dir IN_LIST own OR dir IN_LIST implicit)
    continue()
  endif()
  list(APPEND args "-isystem" "${dir}")
endforeach()
list(APPEND args ${flags})

if(MODE STREQUAL "fail")
  file(STRINGS "${SOURCE}" first_line LIMIT_COUNT 1)
  if(NOT first_line MATCHES "^//[ \t]*expect-error:[ \t]*(.+)$")
    message(FATAL_ERROR
      "${SOURCE}: the first line must be '// expect-error: <regex>', found '${first_line}'")
  endif()
  set(regex "${CMAKE_MATCH_1}")
  string(STRIP "${regex}" regex)
  execute_process(
    COMMAND "${CXX}" ${args} -fsyntax-only "${SOURCE}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but it must not compile (expected: ${regex})")
  endif()
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR
      "${SOURCE} failed to compile as expected, but no diagnostic matches '${regex}':\n${out}")
  endif()
  message(STATUS "${SOURCE} fails to compile as expected (matched '${regex}')")
elseif(MODE STREQUAL "run")
  if(NOT DEFINED WORK_DIR)
    message(FATAL_ERROR "nnhalCompileCheck: WORK_DIR is not set")
  endif()
  file(MAKE_DIRECTORY "${WORK_DIR}")
  get_filename_component(stem "${SOURCE}" NAME_WE)
  set(exe "${WORK_DIR}/${stem}")
  string(REPLACE ";" " " shown "${CXX} ${args} ${SOURCE} -o ${exe}")
  message(STATUS "${shown}")
  execute_process(
    COMMAND "${CXX}" ${args} "${SOURCE}" -o "${exe}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
    message(FATAL_ERROR "compiling ${SOURCE} with ${CXX} failed or warned (exit ${rc}):\n${out}")
  endif()
  execute_process(COMMAND "${exe}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} exited with ${rc}")
  endif()
  message(STATUS "${SOURCE} builds and runs with ${CXX}")
else()
  message(FATAL_ERROR "nnhalCompileCheck: unknown MODE '${MODE}'")
endif()
