# What leaves the libraries (docs/architecture.md, "Errors"): kinevo's io::option_error (an
# option or argument out of range, named), io::input_error (bad input data or file content) and
# core::resource_error (a system resource), never a bare standard exception. This check reads the
# sources: no library source throws `std::...` except the few below, each with its count and why.
#   cmake -DSOURCE_DIR=... -P library_exceptions.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "library_exceptions.cmake: -DSOURCE_DIR=... is required")
endif()

# file=count: the number of `throw std::` a file may hold. A new throw in one of these files
# fails the check as well as one elsewhere.
set(allowed
  # Run failures (exit status 1), not yet results with a summary (issue 27, item 3):
  # - an island's evaluation failed on another MPI rank: its exception's type cannot cross MPI,
  #   so every rank throws the agreed message (the threads' path rethrows the original);
  "ga/island_model.cpp=2"
  # - the objective or a violation returned NaN or infinity: the problem, not the options, failed;
  "ga/island.cpp=1"
  # - the data do not determine the unknowns (rank-deficient least squares: `synth fourbar` on a
  #   constant output angle exits 1, tests/cli/test_cli_exit_status.cpp), the singular exact
  #   Freudenstein system, and a dyad search in which no start converged;
  "synthesis/common/least_squares.cpp=2"
  "synthesis/linkages/freudenstein.cpp=1"
  "synthesis/linkages/dyad_guidance.cpp=1"
  # - signals caught inside synthesis and reported as an infeasible result (fourbar_synthesis,
  #   ga_synthesis, crank_constrained catch them): no linkage of the required type.
  "synthesis/common/interior_penalty.cpp=1"
  "synthesis/linkages/crank_constrained.cpp=1"
  "synthesis/linkages/fourbar_synthesis.cpp=1"
  # Internal invariants that fail only on a defect of kinevo itself (std::logic_error, exit 1
  # "error: ..."): the factorisation's structure is not the one the code built.
  "mechanics/solvers/sparse_gram.cpp=1"
  "mechanics/kinematics/sparse_rank_qr.cpp=1")

set(libraries core io ga symbolic mechanics gauss studies synthesis optimization analysis)
set(violations "")
set(seen "")
foreach(library IN LISTS libraries)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${library}/*.hpp" "${SOURCE_DIR}/${library}/*.cpp")
  foreach(source IN LISTS sources)
    file(RELATIVE_PATH name "${SOURCE_DIR}" "${source}")
    file(STRINGS "${source}" throws REGEX "throw[ \t]+std::")
    list(LENGTH throws count)
    set(limit 0)
    foreach(entry IN LISTS allowed)
      if(entry MATCHES "^(.*)=([0-9]+)$" AND CMAKE_MATCH_1 STREQUAL name)
        set(limit ${CMAKE_MATCH_2})
        list(APPEND seen "${name}")
      endif()
    endforeach()
    if(count GREATER limit)
      list(JOIN throws "\n    " lines)
      list(APPEND violations
           "${name}: ${count} `throw std::` (allowed ${limit}); throw io::option_error, io::input_error or core::resource_error:\n    ${lines}")
    endif()
  endforeach()
endforeach()

# An allow-list entry for a file that no longer exists is stale.
foreach(entry IN LISTS allowed)
  string(REGEX REPLACE "=.*$" "" name "${entry}")
  if(NOT name IN_LIST seen)
    list(APPEND violations "${name}: in the allow-list but not a library source")
  endif()
endforeach()

if(violations)
  list(JOIN violations "\n" report)
  message(FATAL_ERROR "standard exceptions thrown by the libraries:\n${report}")
endif()
