# cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=...
#       [-DC_COMPILER=...] [-DCOMPILER_LAUNCHER=...] [-DEXTRA_FLAGS=...] -P install_and_use.cmake
# Installs the build tree into WORK_DIR/prefix, checks the installed layout, then builds and runs
# the outside project CONSUMER_DIR against it (tests/package/CMakeLists.txt).
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR CONSUMER_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_and_use.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: done")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed bin/kinevo include/kinevo/ga/island_model.hpp
        include/kinevo/mechanics/model/model.hpp include/kinevo/mechanics/solvers/solver_factory.hpp
        lib/libkinevo_ga.a lib/libkinevo_mechanics_solvers.a lib/cmake/kinevo/kinevoConfig.cmake
        lib/cmake/kinevo/kinevoConfigVersion.cmake lib/cmake/kinevo/kinevoTargets.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${prefix}/${installed}")
  endif()
endforeach()
# Headers only: the CLI's folder and the build-only sanitizer source are not part of the package.
foreach(absent include/kinevo/cli include/kinevo/symbolic/sanitizer)
  if(EXISTS ${prefix}/${absent})
    message(FATAL_ERROR "installed but private: ${prefix}/${absent}")
  endif()
endforeach()
# Only public headers: no detail/ folder, and none includes toml++, GiNaC or a header that is not
# installed (docs/architecture.md).
file(GLOB_RECURSE installed_headers RELATIVE ${prefix}/include ${prefix}/include/kinevo/*)
foreach(header IN LISTS installed_headers)
  if(header MATCHES "/detail/")
    message(FATAL_ERROR "installed but internal: ${prefix}/include/${header}")
  endif()
  file(STRINGS ${prefix}/include/${header} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "[\"<](toml\\+\\+|ginac)/")
      message(FATAL_ERROR "${header} includes toml++ or GiNaC, which the package does not export: ${line}")
    endif()
    if(line MATCHES "[\"<](kinevo/[^\">]+)[\">]" AND NOT EXISTS ${prefix}/include/${CMAKE_MATCH_1})
      message(FATAL_ERROR "${header} includes ${CMAKE_MATCH_1}, which is not installed")
    endif()
  endforeach()
endforeach()
list(LENGTH installed_headers installed_count)
message(STATUS "${installed_count} public headers installed, none internal")
run_step("installed kinevo --help" ${prefix}/bin/kinevo --help)
# The documentation --help points to, and the man page when help2man made one.
foreach(installed share/doc/kinevo/README.md share/doc/kinevo/cli.md share/doc/kinevo/package.md
        share/doc/kinevo/figures/chain_6r_hexflex.svg)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${prefix}/${installed}")
  endif()
endforeach()
if(MAN)
  file(READ ${prefix}/share/man/man1/kinevo.1 man_page)
  if(NOT man_page MATCHES "TH KINEVO \"1\"" OR NOT man_page MATCHES "genetic algorithms and classical")
    message(FATAL_ERROR "share/man/man1/kinevo.1 is not kinevo's man page")
  endif()
  # A page per subcommand at every level, each with that subcommand's own options.
  foreach(page_option kinevo-simulate:--formulation kinevo-synth-fourbar:--table
          kinevo-analyze-loop-rrrr:--branch kinevo-model-chain:--links kinevo-study-double-pendulum:--t-end)
    string(REPLACE ":" ";" page_option "${page_option}")
    list(GET page_option 0 page)
    list(GET page_option 1 option)
    set(path ${prefix}/share/man/man1/${page}.1)
    if(NOT EXISTS ${path})
      message(FATAL_ERROR "no man page ${path}")
    endif()
    file(READ ${path} text)
    string(REPLACE "\\-" "-" text "${text}")
    string(FIND "${text}" "${option}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${path} does not name ${option}")
    endif()
  endforeach()
endif()

# The Python module, when this build has one: `import kinevo` from the installed prefix alone.
if(PYTHON)
  file(GLOB python_module ${prefix}/lib/python3*/dist-packages/kinevo*.so)
  if(NOT python_module)
    message(FATAL_ERROR "the Python module is not installed under ${prefix}/lib/python3*/dist-packages")
  endif()
  get_filename_component(python_dir "${python_module}" DIRECTORY)
  if(NOT EXISTS ${python_dir}/kinevo.pyi)
    message(FATAL_ERROR "the type stubs kinevo.pyi are not installed beside the module")
  endif()
  run_step("import the installed Python module" ${CMAKE_COMMAND} -E env PYTHONPATH=${python_dir}
           ${PYTHON} -c "import kinevo; r = kinevo.optimize(lambda x: (x * x).sum(axis=1), 2, lower=[-1, -1], upper=[1, 1], seed=1); assert r.best_value < 1e-3, r.best_value")
endif()

set(configure_args -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(C_COMPILER)
  # Unused by the C++-only consumer (CMake says so only as a warning); the C one uses it.
  list(APPEND configure_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(COMPILER_LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${COMPILER_LAUNCHER})
endif()
if(EXTRA_FLAGS)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}"
       "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
  # CLN (under GiNaC) allocates at static initialisation and never frees; kinevo's own
  # executables suppress that in the build tree only, so the consumer runs without leak checks.
  set(ENV{ASAN_OPTIONS} "detect_leaks=0:abort_on_error=1")
endif()
# A project with C and C++ (MPI found through its C component): configured only.
if(CONSUMER_C_DIR)
  set(c_args ${configure_args})
  list(TRANSFORM c_args REPLACE "^${CONSUMER_DIR}$" "${CONSUMER_C_DIR}")
  list(TRANSFORM c_args REPLACE "^${WORK_DIR}/build$" "${WORK_DIR}/build_c")
  run_step("configure the C and C++ consumer" ${CMAKE_COMMAND} ${c_args})
endif()
# The consumer is C++ only (project(... LANGUAGES CXX)): the package must not need C.
run_step("configure the consumer" ${CMAKE_COMMAND} ${configure_args})
run_step("build the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run the consumer" ${WORK_DIR}/build/consumer)
message(STATUS "consumer output:\n${step_output}")
