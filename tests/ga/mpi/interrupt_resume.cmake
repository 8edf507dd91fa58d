# An interrupt seen by one MPI rank stops every rank at the same generation, rank 0 writes the
# checkpoint, all exit 130, and the resumed run ends exactly where the uninterrupted one does.
#   -DDRIVER=ga_mpi_interrupt_driver -DMPIEXEC="mpiexec ..." -DN=ranks -DISLANDS=k
#   -DRANK=r -DGENERATION=g -DSIGNAL=INT|TERM -DSTOP=generation expected in the checkpoint
#   -DWORK=folder
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(checkpoint ${WORK}/state.txt)
separate_arguments(launcher UNIX_COMMAND "${MPIEXEC}")
execute_process(COMMAND ${DRIVER} straight ${ISLANDS} ${checkpoint}
                OUTPUT_VARIABLE straight RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR straight STREQUAL "")
  message(FATAL_ERROR "uninterrupted run failed (rc=${rc})")
endif()
execute_process(COMMAND ${launcher} -n ${N} ${DRIVER} interrupt ${ISLANDS} ${checkpoint}
                        ${RANK} ${GENERATION} ${SIGNAL}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 130)
  message(FATAL_ERROR "interrupted run: exit ${rc}, expected 130\n${err}")
endif()
if(NOT EXISTS ${checkpoint})
  message(FATAL_ERROR "interrupted run wrote no checkpoint\n${err}")
endif()
# Written at the interrupt, not earlier: every rank stopped at the next synchronisation point.
file(STRINGS ${checkpoint} saved REGEX "^generation [0-9]+$")
if(NOT saved STREQUAL "generation ${STOP}")
  message(FATAL_ERROR "checkpoint at '${saved}', expected generation ${STOP}\n${err}")
endif()
foreach(how threads mpi)
  if(how STREQUAL "mpi")
    set(cmd ${launcher} -n ${N} ${DRIVER})
  else()
    set(cmd ${DRIVER})
  endif()
  execute_process(COMMAND ${cmd} resume ${ISLANDS} ${checkpoint}
                  OUTPUT_VARIABLE resumed RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "resume (${how}) failed: exit ${rc}\n${err}")
  endif()
  if(NOT resumed STREQUAL straight)
    message(FATAL_ERROR "resumed (${how}) differs:\n--- straight\n${straight}--- resumed\n${resumed}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
message(STATUS "interrupted and resumed bit-identically:\n${straight}")
