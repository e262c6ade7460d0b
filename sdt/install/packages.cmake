# cpack -G DEB: one package per install component (CMakeLists.txt here).
# Package dependencies on shared libraries come from dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME xsdt)
set(CPACK_PACKAGE_VENDOR "xsdt")
set(CPACK_PACKAGE_CONTACT "xsdt maintainers <maintainers@users.noreply.a-seed-2572fa05.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "portable SDT/USDT probes with an in-process runtime")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libxsdt0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libxsdt-dev)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME xsdt-tools)
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
include(CPack)
