# The module dependency graph of docs/architecture.md must be the one CMake builds.
# Configures the source tree once more with --graphviz (no tests, no benchmarks), keeps the edges
# between kinevo's own targets and the two external libraries the rules are about (MPI, GiNaC),
# and compares them with the ```mermaid block of docs/architecture.md.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -P dependency_graph.cmake              check
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DUPDATE=ON -P dependency_graph.cmake  rewrite the block
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "dependency_graph.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja
          -DKINEVO_BUILD_TESTS=OFF -DKINEVO_BUILD_BENCH=OFF "--graphviz=${WORK_DIR}/deps.dot"
  RESULT_VARIABLE configure_status OUTPUT_QUIET ERROR_VARIABLE configure_errors)
if(NOT configure_status EQUAL 0)
  message(FATAL_ERROR "configuring for the graph failed:\n${configure_errors}")
endif()

# Edges are written as `"nodeA" -> "nodeB" [style] // from -> to`.
file(STRINGS "${WORK_DIR}/deps.dot" dot_lines REGEX "// .* -> ")
set(edges "")
foreach(line IN LISTS dot_lines)
  string(REGEX REPLACE "^.*// ([^ ]+) -> ([^ ]+)$" "\\1;\\2" pair "${line}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  set(ours_from FALSE)
  # kinevo_all is the installed umbrella (kinevo::kinevo) over every module, not a layer.
  if(from MATCHES "^kinevo(_[a-z_]+)?$" AND NOT from STREQUAL "kinevo_warnings"
     AND NOT from STREQUAL "kinevo_all")
    set(ours_from TRUE)
  endif()
  if(ours_from AND (to MATCHES "^kinevo_[a-z_]+$" AND NOT to STREQUAL "kinevo_warnings"
                    OR to STREQUAL "MPI::MPI_C" OR to STREQUAL "PkgConfig::GINAC"))
    string(REPLACE "::" "_" to_id "${to}")
    list(APPEND edges "${from} --> ${to_id}")
  endif()
endforeach()
list(REMOVE_DUPLICATES edges)
list(SORT edges)
list(JOIN edges "\n" generated)

set(doc "${SOURCE_DIR}/docs/architecture.md")
file(READ "${doc}" text)
string(REGEX MATCH "```mermaid\ngraph BT\n([^`]*)```" block "${text}")
if(NOT block)
  message(FATAL_ERROR "${doc}: no ```mermaid graph BT block")
endif()
string(STRIP "${CMAKE_MATCH_1}" documented)
string(STRIP "${generated}" generated)

if(UPDATE)
  string(REPLACE "${block}" "```mermaid\ngraph BT\n${generated}\n```" text "${text}")
  file(WRITE "${doc}" "${text}")
  message(STATUS "rewrote the dependency graph of ${doc}")
elseif(NOT documented STREQUAL generated)
  message(FATAL_ERROR "docs/architecture.md's dependency graph differs from CMake's. CMake's:\n"
    "${generated}\n(rewrite it with: cmake -DSOURCE_DIR=. -DWORK_DIR=/tmp/graph -DUPDATE=ON "
    "-P tests/architecture/dependency_graph.cmake)")
endif()
