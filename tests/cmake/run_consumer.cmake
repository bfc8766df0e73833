# Builds and runs tests/cmake/consumer against nnhal.  Run with cmake -P, with
#   MODE        install | fetchcontent | subdirectory
#   SOURCE_DIR  nnhal's source tree        BINARY_DIR  nnhal's build tree (for install)
#   WORK_DIR    scratch folder (wiped)     CONFIG      build type
#   GENERATOR   CMake generator            CXX         C++ compiler

cmake_minimum_required(VERSION 3.21)

foreach(var MODE SOURCE_DIR BINARY_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer: ${var} is not set")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

# Configures, builds and runs the consumer in WORK_DIR/<name>.
function(consumer name)
  set(build "${WORK_DIR}/${name}")
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/cmake/consumer" -B "${build}"
      -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_BUILD_TYPE=${CONFIG}" ${ARGN})
  run("${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")
  foreach(exe "${build}/consumer" "${build}/${CONFIG}/consumer")  # single / multi-config
    if(EXISTS "${exe}")
      run("${exe}")
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "consumer executable not found under ${build}")
endfunction()

if(MODE STREQUAL "install")
  set(prefix "${WORK_DIR}/prefix")
  run("${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${prefix}" --config "${CONFIG}")
  if(NOT EXISTS "${prefix}/share/cmake/nnhal/nnhalConfig.cmake")
    message(FATAL_ERROR "the install did not put nnhalConfig.cmake in share/cmake/nnhal")
  endif()
  consumer(package-nnhal -DNNHAL_CONSUMER_MODE=package "-DCMAKE_PREFIX_PATH=${prefix}"
           -DNNHAL_CONSUMER_TARGET=nnhal::nnhal)
  consumer(package-single -DNNHAL_CONSUMER_MODE=package "-DCMAKE_PREFIX_PATH=${prefix}"
           -DNNHAL_CONSUMER_TARGET=nnhal::single)
elseif(MODE STREQUAL "fetchcontent")
  # A release-like archive of the source tree, fetched by URL + hash: no network involved.
  set(archive "${WORK_DIR}/nnhal-src.tar.gz")
  set(parts CMakeLists.txt cmake include)
  foreach(optional single_include README.md LICENSE)
    if(EXISTS "${SOURCE_DIR}/${optional}")
      list(APPEND parts ${optional})
    endif()
  endforeach()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${archive}" -- ${parts}
                  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not create ${archive}")
  endif()
  file(SHA256 "${archive}" sha)
  consumer(fetchcontent -DNNHAL_CONSUMER_MODE=fetchcontent "-DNNHAL_URL=file://${archive}"
           -DNNHAL_URL_SHA256=${sha})
elseif(MODE STREQUAL "subdirectory")
  consumer(subdirectory -DNNHAL_CONSUMER_MODE=subdirectory "-DNNHAL_SOURCE_DIR=${SOURCE_DIR}")
else()
  message(FATAL_ERROR "run_consumer: unknown MODE '${MODE}'")
endif()
