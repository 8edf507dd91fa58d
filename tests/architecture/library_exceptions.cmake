# What leaves the libraries (docs/architecture.md, "Errors"): kinevo's io::option_error (an
# option or argument out of range, named), io::input_error (bad input data or file content),
# core::resource_error (a system resource) and ga::evaluation_error (the problem's evaluation
# failed during a GA run), never a bare standard exception. A run that fails otherwise is a
# result with a failed summary. This check reads the sources: no library source throws
# `std::...` except the few below, each with its count and why.
#   cmake -DSOURCE_DIR=... -P library_exceptions.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "library_exceptions.cmake: -DSOURCE_DIR=... is required")
endif()

# file=count: the number of `throw std::` a file may hold. A new throw in one of these files
# fails the check as well as one elsewhere.
set(allowed
  # Signals caught inside synthesis and reported as an infeasible result (fourbar_synthesis,
  # ga_synthesis, crank_constrained catch them): no linkage of the required type. They never
  # leave the library: synthesize_fourbar turns them into a summary (infeasible).
  "synthesis/common/interior_penalty.cpp=1"
  "synthesis/linkages/crank_constrained.cpp=1"
  "synthesis/linkages/fourbar_synthesis.cpp=1"
  # Internal invariants that fail only on a defect of kinevo itself (std::logic_error, exit 1
  # "error: ..."): the factorisation's structure is not the one the code built.
  "mechanics/solvers/gram_structure.cpp=1"
  "mechanics/kinematics/sparse_rank_qr.cpp=1")

set(libraries core io numerics ga symbolic mechanics gauss studies synthesis optimization analysis)
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
           "${name}: ${count} `throw std::` (allowed ${limit}); throw io::option_error, io::input_error, core::resource_error or ga::evaluation_error, or return a failed summary:\n    ${lines}")
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
