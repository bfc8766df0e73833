# nnhal's tests. Included from the top-level CMakeLists.txt when NNHAL_BUILD_TESTS is ON.
#
#   nnhal_tests              every tests/**/*.cpp outside the special folders below, one doctest
#                            executable; each TEST_CASE is a ctest test
#   nnhal_cts                tests/cts/*.cpp, the conformance runner (ctest: cts_conformance)
#   compile_fail.<name>      tests/compile_fail/*.cpp must not compile (ctest only)
#   nnhal_static_checks      tests/static/*.cpp, static_assert-only files (OBJECT library)
#   nnhal_header_checks      one generated TU per public header (OBJECT library)
#   nnhal_embedded           tests/embedded/all_headers.cpp with -fno-exceptions -fno-rtti
#   single_include_up_to_date, *_consumer
#
# NNHAL_BUILD_CHECKS=OFF keeps only the doctest suite, the conformance runner and the examples
# (used by the sanitizer build, which has no reason to redo the compile-only checks).

option(NNHAL_BUILD_CHECKS
  "Build nnhal's compile-time checks (headers, static, compile-fail, embedded, consumers)" ON)
option(NNHAL_DOCTEST_PER_CASE
  "One ctest test per doctest TEST_CASE (OFF: one test running the whole suite in one process)" ON)
set(NNHAL_CTS_SUITES "V1_0;V1_1;V1_2;V1_3;V1_3_cts_only" CACHE STRING
  "Corpus folders (below NNHAL_CTS_DIR) that the cts_conformance test runs")

set(NNHAL_TESTS_DIR ${PROJECT_SOURCE_DIR}/tests)
set(NNHAL_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)

# Include directories of nnhal::nnhal and everything it links (one per line), for the checks
# that call a compiler directly.
set(NNHAL_INCLUDES_FILE ${PROJECT_BINARY_DIR}/nnhal_include_dirs.txt)
file(GENERATE OUTPUT ${NNHAL_INCLUDES_FILE}
  CONTENT "$<JOIN:$<TARGET_PROPERTY:nnhal,INTERFACE_INCLUDE_DIRECTORIES>,\n>\n")
string(REPLACE ";" "|" NNHAL_IMPLICIT_INCLUDES "${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES}")

# Public headers (the *-inl.h/-inl.hpp files are per-target Highway bodies, not headers).
file(GLOB_RECURSE NNHAL_PUBLIC_HEADERS CONFIGURE_DEPENDS
  RELATIVE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/include/nnhal/*.hpp)
list(FILTER NNHAL_PUBLIC_HEADERS EXCLUDE REGEX "-inl\\.(h|hpp)$")
list(SORT NNHAL_PUBLIC_HEADERS)

# ---------------------------------------------------------------------------------------------
# The doctest suite
# ---------------------------------------------------------------------------------------------
find_package(doctest 2.4 REQUIRED CONFIG)

file(GLOB_RECURSE NNHAL_TEST_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/*.cpp)
list(FILTER NNHAL_TEST_SOURCES EXCLUDE REGEX
  "^${NNHAL_TESTS_DIR}/(cts|compile_fail|static|embedded|cmake|fuzz|stress|support/default_kernels)/")
list(SORT NNHAL_TEST_SOURCES)

add_executable(nnhal_tests ${NNHAL_TEST_SOURCES})
target_link_libraries(nnhal_tests PRIVATE nnhal_dev nnhal_default_kernels doctest::doctest)
# Test files include the library's headers through the tests' own include root too
# (e.g. a shared helper header under tests/).
target_include_directories(nnhal_tests PRIVATE ${NNHAL_TESTS_DIR})
# nnhal's umbrella header (no kernels) is in the PCH too: every test TU would otherwise re-parse the
# operation table.
target_precompile_headers(nnhal_tests PRIVATE
  <doctest/doctest.h> ${NNHAL_TESTS_DIR}/support/pch.hpp
  <algorithm> <array> <cmath> <cstddef> <cstdint> <cstring> <limits> <optional> <span>
  <string> <string_view> <type_traits> <utility> <variant> <vector>)
# The main TU defines DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN before including doctest.
set_source_files_properties(${NNHAL_TESTS_DIR}/main.cpp PROPERTIES SKIP_PRECOMPILE_HEADERS ON)

# Unity build of the suite (tools/test.sh turns it on): test files of one folder are compiled in
# groups of NNHAL_UNITY_TESTS_BATCH, so that the device, executor and validation templates that
# the files of a folder share are instantiated once per group rather than once per file (the
# device tests compile in about half the time). Off by default: editing one test file then
# recompiles only that file. Test files therefore keep their helpers in a namespace of their own.
option(NNHAL_UNITY_TESTS "Compile the doctest suite's files in per-folder groups (unity build)" OFF)
set(NNHAL_UNITY_TESTS_BATCH 4 CACHE STRING "Test files per unity group (NNHAL_UNITY_TESTS)")
if(NNHAL_UNITY_TESTS)
  set_target_properties(nnhal_tests PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  set(_nnhal_group_folder "")
  set(_nnhal_group_count 0)
  foreach(src IN LISTS NNHAL_TEST_SOURCES)
    file(RELATIVE_PATH rel ${NNHAL_TESTS_DIR} ${src})
    get_filename_component(folder ${rel} DIRECTORY)
    # main.cpp (doctest's main), the kernel-set instantiation and the allocation counter (it
    # replaces the global operator new) stay alone.
    if(folder STREQUAL "" OR folder STREQUAL "support")
      set_source_files_properties(${src} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      continue()
    endif()
    if(NOT folder STREQUAL _nnhal_group_folder)
      set(_nnhal_group_folder ${folder})
      set(_nnhal_group_count 0)
    endif()
    math(EXPR _nnhal_group "${_nnhal_group_count} / ${NNHAL_UNITY_TESTS_BATCH}")
    string(REPLACE "/" "_" _nnhal_group_name "${folder}_${_nnhal_group}")
    set_source_files_properties(${src} PROPERTIES UNITY_GROUP ${_nnhal_group_name})
    math(EXPR _nnhal_group_count "${_nnhal_group_count} + 1")
  endforeach()
endif()
if(NNHAL_DOCTEST_PER_CASE)
  # One ctest test per TEST_CASE, listed after each link (see cmake/nnhalDoctestDiscover.cmake).
  set(_nnhal_cases_file ${PROJECT_BINARY_DIR}/nnhal_tests_cases.cmake)
  add_custom_command(TARGET nnhal_tests POST_BUILD
    BYPRODUCTS ${_nnhal_cases_file}
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:nnhal_tests> -DOUT=${_nnhal_cases_file}
            -P ${PROJECT_SOURCE_DIR}/cmake/nnhalDoctestDiscover.cmake
    VERBATIM)
  file(WRITE ${PROJECT_BINARY_DIR}/nnhal_tests_include.cmake
    "if(EXISTS [==[${_nnhal_cases_file}]==])\n"
    "  include([==[${_nnhal_cases_file}]==])\n"
    "else()\n"
    "  add_test(nnhal_tests_NOT_BUILT nnhal_tests_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
    ${PROJECT_BINARY_DIR}/nnhal_tests_include.cmake)
else()
  # Cheaper under sanitizers, where starting the program costs more than most test cases.
  add_test(NAME nnhal_tests COMMAND nnhal_tests)
  set_tests_properties(nnhal_tests PROPERTIES LABELS doctest TIMEOUT 1200)
endif()

# ---------------------------------------------------------------------------------------------
# Concurrency stress test (tests/stress/*.cpp): its own small program, so that tools/test.sh can
# also build it alone under ThreadSanitizer (NNHAL_SANITIZE=thread) without the whole suite.
# ---------------------------------------------------------------------------------------------
file(GLOB NNHAL_STRESS_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/stress/*.cpp)
add_executable(nnhal_stress ${NNHAL_TESTS_DIR}/main.cpp ${NNHAL_STRESS_SOURCES})
target_link_libraries(nnhal_stress PRIVATE nnhal_dev doctest::doctest)
target_include_directories(nnhal_stress PRIVATE ${NNHAL_TESTS_DIR})
add_test(NAME device_stress COMMAND nnhal_stress)
set_tests_properties(device_stress PROPERTIES TIMEOUT 600)

find_program(NNHAL_PYTHON3 python3)

# ---------------------------------------------------------------------------------------------
# Conformance runner over the NNAPI corpus (kept outside this repository, beside it)
# ---------------------------------------------------------------------------------------------
file(GLOB NNHAL_CTS_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/cts/*.cpp)
get_filename_component(_nnhal_default_cts ${PROJECT_SOURCE_DIR}/../shared/cts ABSOLUTE)
set(NNHAL_CTS_DIR ${_nnhal_default_cts} CACHE PATH "Folder holding the conformance corpus (V1_0 ...)")
if(NNHAL_CTS_SOURCES)
  find_package(nlohmann_json 3 REQUIRED CONFIG)
  add_executable(nnhal_cts ${NNHAL_CTS_SOURCES})
  target_link_libraries(nnhal_cts PRIVATE nnhal_dev nnhal_default_kernels nlohmann_json::nlohmann_json)
  target_include_directories(nnhal_cts PRIVATE ${NNHAL_TESTS_DIR})
  if(IS_DIRECTORY ${NNHAL_CTS_DIR})
    set(_nnhal_cts_paths "")
    foreach(suite IN LISTS NNHAL_CTS_SUITES)
      list(APPEND _nnhal_cts_paths ${NNHAL_CTS_DIR}/${suite})
    endforeach()
    # --check-versions: no model gets an older compliant HAL version than the corpus records.
    add_test(NAME cts_conformance COMMAND nnhal_cts --check-versions ${_nnhal_cts_paths})
    set_tests_properties(cts_conformance PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77)
    # Graphviz dumps of the control-flow models (IF / WHILE clusters) and a few others, each
    # rendered by dot -Tsvg.
    find_program(NNHAL_DOT_PROGRAM dot)
    set(_nnhal_dot_sample "")
    foreach(f IN ITEMS V1_3/if_simple.json V1_3/if_constant.json V1_3/if_no_value.json
                       V1_3/while_fib.json V1_3/while_sum_of_powers.json
                       V1_3/while_sum_of_powers_quant8.json V1_0/conv_float.json)
      if(EXISTS ${NNHAL_CTS_DIR}/${f})
        list(APPEND _nnhal_dot_sample ${NNHAL_CTS_DIR}/${f})
      endif()
    endforeach()
    if(NNHAL_DOT_PROGRAM AND _nnhal_dot_sample)
      add_test(NAME cts_dump_dot COMMAND ${CMAKE_COMMAND} -DCTS=$<TARGET_FILE:nnhal_cts>
               -DDOT=${NNHAL_DOT_PROGRAM} -DOUT=${PROJECT_BINARY_DIR}/dot_dumps
               "-DPATHS=${_nnhal_dot_sample}" -P ${NNHAL_TESTS_DIR}/cmake/render_dot.cmake)
    elseif(NOT NNHAL_DOT_PROGRAM)
      nnhal_add_skipped_test(cts_dump_dot "Graphviz dot not found (tools/install-deps.sh installs it); cts_dump_dot NOT RUN")
    endif()
    # Tagged verbose log: NNHAL_VLOG=all prints tagged lines, NNHAL_VLOG unset prints none.
    if(EXISTS ${NNHAL_CTS_DIR}/V1_3/if_simple.json)
      add_test(NAME vlog_env_all COMMAND nnhal_cts ${NNHAL_CTS_DIR}/V1_3/if_simple.json)
      set_tests_properties(vlog_env_all PROPERTIES ENVIRONMENT "NNHAL_VLOG=all"
        PASS_REGULAR_EXPRESSION "nnhal control: IF in subgraph 0: (then|else) branch")
      add_test(NAME vlog_env_unset COMMAND ${CMAKE_COMMAND} -E env --unset=NNHAL_VLOG
               $<TARGET_FILE:nnhal_cts> ${NNHAL_CTS_DIR}/V1_3/if_simple.json)
      set_tests_properties(vlog_env_unset PROPERTIES
        FAIL_REGULAR_EXPRESSION "nnhal (validate|prepare|execute|control|device|cache):")
    endif()
    # Traces and profiles: nnhal_cts --trace writes valid trace-event JSON with nested spans, and
    # --profile counts exactly the node spans of the trace.
    if(NNHAL_PYTHON3 AND EXISTS ${NNHAL_CTS_DIR}/V1_3/while_fib.json AND EXISTS ${NNHAL_CTS_DIR}/V1_3/if_simple.json)
      add_test(NAME cts_trace_profile
               COMMAND ${NNHAL_PYTHON3} ${NNHAL_TESTS_DIR}/cmake/check_trace.py $<TARGET_FILE:nnhal_cts>
                       ${PROJECT_BINARY_DIR}/cts_trace.json ${NNHAL_CTS_DIR}/V1_3/while_fib.json
                       ${NNHAL_CTS_DIR}/V1_3/if_simple.json ${NNHAL_CTS_DIR}/V1_0/conv_float.json)
    elseif(NOT NNHAL_PYTHON3)
      nnhal_add_skipped_test(cts_trace_profile "python3 not found (tools/install-deps.sh installs it); cts_trace_profile NOT RUN")
    endif()
    # Folders of interfaces newer than HAL 1.3: unknown operation codes and newer-only uses are
    # skipped with their reason, never failed.
    if(IS_DIRECTORY ${NNHAL_CTS_DIR}/AIDL_V2 AND IS_DIRECTORY ${NNHAL_CTS_DIR}/AIDL_V3)
      add_test(NAME cts_newer_interfaces_skipped
               COMMAND nnhal_cts ${NNHAL_CTS_DIR}/AIDL_V2 ${NNHAL_CTS_DIR}/AIDL_V3)
      set_tests_properties(cts_newer_interfaces_skipped PROPERTIES
        PASS_REGULAR_EXPRESSION "[0-9]+ passed \\([0-9]+ strict, [0-9]+ runtime only\\), 0 failed, [1-9][0-9]* skipped")
    endif()
    # The same corpus through the device interface's other execution modes.
    foreach(mode IN ITEMS async fenced burst)
      add_test(NAME cts_conformance_${mode} COMMAND nnhal_cts --mode ${mode} ${_nnhal_cts_paths})
      set_tests_properties(cts_conformance_${mode} PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77)
    endforeach()
    # The same corpus with every execution's kernels on a pool of 3 threads: the results must
    # not change (the kernels split their work so that no output depends on it).
    add_test(NAME cts_conformance_threads COMMAND nnhal_cts --threads 3 ${_nnhal_cts_paths})
    set_tests_properties(cts_conformance_threads PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77)
    # The same corpus on the plain reference kernels (PrepareOptions::reference_kernels): no
    # SIMD table, no packed weights; the fast kernels are checked against these.
    add_test(NAME cts_reference_kernels COMMAND nnhal_cts --reference-kernels ${_nnhal_cts_paths})
    set_tests_properties(cts_reference_kernels PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77)
  else()
    nnhal_add_skipped_test(cts_conformance
      "conformance corpus not found at ${NNHAL_CTS_DIR}; cts_conformance NOT RUN")
  endif()
else()
  nnhal_add_skipped_test(cts_conformance
    "no conformance runner sources in tests/cts; cts_conformance NOT RUN")
endif()

# ---------------------------------------------------------------------------------------------
# Random graphs with nested IF/WHILE (tools/random_graphs): every generated model checked across
# kernels, execution modes and kernel sets. It uses the conformance runner's model and request
# builders (tests/cts), so it is built with them.
# ---------------------------------------------------------------------------------------------
if(NNHAL_CTS_SOURCES)
  add_executable(nnhal_random_graphs ${PROJECT_SOURCE_DIR}/tools/random_graphs/main.cpp
                 ${PROJECT_SOURCE_DIR}/tools/random_graphs/families.cpp
                 ${NNHAL_TESTS_DIR}/support/counting_allocator.cpp)
  target_link_libraries(nnhal_random_graphs PRIVATE nnhal_dev nnhal_default_kernels nlohmann_json::nlohmann_json)
  target_include_directories(nnhal_random_graphs PRIVATE ${NNHAL_TESTS_DIR})
  option(NNHAL_RANDOM_GRAPHS_FAMILY_SETS
         "Compile the random-graph families' kernel sets (the restricted-set check; off in the sanitizer stage)" ON)
  if(NOT NNHAL_RANDOM_GRAPHS_FAMILY_SETS)
    set_source_files_properties(${PROJECT_SOURCE_DIR}/tools/random_graphs/families.cpp
                                PROPERTIES COMPILE_DEFINITIONS NNHAL_RANDOM_GRAPHS_FAMILY_SETS=0)
  endif()
  set(NNHAL_RANDOM_GRAPHS_SEEDS "1;2;3" CACHE STRING "Seeds of the random_graphs ctest tests (one test each)")
  set(NNHAL_RANDOM_GRAPHS_COUNT 100 CACHE STRING "Models per random_graphs ctest test")
  foreach(seed IN LISTS NNHAL_RANDOM_GRAPHS_SEEDS)
    add_test(NAME random_graphs_seed${seed}
             COMMAND nnhal_random_graphs --seed ${seed} --count ${NNHAL_RANDOM_GRAPHS_COUNT})
    set_tests_properties(random_graphs_seed${seed} PROPERTIES TIMEOUT 900)
  endforeach()
  # Generated models saved in the corpus format replay through the conformance runner.
  option(NNHAL_RANDOM_GRAPHS_REPLAY "ctest random_graphs_replay (off in the sanitizer stage)" ON)
  if(NNHAL_RANDOM_GRAPHS_REPLAY)
    add_test(NAME random_graphs_replay COMMAND ${CMAKE_COMMAND} -DGEN=$<TARGET_FILE:nnhal_random_graphs>
             -DCTS=$<TARGET_FILE:nnhal_cts> -DOUT=${PROJECT_BINARY_DIR}/random_graphs_saved
             -DCOUNT=${NNHAL_RANDOM_GRAPHS_COUNT}
             -P ${NNHAL_TESTS_DIR}/cmake/random_graphs_replay.cmake)
  endif()
endif()

# ---------------------------------------------------------------------------------------------
# libFuzzer targets (opt-in, clang only): one program per tests/fuzz/*.cpp
# ---------------------------------------------------------------------------------------------
option(NNHAL_BUILD_FUZZ "Build tests/fuzz/*.cpp as libFuzzer programs (clang only)" OFF)
if(NNHAL_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NNHAL_BUILD_FUZZ needs clang (-fsanitize=fuzzer)")
  endif()
  file(GLOB NNHAL_FUZZ_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/fuzz/*.cpp)
  set(_nnhal_fuzz_flags -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
  # The default kernel set, instrumented like the targets, compiled in parts that build in
  # parallel (validate_fuzz runs every kernel; the other targets name small sets).
  nnhal_default_kernel_sources(_nnhal_fuzz_kernel_sources)
  add_library(nnhal_fuzz_default_kernels OBJECT ${_nnhal_fuzz_kernel_sources})
  target_link_libraries(nnhal_fuzz_default_kernels PUBLIC nnhal_dev_base)
  target_compile_options(nnhal_fuzz_default_kernels PRIVATE ${_nnhal_fuzz_flags})
  target_compile_definitions(nnhal_fuzz_default_kernels PUBLIC NNHAL_EXTERN_DEFAULT_KERNELS=1)
  foreach(src IN LISTS NNHAL_FUZZ_SOURCES)
    get_filename_component(name ${src} NAME_WE)
    add_executable(nnhal_fuzz_${name} ${src})
    target_link_libraries(nnhal_fuzz_${name} PRIVATE nnhal_dev_base)
    if(name STREQUAL "validate_fuzz")
      target_link_libraries(nnhal_fuzz_${name} PRIVATE nnhal_fuzz_default_kernels)
    endif()
    target_include_directories(nnhal_fuzz_${name} PRIVATE ${NNHAL_TESTS_DIR})
    target_compile_options(nnhal_fuzz_${name} PRIVATE ${_nnhal_fuzz_flags})
    target_link_options(nnhal_fuzz_${name} PRIVATE ${_nnhal_fuzz_flags})
  endforeach()
endif()

if(NOT NNHAL_BUILD_CHECKS)
  return()
endif()

# ---------------------------------------------------------------------------------------------
# Header self-containment: one TU per public header, including only that header
# ---------------------------------------------------------------------------------------------
set(_nnhal_header_tus "")
foreach(header IN LISTS NNHAL_PUBLIC_HEADERS)
  string(REGEX REPLACE "[/.]" "_" stem "${header}")
  set(tu ${NNHAL_GENERATED_DIR}/header_checks/${stem}.cpp)
  # file(CONFIGURE) rewrites only on change, so reconfiguring does not rebuild everything.
  file(CONFIGURE OUTPUT ${tu} CONTENT "#include <${header}>  // must compile on its own\n")
  list(APPEND _nnhal_header_tus ${tu})
endforeach()
if(_nnhal_header_tus)
  add_library(nnhal_header_checks OBJECT ${_nnhal_header_tus})
  target_link_libraries(nnhal_header_checks PRIVATE nnhal_dev_base)
endif()

# ---------------------------------------------------------------------------------------------
# static_assert-only files
# ---------------------------------------------------------------------------------------------
file(GLOB NNHAL_STATIC_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/static/*.cpp)
if(NNHAL_STATIC_SOURCES)
  add_library(nnhal_static_checks OBJECT ${NNHAL_STATIC_SOURCES})
  target_link_libraries(nnhal_static_checks PRIVATE nnhal_dev_base)
  target_include_directories(nnhal_static_checks PRIVATE ${NNHAL_TESTS_DIR})
  add_test(NAME static_checks
    COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --config $<CONFIG>
            --target nnhal_static_checks)
  # Two builds of the same tree at once would trample each other.
  set_tests_properties(static_checks PROPERTIES RESOURCE_LOCK nnhal_build_tree)
endif()

# The other of g++ / clang++, when installed: the must-not-compile cases and the embedded profile
# are checked with both compilers (their diagnostics differ).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  find_program(NNHAL_OTHER_CXX NAMES clang++-14 clang++
    DOC "Second compiler for the must-not-compile and embedded-profile checks")
elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  find_program(NNHAL_OTHER_CXX NAMES g++-12 g++
    DOC "Second compiler for the must-not-compile and embedded-profile checks")
endif()

# ---------------------------------------------------------------------------------------------
# Must-not-compile cases: first line "// expect-error: <CMake regex>", matched against the
# output of this compiler and of the other one (compile_fail.<name>.<other compiler>).
# ---------------------------------------------------------------------------------------------
set(_nnhal_check_flags ${NNHAL_ARCH_FLAGS})
foreach(def IN LISTS NNHAL_ARCH_DEFINES)
  list(APPEND _nnhal_check_flags -D${def})
endforeach()
file(GLOB NNHAL_COMPILE_FAIL_SOURCES CONFIGURE_DEPENDS ${NNHAL_TESTS_DIR}/compile_fail/*.cpp)
foreach(src IN LISTS NNHAL_COMPILE_FAIL_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  set(flags ${_nnhal_check_flags} -Wall -Wextra -Wpedantic)
  string(REPLACE ";" "|" flags "${flags}")
  add_test(NAME compile_fail.${name}
    COMMAND ${CMAKE_COMMAND}
      -DMODE=fail -DCXX=${CMAKE_CXX_COMPILER} -DSOURCE=${src}
      -DINCLUDES_FILE=${NNHAL_INCLUDES_FILE}
      "-DOWN_INCLUDES=${PROJECT_SOURCE_DIR}/include|${NNHAL_TESTS_DIR}"
      "-DIMPLICIT=${NNHAL_IMPLICIT_INCLUDES}" "-DFLAGS=${flags}"
      -P ${PROJECT_SOURCE_DIR}/cmake/nnhalCompileCheck.cmake)
  if(NNHAL_OTHER_CXX)
    get_filename_component(_nnhal_other_name ${NNHAL_OTHER_CXX} NAME)
    add_test(NAME compile_fail.${name}.${_nnhal_other_name}
      COMMAND ${CMAKE_COMMAND}
        -DMODE=fail -DCXX=${NNHAL_OTHER_CXX} -DSOURCE=${src}
        -DINCLUDES_FILE=${NNHAL_INCLUDES_FILE}
        "-DOWN_INCLUDES=${PROJECT_SOURCE_DIR}/include|${NNHAL_TESTS_DIR}"
        "-DIMPLICIT=${NNHAL_IMPLICIT_INCLUDES}" "-DFLAGS=${flags}"
        -P ${PROJECT_SOURCE_DIR}/cmake/nnhalCompileCheck.cmake)
  endif()
endforeach()

# ---------------------------------------------------------------------------------------------
# Embedded profile: every public header under -fno-exceptions -fno-rtti, with this compiler
# (a build target) and with the other of g++ / clang++ if it is installed (a ctest test).
# ---------------------------------------------------------------------------------------------
set(_nnhal_all_headers "// GENERATED by CMake: every public nnhal header.\n#pragma once\n")
foreach(header IN LISTS NNHAL_PUBLIC_HEADERS)
  string(APPEND _nnhal_all_headers "#include <${header}>\n")
endforeach()
file(CONFIGURE OUTPUT ${NNHAL_GENERATED_DIR}/embedded/nnhal_all_public_headers.hpp
  CONTENT "${_nnhal_all_headers}")

set(NNHAL_EMBEDDED_FLAGS -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Werror)
set(_nnhal_embedded_src ${NNHAL_TESTS_DIR}/embedded/all_headers.cpp)
if(EXISTS ${_nnhal_embedded_src})
  add_executable(nnhal_embedded ${_nnhal_embedded_src})
  target_link_libraries(nnhal_embedded PRIVATE nnhal_dev_base)  # no sanitizers: no RTTI
  target_compile_options(nnhal_embedded PRIVATE ${NNHAL_EMBEDDED_FLAGS})
  target_include_directories(nnhal_embedded PRIVATE ${NNHAL_GENERATED_DIR}/embedded)
  add_test(NAME embedded_profile.${CMAKE_CXX_COMPILER_ID} COMMAND nnhal_embedded)
  # The same without threads: NNHAL_ASYNC=0 leaves the device layer's asynchronous parts out.
  add_executable(nnhal_embedded_no_async ${_nnhal_embedded_src})
  target_link_libraries(nnhal_embedded_no_async PRIVATE nnhal_dev_base)
  target_compile_options(nnhal_embedded_no_async PRIVATE ${NNHAL_EMBEDDED_FLAGS})
  target_compile_definitions(nnhal_embedded_no_async PRIVATE NNHAL_ASYNC=0)
  target_include_directories(nnhal_embedded_no_async PRIVATE ${NNHAL_GENERATED_DIR}/embedded)
  add_test(NAME embedded_profile.no_async COMMAND nnhal_embedded_no_async)
  # NNHAL_ERROR_MESSAGES=0 (errors keep their status, not their text; examples/firmware builds
  # so): every public header, and a doctest program checking the statuses. A program of its own:
  # the whole program must agree on the macro.
  add_executable(nnhal_error_messages_off ${NNHAL_TESTS_DIR}/main.cpp
                 ${NNHAL_TESTS_DIR}/embedded/error_messages_off.cpp)
  target_link_libraries(nnhal_error_messages_off PRIVATE nnhal_dev doctest::doctest)
  target_compile_definitions(nnhal_error_messages_off PRIVATE NNHAL_ERROR_MESSAGES=0)
  target_include_directories(nnhal_error_messages_off PRIVATE ${NNHAL_TESTS_DIR}
                             ${NNHAL_GENERATED_DIR}/embedded)
  add_test(NAME embedded_profile.error_messages_off COMMAND nnhal_error_messages_off)

  if(NNHAL_OTHER_CXX)
    get_filename_component(_nnhal_other_name ${NNHAL_OTHER_CXX} NAME)
    set(flags ${_nnhal_check_flags} ${NNHAL_EMBEDDED_FLAGS} -O2)
    string(REPLACE ";" "|" flags "${flags}")
    add_test(NAME embedded_profile.${_nnhal_other_name}
      COMMAND ${CMAKE_COMMAND}
        -DMODE=run -DCXX=${NNHAL_OTHER_CXX} -DSOURCE=${_nnhal_embedded_src}
        -DINCLUDES_FILE=${NNHAL_INCLUDES_FILE}
        "-DOWN_INCLUDES=${PROJECT_SOURCE_DIR}/include|${NNHAL_GENERATED_DIR}/embedded"
        "-DIMPLICIT=${NNHAL_IMPLICIT_INCLUDES}" "-DFLAGS=${flags}"
        -DWORK_DIR=${PROJECT_BINARY_DIR}/embedded-${_nnhal_other_name}
        -P ${PROJECT_SOURCE_DIR}/cmake/nnhalCompileCheck.cmake)
  else()
    nnhal_add_skipped_test(embedded_profile.second_compiler
      "no second compiler (clang++ for a g++ build, g++ for a clang build) found; NOT RUN")
  endif()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/nnhalArmHeaders.cmake)  # arm-none-eabi-g++ (Cortex-M7) checks

# ---------------------------------------------------------------------------------------------
# The amalgamated single header must match include/
# ---------------------------------------------------------------------------------------------
if(Python3_FOUND)
  add_test(NAME single_include_up_to_date
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tools/amalgamate.py
            ${PROJECT_SOURCE_DIR}/include nnhal/nnhal_all.hpp
            ${PROJECT_SOURCE_DIR}/single_include/nnhal/nnhal.hpp --check)
else()
  nnhal_add_skipped_test(single_include_up_to_date
    "python3 not found; single_include_up_to_date NOT RUN")
endif()

# ---------------------------------------------------------------------------------------------
# Consumers: find_package after install, FetchContent from a local tarball, add_subdirectory
# ---------------------------------------------------------------------------------------------
function(nnhal_add_consumer_test mode)
  add_test(NAME ${mode}_consumer
    COMMAND ${CMAKE_COMMAND}
      -DMODE=${mode}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DBINARY_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${PROJECT_BINARY_DIR}/consumers/${mode}
      -DCONFIG=$<CONFIG>
      "-DGENERATOR=${CMAKE_GENERATOR}"
      -DCXX=${CMAKE_CXX_COMPILER}
      -P ${NNHAL_TESTS_DIR}/cmake/run_consumer.cmake)
  set_tests_properties(${mode}_consumer PROPERTIES TIMEOUT 600)
endfunction()
if(NNHAL_INSTALL)
  nnhal_add_consumer_test(install)
endif()
nnhal_add_consumer_test(fetchcontent)
nnhal_add_consumer_test(subdirectory)

# ---------------------------------------------------------------------------------------------
# The CI script's stage functions (tools/test_lib.sh) under its own `set -euo pipefail`
# ---------------------------------------------------------------------------------------------
find_program(NNHAL_BASH bash)
if(NNHAL_BASH)
  add_test(NAME ci_lib COMMAND ${NNHAL_BASH} ${NNHAL_TESTS_DIR}/cmake/ci_lib_test.sh)
else()
  nnhal_add_skipped_test(ci_lib "bash not found; ci_lib NOT RUN")
endif()

# ---------------------------------------------------------------------------------------------
# Documents in sync with the code: the programs docs/*.md and README.md show are the example files
# ctest builds and runs, and docs/support-matrix.md is what nnhal_support_matrix prints from the
# operation table and the default kernel set.
# ---------------------------------------------------------------------------------------------
add_executable(nnhal_support_matrix ${PROJECT_SOURCE_DIR}/tools/support_matrix/support_matrix.cpp)
target_link_libraries(nnhal_support_matrix PRIVATE nnhal_dev nnhal_default_kernels)
if(NNHAL_PYTHON3)
  add_test(NAME docs_in_sync COMMAND ${NNHAL_PYTHON3} ${NNHAL_TESTS_DIR}/cmake/check_docs.py ${PROJECT_SOURCE_DIR}
           --matrix $<TARGET_FILE:nnhal_support_matrix>)
else()
  nnhal_add_skipped_test(docs_in_sync "python3 not found (tools/install-deps.sh installs it); docs_in_sync NOT RUN")
endif()

# ---------------------------------------------------------------------------------------------
# examples/firmware built for a Cortex-M7 and run on QEMU (when the cross tools are installed)
# ---------------------------------------------------------------------------------------------
include(${PROJECT_SOURCE_DIR}/cmake/nnhalFirmware.cmake)
