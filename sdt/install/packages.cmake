# cpack -G DEB: one package per install component (CMakeLists.txt here).
#   libxsdt0     the shared library            Multi-Arch: same
#   libxsdt-dev  headers, libxsdt.a, packages  Multi-Arch: same
#   xsdt-tools   xsdt-dtrace, xsdt-inspect     Multi-Arch: foreign
# A cross build (a toolchains/ file) packages libxsdt0 and libxsdt-dev for
# its target, installable beside the build machine's own (dpkg
# --add-architecture); the tools are the build machine's.
xsdt_read_arch(${XSDT_ARCH} _xsdt_package_arch)
set(CPACK_PACKAGE_NAME xsdt)
set(CPACK_PACKAGE_VENDOR "xsdt")
set(CPACK_PACKAGE_CONTACT "xsdt maintainers <maintainers@users.noreply.a-seed-2572fa05.example>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${_xsdt_package_arch_DEBIAN_ARCH})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libxsdt0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libxsdt-dev)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME xsdt-tools)
# Each description's first line is the package's summary (no
# CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPack would put that one first in all).
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "xsdt runtime library\nlibxsdt finds, enables and decodes a process's own SDT/USDT probes\nwithout kernel help.")
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "xsdt probe headers, libxsdt development files\nProbe headers for every target (<xsdt/usdt.h>, a drop-in <xsdt/sys-sdt.h>,\nSDT(9) jump sites), libxsdt.a, the CMake package and pkg-config files.")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "xsdt tools: xsdt-dtrace and xsdt-inspect\nxsdt-dtrace replaces SystemTap's dtrace -h/-G build step; xsdt-inspect lists\nand checks the probes of ELF files.")
# The headers' xsdt_add_provider runs xsdt-dtrace; libxsdt-dev takes the
# exact libxsdt0 it was built with.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libxsdt0 (= ${PROJECT_VERSION}), xsdt-tools (= ${PROJECT_VERSION})")
if(CMAKE_CROSSCOMPILING)
  set(CPACK_COMPONENTS_ALL runtime dev)
  # dpkg-shlibdeps finds a library's package in dpkg's database, and the
  # cross libraries (/usr/<triple>/lib) belong to libc6-<arch>-cross and
  # the like, not to the target's libc6. libxsdt.so needs the same three
  # libraries on every arch; the versions are those dpkg-shlibdeps gives
  # the build machine's libxsdt0 (the install.deb test checks both).
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS
      "libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 11)")
else()
  set(CPACK_COMPONENTS_ALL runtime dev tools)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
# Debian 12's CMake (3.25) writes no Multi-Arch field; deb-multiarch.cmake
# adds it to each package after CPack built it.
set(CPACK_XSDT_DEB_MULTIARCH "libxsdt0=same;libxsdt-dev=same;xsdt-tools=foreign")
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb-multiarch.cmake)
include(CPack)
