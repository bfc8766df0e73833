# run(COMMAND...) for the ctest scripts run with cmake -P: prints the command, runs it, and stops
# the script with an error naming it (prefixed by RUN_CONTEXT, when set) if it exits non-zero.
function(run)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "run: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    if(RUN_CONTEXT)
      message(FATAL_ERROR "${RUN_CONTEXT}: failed (exit ${rc}): ${shown}")
    endif()
    message(FATAL_ERROR "failed (exit ${rc}): ${shown}")
  endif()
endfunction()
