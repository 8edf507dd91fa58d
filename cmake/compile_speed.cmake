# What keeps a build on two cores short (docs/build.md has the measurements behind each choice):
# ccache when it is installed, Eigen's decompositions instantiated once (core/), unity builds of
# the tests. Precompiled headers were measured and not kept (docs/build.md).

# ccache is used when present and never required. The launcher script (written into the build
# folder) makes paths relative to the source tree, so that a second clone of the same sources
# (a CI run on a machine that built before) reuses the cache.
option(KINEVO_CCACHE "Compile through ccache when it is installed" ON)
if(KINEVO_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(KINEVO_CCACHE_PROGRAM ccache)
  if(KINEVO_CCACHE_PROGRAM)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/ccache_launcher.sh.in
                   ${PROJECT_BINARY_DIR}/ccache-launcher @ONLY
                   FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${PROJECT_BINARY_DIR}/ccache-launcher)
    set(CMAKE_C_COMPILER_LAUNCHER ${PROJECT_BINARY_DIR}/ccache-launcher)
    message(STATUS "kinevo: compiling through ccache (${KINEVO_CCACHE_PROGRAM})")
  endif()
endif()

# Unity builds: a target is compiled in batches of files (one compiler run per batch), which
# parses the heavy headers (Eigen, GiNaC, CLI11, nlohmann-json) once per batch and shares the
# template instantiations the files of a batch have in common. The libraries, the executable and
# the Python module use them by default; the tests when KINEVO_UNITY_TESTS is on. A batch must
# compile as one file: no two files of a target may define the same helper name at namespace
# scope (shared helpers live in one header: core/, io/json_number.hpp, ...).
# Batches of 16: two of mechanics' batches of 8 took 80.0 s of CPU, the same 16 files in one batch
# 60.6 s (-24 %); two test batches of 8, 66.9 s against 58.8 s (-12 %), 1.3 GB at most
# (docs/build.md). The price is a larger recompile after a real edit of one file
# (-DKINEVO_UNITY=OFF for a long edit-compile session). The test executables in batches of 32:
# test_mechanics' first two batches of 16 took 55.1 + 44.6 s of CPU (sanitizer build), the same
# 32 files in one batch 81.1 s (-19 %), 1.05 GB. The libraries keep 16 in the first build,
# whose compile jobs must keep both cores busy to the end (and whose files are not checked for
# names two files of one batch of 32 would both define: analysis/ has such a `deg`).
option(KINEVO_UNITY "Unity builds of the libraries, the executable and the Python module" ON)
set(KINEVO_UNITY_BATCH_LIBS 16 CACHE STRING "Files per unity batch of a library or the executable")
option(KINEVO_UNITY_TESTS "Unity builds of the test executables" ON)
set(KINEVO_UNITY_BATCH 32 CACHE STRING "Files per unity batch of a test executable")
# The batches are written here rather than by CMake's UNITY_BUILD, whose batch files include
# each source by its absolute path: those paths reach the preprocessed text, so ccache could not
# share a batch between two clones or worktrees of the same commit. A batch here includes its
# files relative to the source tree (`#include "mechanics/solvers/gigsp_solver.cpp"`, found through
# -I<source tree>, which the ccache launcher makes relative), and a file marked
# SKIP_UNITY_BUILD_INCLUSION is compiled alone as before.
function(kinevo_unity_batches target enabled batch)
  if(NOT ${enabled})
    return()
  endif()
  get_target_property(_sources ${target} SOURCES)
  set(_included "")
  foreach(_s IN LISTS _sources)
    get_source_file_property(_skip ${_s} SKIP_UNITY_BUILD_INCLUSION)
    if(_s MATCHES "\\.cpp$" AND NOT _skip)
      list(APPEND _included ${_s})
    endif()
  endforeach()
  list(LENGTH _included _count)
  set(_files "")
  set(_k 0)
  set(_first 0)
  while(_first LESS _count)
    set(_content "// A unity batch of ${target}, written by cmake/compile_speed.cmake.\n")
    math(EXPR _last "${_first} + ${batch} - 1")
    if(_last GREATER_EQUAL _count)
      math(EXPR _last "${_count} - 1")
    endif()
    foreach(_i RANGE ${_first} ${_last})
      list(GET _included ${_i} _s)
      get_filename_component(_abs ${_s} ABSOLUTE)
      file(RELATIVE_PATH _rel ${PROJECT_SOURCE_DIR} ${_abs})
      string(APPEND _content "#include \"${_rel}\"\n")
      set_source_files_properties(${_s} PROPERTIES HEADER_FILE_ONLY ON)
    endforeach()
    set(_file ${CMAKE_CURRENT_BINARY_DIR}/unity/${target}_${_k}.cpp)
    file(CONFIGURE OUTPUT ${_file} CONTENT "${_content}")  # rewritten only when it changes
    list(APPEND _files ${_file})
    math(EXPR _k "${_k} + 1")
    math(EXPR _first "${_last} + 1")
  endwhile()
  target_sources(${target} PRIVATE ${_files})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
endfunction()
function(kinevo_unity_build target)  # a test executable
  kinevo_unity_batches(${target} KINEVO_UNITY_TESTS ${KINEVO_UNITY_BATCH})
endfunction()
function(kinevo_unity_library target)  # a library, the executable, the Python module
  kinevo_unity_batches(${target} KINEVO_UNITY ${KINEVO_UNITY_BATCH_LIBS})
endfunction()

# Every buildsystem target defined in `dir` and its subfolders, into `out`.
function(kinevo_targets_under dir out)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    kinevo_targets_under(${_sub} _below)
    list(APPEND _targets ${_below})
  endforeach()
  set(${out} ${_targets} PARENT_SCOPE)
endfunction()
