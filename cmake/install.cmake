# Installs sweep::sweep (the core) with a config and version file, so that
# consumers write find_package(sweep) and link sweep::sweep.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS sweep EXPORT sweepTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/sweep DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN "io" EXCLUDE PATTERN "render" EXCLUDE)
install(EXPORT sweepTargets NAMESPACE sweep::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sweep)
configure_package_config_file(cmake/sweepConfig.cmake.in
        ${PROJECT_BINARY_DIR}/sweepConfig.cmake
        INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sweep)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sweepConfigVersion.cmake
        COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sweepConfig.cmake ${PROJECT_BINARY_DIR}/sweepConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sweep)
