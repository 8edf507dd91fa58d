# Install rules and the exported CMake package (docs/package.md):
#   lib/libkinevo_<module>.a, include/kinevo/<module>/*.hpp, bin/kinevo,
#   lib/cmake/kinevo/{kinevoConfig,kinevoConfigVersion,kinevoTargets}.cmake
# An outside project then uses find_package(kinevo) and target_link_libraries(app kinevo::kinevo).
include(CMakePackageConfigHelpers)

set(KINEVO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kinevo)

install(TARGETS ${_kinevo_module_targets} kinevo_all
  EXPORT kinevoTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS kinevo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers keep their module folder under the kinevo/ prefix; cli/ is the executable's, not the
# library's, and symbolic/sanitizer/ holds only a build-tree source.
foreach(_module IN LISTS KINEVO_MODULES)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_module}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kinevo/${_module}
    FILES_MATCHING PATTERN "*.hpp"
    PATTERN "sanitizer" EXCLUDE)  # else an empty folder is created
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
