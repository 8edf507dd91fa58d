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

# Unity builds: a test executable is compiled in batches of files (one compiler run per batch),
# which shares the headers' parsing and the template instantiations of a batch. The test files of
# one executable keep their namespace-scope names apart for this (a helper used by several files
# lives in a test-support header of the folder, e.g. tests/ga/ga_test_support.hpp, and no
# using-directive reaches the next file of a batch); tools/unity_names.py lists any name that
# would collide in some order of the files. A build folder configured before keeps its cached
# value (-DKINEVO_UNITY_TESTS=ON).
option(KINEVO_UNITY_TESTS "Unity builds of the test executables" ON)
set(KINEVO_UNITY_BATCH 8 CACHE STRING "Files per unity batch of a test executable")
function(kinevo_unity_build target)
  if(KINEVO_UNITY_TESTS)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${KINEVO_UNITY_BATCH})
  endif()
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
