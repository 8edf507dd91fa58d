# SuiteSparseQR (Debian's libsuitesparse-dev; no CMake package in 5.12) for a target whose
# sources call it: the solvers' sparse QTZ decomposition and the kinematics' sparse rank
# analysis. Absolute library paths, so that the exported package links them too; the headers
# are SYSTEM and private (only the calling files, compiled outside the unity batches, see
# cholmod.h's macros).
function(kinevo_link_suitesparse_qr target)
  find_path(KINEVO_SPQR_INCLUDE_DIR SuiteSparseQR.hpp PATH_SUFFIXES suitesparse REQUIRED)
  find_library(KINEVO_SPQR_LIBRARY spqr REQUIRED)
  find_library(KINEVO_CHOLMOD_LIBRARY cholmod REQUIRED)
  find_library(KINEVO_SUITESPARSECONFIG_LIBRARY suitesparseconfig REQUIRED)
  target_include_directories(${target} SYSTEM PRIVATE ${KINEVO_SPQR_INCLUDE_DIR})
  target_link_libraries(${target} PRIVATE ${KINEVO_SPQR_LIBRARY} ${KINEVO_CHOLMOD_LIBRARY}
                                          ${KINEVO_SUITESPARSECONFIG_LIBRARY})
endfunction()
