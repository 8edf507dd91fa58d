# Runs the double-pendulum study with N islands on threads and under `mpiexec -n N`, then
# compares the Table 5.1 tables byte for byte. Variables: KINEVO, MPIEXEC, N, WORK.
separate_arguments(_launcher UNIX_COMMAND "${MPIEXEC}")
file(REMOVE_RECURSE ${WORK})
# The study creates its --out folder but never missing parents (issue 16.10).
file(MAKE_DIRECTORY ${WORK})
set(_args study double-pendulum --islands ${N} --seed 5 --t-end 0.02 --quiet)
execute_process(COMMAND ${KINEVO} ${_args} --out ${WORK}/threads RESULT_VARIABLE _rc_threads)
if(NOT _rc_threads EQUAL 0)
  message(FATAL_ERROR "threads run failed with status ${_rc_threads}")
endif()
execute_process(COMMAND ${_launcher} -n ${N} ${KINEVO} ${_args} --out ${WORK}/mpi
  RESULT_VARIABLE _rc_mpi)
if(NOT _rc_mpi EQUAL 0)
  message(FATAL_ERROR "mpiexec -n ${N} run failed with status ${_rc_mpi}")
endif()
foreach(f table_5_1_default.csv table_5_1_thesis.csv motion.csv)
  file(READ ${WORK}/threads/${f} _a)
  file(READ ${WORK}/mpi/${f} _b)
  if(NOT _a STREQUAL _b)
    message(FATAL_ERROR "${f} differs between threads and mpiexec -n ${N} (see ${WORK})")
  endif()
endforeach()
# motion.csv too: the compiled model gives the same bits in every process (the tape's emission
# order does not depend on GiNaC's address-dependent term order), so the threads run and rank 0
# integrate the same trajectory.
message(STATUS "threads and mpiexec -n ${N}: identical tables and motion")
