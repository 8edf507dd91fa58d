# The default build target (what ./setup.sh builds before the study) must not build the tests,
# the benchmarks or the Python module: those are built by ctest (target kinevo_tests), by
# ./setup.sh --bench and by ./setup.sh --python. Reads the commands Ninja would run for `all` and
# fails on any that compiles or links a file of tests/, bench/ or python/.
#   cmake -DBUILD_DIR=... -DNINJA=... -DBENCH=ON|OFF -P default_target.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR NINJA)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "default_target.cmake: -D${var}=... is required")
  endif()
endforeach()
execute_process(COMMAND "${NINJA}" -C "${BUILD_DIR}" -t commands all
  RESULT_VARIABLE status OUTPUT_VARIABLE commands ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ninja -t commands all failed:\n${errors}")
endif()
string(REPLACE "\n" ";" lines "${commands}")
list(LENGTH lines total)
set(pattern "[ /]tests/|[ /]python/")
if(NOT BENCH)  # configured with -DKINEVO_BUILD_BENCH=ON (./setup.sh --bench) they belong to all
  string(APPEND pattern "|[ /]bench/")
endif()
set(offending "")
foreach(line IN LISTS lines)
  if(line MATCHES "${pattern}")
    string(SUBSTRING "${line}" 0 300 shown)
    list(APPEND offending "${shown}")
  endif()
endforeach()
list(LENGTH offending bad)
if(bad GREATER 0)
  list(JOIN offending "\n  " shown)
  message(FATAL_ERROR "the default target builds ${bad} of its ${total} commands for tests, "
                      "benchmarks or the Python module (keep them out of `all`: EXCLUDE_FROM_ALL, target kinevo_tests):\n  ${shown}")
endif()
message(STATUS "default target: ${total} commands, none for tests, benchmarks or the Python module")
