# Runs DRIVER (tape_hex_driver) RUNS times as separate processes, with address-space
# randomisation left on, and fails unless every run prints the same bits. Variables: DRIVER,
# RUNS, ARGS (the model files, ;-separated).
execute_process(COMMAND ${DRIVER} ${ARGS} OUTPUT_VARIABLE _first RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR _first STREQUAL "")
  message(FATAL_ERROR "driver failed with status ${_rc}")
endif()
foreach(_i RANGE 2 ${RUNS})
  execute_process(COMMAND ${DRIVER} ${ARGS} OUTPUT_VARIABLE _next RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "driver run ${_i} failed with status ${_rc}")
  endif()
  if(NOT _next STREQUAL _first)
    message(FATAL_ERROR
      "run ${_i} differs from run 1 (the compiled tapes depend on the process):\n"
      "--- run 1\n${_first}--- run ${_i}\n${_next}")
  endif()
endforeach()
message(STATUS "${RUNS} processes, identical:\n${_first}")
