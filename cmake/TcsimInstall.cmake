# `cmake --install`: the model library, its public headers, a CMake package
# (find_package(tcsim) -> target tcsim::tcsim), a pkg-config file (tcsim.pc) and the
# data of the tcsim tool (cli/CMakeLists.txt installs the tool itself).
# Included from model/CMakeLists.txt after tcsim_model is defined; docs/integration.md
# says how a host uses the installed tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(tcsim_model PROPERTIES EXPORT_NAME tcsim)
# Every public header: tcsim.h includes the others.
file(GLOB TCSIM_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/*.h)

install(TARGETS tcsim_model EXPORT tcsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${TCSIM_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT tcsimTargets NAMESPACE tcsim::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tcsim)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tcsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/tcsimConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tcsim)
# Before 1.0 a minor version may change the API: only the same minor is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tcsimConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tcsimConfig.cmake ${CMAKE_BINARY_DIR}/tcsimConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tcsim)

# pkg-config: the prefix is taken relative to the .pc file, so an installed tree can
# be moved (pkg-config's ${pcfiledir}).
file(RELATIVE_PATH TCSIM_PC_PREFIX_REL
     /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_CURRENT_LIST_DIR}/tcsim.pc.in ${CMAKE_BINARY_DIR}/tcsim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/tcsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The timing parameters, as a template for describing other GPUs (tc_gpu_timing_parse);
# the library itself has them compiled in.
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/data/timing.txt DESTINATION ${CMAKE_INSTALL_DATADIR}/tcsim)

# The A100 hardware vectors with their licence (BSD-2, which asks that it travel with
# them) and README: `tcsim vectors` and `tcsim demo` read them there (cli/data_dir.h).
install(DIRECTORY ${TCSIM_DATA_DIR}/vectors DESTINATION ${CMAKE_INSTALL_DATADIR}/tcsim)
