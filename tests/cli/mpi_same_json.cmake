# Runs `kinevo ARGS --json` with threads and under mpiexec -n N; fails unless the JSON is the
# same apart from the wall-clock "seconds" field.
execute_process(COMMAND ${KINEVO} ${ARGS} OUTPUT_VARIABLE threads RESULT_VARIABLE rc1)
separate_arguments(launcher UNIX_COMMAND "${MPIEXEC}")
execute_process(COMMAND ${launcher} -n ${N} ${KINEVO} ${ARGS} OUTPUT_VARIABLE ranks
                RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "kinevo failed: threads rc=${rc1}, mpiexec rc=${rc2}")
endif()
string(REGEX REPLACE "\"seconds\":[-+0-9.eE]+" "" threads "${threads}")
string(REGEX REPLACE "\"seconds\":[-+0-9.eE]+" "" ranks "${ranks}")
if(threads STREQUAL "")
  message(FATAL_ERROR "kinevo printed nothing")
endif()
if(NOT threads STREQUAL ranks)
  message(FATAL_ERROR "threads and ${N} MPI ranks differ:\n--- threads\n${threads}\n--- ranks\n${ranks}")
endif()
