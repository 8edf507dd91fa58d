# Install rules and the exported CMake package (docs/package.md):
#   lib/libkinevo_<library>.a, include/kinevo/<library>/*.hpp (not detail/), bin/kinevo,
#   lib/cmake/kinevo/{kinevoConfig,kinevoConfigVersion,kinevoTargets}.cmake
# An outside project then uses find_package(kinevo) and target_link_libraries(app kinevo::kinevo).
include(CMakePackageConfigHelpers)

set(KINEVO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kinevo)

install(TARGETS ${_kinevo_library_targets} kinevo_all
  EXPORT kinevoTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS kinevo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The public headers of every library (<folder>/include/kinevo/...), without their detail/ folders:
# those are internal (and the only ones that include toml++ or GiNaC). cli/ is the executable's.
get_property(_kinevo_header_dirs GLOBAL PROPERTY KINEVO_HEADER_DIRS)
foreach(_dir IN LISTS _kinevo_header_dirs)
  install(DIRECTORY ${_dir}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp"
    PATTERN "detail" EXCLUDE)
endforeach()

install(EXPORT kinevoTargets
  NAMESPACE kinevo::
  DESTINATION ${KINEVO_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kinevoConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kinevoConfig.cmake
  INSTALL_DESTINATION ${KINEVO_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the interface, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kinevoConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kinevoConfig.cmake ${PROJECT_BINARY_DIR}/kinevoConfigVersion.cmake
  DESTINATION ${KINEVO_INSTALL_CMAKEDIR})

# The documentation the --help texts point to (docs/*.md) and the README, under
# share/doc/kinevo, with the figures and example files the pages show.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}
  FILES_MATCHING PATTERN "*.md" PATTERN "*.svg" PATTERN "*.png" PATTERN "*.toml" PATTERN "*.csv" PATTERN "*.py")
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man page kinevo(1), generated from `kinevo --help` and `--version` by help2man when it is
# installed (setup.sh installs it); without help2man the build goes on without a man page.
find_program(KINEVO_HELP2MAN help2man)
if(KINEVO_HELP2MAN)
  set(_kinevo_man_include ${PROJECT_BINARY_DIR}/kinevo_man_include.h2m)
  file(WRITE ${_kinevo_man_include}
    "[DESCRIPTION]\n"
    "kinevo is one executable with subcommands; `kinevo SUBCOMMAND --help` lists the options of "
    "each (`kinevo synth fourbar --help`).\n"
    "[SEE ALSO]\n"
    "The documentation the help texts name as docs/NAME.md is installed as "
    "${CMAKE_INSTALL_FULL_DOCDIR}/NAME.md; start with README.md and cli.md there.\n")
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/kinevo.1
    COMMAND ${KINEVO_HELP2MAN} --no-info --no-discard-stderr
            "--name=genetic algorithms and classical optimisers for mechanism dynamics and synthesis"
            --include=${_kinevo_man_include} --output=${PROJECT_BINARY_DIR}/kinevo.1
            $<TARGET_FILE:kinevo>
    DEPENDS kinevo ${_kinevo_man_include}
    COMMENT "help2man: kinevo.1"
    VERBATIM)
  add_custom_target(kinevo_man ALL DEPENDS ${PROJECT_BINARY_DIR}/kinevo.1)
  install(FILES ${PROJECT_BINARY_DIR}/kinevo.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page (./setup.sh installs help2man)")
endif()
