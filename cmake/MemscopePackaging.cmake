# Installation layout and the Debian package (cpack -G DEB in the build directory).
#
#   bin/memscope, bin/memscope-cli                     (app/CMakeLists.txt)
#   share/memscope/devices.yaml                        (core/CMakeLists.txt; found relative to
#                                                       the executable, see DeviceDatabase)
#   share/applications/memscope.desktop
#   share/icons/hicolor/scalable/apps/memscope.svg
#   share/metainfo/io.github.memscope.memscope.metainfo.xml
# Translations are compiled into the GUI as resources (:/i18n), so there is nothing to install.
include(GNUInstallDirs)

if(MEMSCOPE_BUILD_GUI)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/io.github.memscope.memscope.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/metainfo)
endif()

set(CPACK_PACKAGE_NAME memscope)
set(CPACK_PACKAGE_VENDOR "Memscope")
set(CPACK_PACKAGE_CONTACT "Memscope maintainers <memscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # memscope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The summary (PROJECT_DESCRIPTION) is the first line; this is the long description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Memscope trains a Tiny LLaMA model with LibTorch, records every tensor allocation\n\
and free, and shows where the memory goes: an active-memory timeline, operator\n\
tables, scaling sweeps and a memory planner. memscope-cli does the same headless.")
# Library dependencies are read off the binaries by dpkg-shlibdeps (libtorch1.13, the Qt 6
# libraries, libyaml-cpp0.7, ...). LibTorch links the generic BLAS interface, which any BLAS
# satisfies; OpenBLAS is what makes it fast (25x the reference BLAS on a 1024^3 matmul, see
# docs/DESIGN-LOG.md), so it is a dependency too.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-openmp")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "desktop-file-utils")
include(CPack)
