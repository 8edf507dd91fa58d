# Runs DRIVER ARGS with threads and under MPIEXEC -n N and fails unless stdout is identical.
# IGNORE (optional): a regular expression removed from both outputs first (e.g. wall-clock
# fields of a JSON summary).
execute_process(COMMAND ${DRIVER} ${ARGS} OUTPUT_VARIABLE threads RESULT_VARIABLE rc1)
separate_arguments(launcher UNIX_COMMAND "${MPIEXEC}")
execute_process(COMMAND ${launcher} -n ${N} ${DRIVER} ${ARGS} OUTPUT_VARIABLE ranks
                RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "driver failed: threads rc=${rc1}, mpiexec rc=${rc2}")
endif()
if(DEFINED IGNORE)
  string(REGEX REPLACE "${IGNORE}" "" threads "${threads}")
  string(REGEX REPLACE "${IGNORE}" "" ranks "${ranks}")
endif()
if(threads STREQUAL "")
  message(FATAL_ERROR "driver printed nothing")
endif()
if(NOT threads STREQUAL ranks)
  message(FATAL_ERROR "threads and ${N} MPI ranks differ:\n--- threads\n${threads}--- ranks\n${ranks}")
endif()
message(STATUS "identical:\n${threads}")
