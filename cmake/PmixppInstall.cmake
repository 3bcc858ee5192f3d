# Install rules: `cmake --install` yields an ordinary prefix tree
#
#   lib/libpmix.so.2.0.0, libpmix.so.2, libpmix.so     the library
#   lib/pmixpp/pmixpp_<fw>_<name>.so                   components (own folder, so
#                                                      OpenPMIx can sit beside us)
#   include/pmix*.h, include/pmixpp/*.h(pp)            public API and component SDK
#   bin/pmixpp_info                                    (installed by src/bin)
#   lib/pkgconfig/pmix.pc                              for `pkg-config pmix`
#   lib/cmake/pmixpp/                                  find_package(pmixpp): targets
#                                                      pmixpp::pmix, pmixpp::sdk and
#                                                      pmixpp_add_component()
#   etc/pmixpp-mca-params.conf                         site settings; not installed,
#                                                      written by the site, found at
#                                                      run time next to lib/ and bin/
#
# Everything installed is relocatable: binaries use $ORIGIN RUNPATHs and the
# package files locate the prefix from their own path, so a tree installed
# with `cmake --install <build> --prefix <anywhere>` works where it lands.
include(CMakePackageConfigHelpers)
include(PmixppComponent)
_pmixpp_define_in_tree_sdk()

set(PMIXPP_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/pmixpp")
set(PMIXPP_INSTALL_PKGCONFIG_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

install(TARGETS pmix pmixpp_sdk EXPORT pmixppTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

# Public PMIx headers (any *.h under include/, sub-folders kept) and the SDK.
# framework/src stays private: components see only the SDK.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/framework/include/pmixpp/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/pmixpp"
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# The component folder exists even before any component is installed, so
# pmixpp_info and users find the documented place.
install(DIRECTORY DESTINATION "${PMIXPP_INSTALL_COMPONENT_DIR}")

# --- CMake package -----------------------------------------------------------
install(EXPORT pmixppTargets
  NAMESPACE pmixpp::
  DESTINATION "${PMIXPP_INSTALL_CMAKE_DIR}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/pmixppConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/pmixppConfig.cmake"
  INSTALL_DESTINATION "${PMIXPP_INSTALL_CMAKE_DIR}"
  PATH_VARS PMIXPP_INSTALL_COMPONENT_DIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)

# 0.x releases may change the SDK between minors; the component ABI has its
# own major/minor check at load time anyway.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/pmixppConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)

install(FILES
  "${PROJECT_BINARY_DIR}/pmixppConfig.cmake"
  "${PROJECT_BINARY_DIR}/pmixppConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/PmixppComponent.cmake"
  DESTINATION "${PMIXPP_INSTALL_CMAKE_DIR}")

# --- pkg-config --------------------------------------------------------------
# The .pc file finds its prefix through ${pcfiledir}, so it stays right
# wherever the tree is installed (`cmake --install --prefix` happens after
# configure, when CMAKE_INSTALL_PREFIX may still be the default).
file(RELATIVE_PATH PMIXPP_PC_TO_PREFIX
  "/prefix/${PMIXPP_INSTALL_PKGCONFIG_DIR}" "/prefix")
string(REGEX REPLACE "/$" "" PMIXPP_PC_TO_PREFIX "${PMIXPP_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/pmix.pc.in" "${PROJECT_BINARY_DIR}/pmix.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/pmix.pc" DESTINATION "${PMIXPP_INSTALL_PKGCONFIG_DIR}")

# --- component index ---------------------------------------------------------
# Installed files have new modification times (and may have a new RUNPATH),
# so the build tree's index would be stale: the installed pmixpp_info writes
# the installed directory's own (framework/src/component_index.h). A failure
# only costs speed: components without a current entry are loaded to learn
# what it would have said.
string(CONFIGURE [[
  set(_pmixpp_root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
  execute_process(
    COMMAND "${_pmixpp_root}/@CMAKE_INSTALL_BINDIR@/pmixpp_info" --write-index
            "${_pmixpp_root}/@PMIXPP_INSTALL_COMPONENT_DIR@"
    RESULT_VARIABLE _pmixpp_index_rc)
  if(NOT _pmixpp_index_rc EQUAL 0)
    message(WARNING "pmixpp: could not write the component index (pmixpp_info --write-index)")
  endif()
]] _pmixpp_index_code @ONLY)
install(CODE "${_pmixpp_index_code}")
