# Clang N (default 14) targeting one arch of arches/:
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/clang.cmake -DXSDT_ARCH=<arch>
#         [-DXSDT_CLANG_VERSION=N]
#
# One clang serves every arch (--target=<triple>). It finds Debian's GNU
# cross binutils and the cross gcc's libraries itself and links with GNU ld
# (no --sysroot: Debian's libc.so linker script uses absolute paths).
include(${CMAKE_CURRENT_LIST_DIR}/xsdt-arch.cmake)
xsdt_toolchain_arch()
if(NOT XSDT_CLANG_VERSION)
  set(XSDT_CLANG_VERSION 14)
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES XSDT_CLANG_VERSION)
set(XSDT_COMPILER clang-${XSDT_CLANG_VERSION})
set(CMAKE_C_COMPILER clang-${XSDT_CLANG_VERSION})
set(CMAKE_CXX_COMPILER clang++-${XSDT_CLANG_VERSION})
set(CMAKE_C_COMPILER_TARGET ${XSDT_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${XSDT_TRIPLE})
set(XSDT_COMPILER_PACKAGES clang-${XSDT_CLANG_VERSION})
if(NOT XSDT_ARCH_NATIVE)
  # The target's libgcc, libc and libstdc++ come with its cross g++.
  list(APPEND XSDT_COMPILER_PACKAGES g++-${XSDT_TRIPLE})
endif()
