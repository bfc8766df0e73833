# ctest random_graphs_replay: nnhal_random_graphs --save writes generated models in the corpus
# format; nnhal_cts must read and pass every one of them (their expected outputs are the
# reference kernels' results), and must have run as many models as were saved.
# -DGEN=<nnhal_random_graphs> -DCTS=<nnhal_cts> -DOUT=<folder> -DCOUNT=<models>
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${GEN} --seed 11 --count ${COUNT} --save ${OUT} RESULT_VARIABLE gen_rc OUTPUT_VARIABLE gen_out)
if(NOT gen_rc EQUAL 0)
  message(FATAL_ERROR "nnhal_random_graphs failed (${gen_rc}):\n${gen_out}")
endif()
file(GLOB saved ${OUT}/*.json)
list(LENGTH saved count)
if(NOT count EQUAL COUNT)
  message(FATAL_ERROR "expected ${COUNT} saved models, found ${count}")
endif()
execute_process(COMMAND ${CTS} ${OUT} RESULT_VARIABLE cts_rc OUTPUT_VARIABLE cts_out ERROR_VARIABLE cts_err)
if(NOT cts_rc EQUAL 0)
  message(FATAL_ERROR "nnhal_cts failed on the saved models (${cts_rc}):\n${cts_out}\n${cts_err}")
endif()
if(NOT cts_out MATCHES "${COUNT} passed \\([0-9]+ strict, [0-9]+ runtime only\\), 0 failed, 0 skipped")
  message(FATAL_ERROR "nnhal_cts did not pass all ${COUNT} models:\n${cts_out}")
endif()
message(STATUS "${COUNT} generated models replayed by nnhal_cts")
