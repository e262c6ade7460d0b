# GCC N (default 12) targeting one arch of arches/:
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/gcc.cmake -DXSDT_ARCH=<arch>
#         [-DXSDT_GCC_VERSION=N]
#
# The arch that runs natively (its arch.json names no emulator) builds with
# the host's gcc-N; every other with Debian's cross compiler <triple>-gcc-N.
include(${CMAKE_CURRENT_LIST_DIR}/xsdt-arch.cmake)
xsdt_toolchain_arch()
if(NOT XSDT_GCC_VERSION)
  set(XSDT_GCC_VERSION 12)
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES XSDT_GCC_VERSION)
set(XSDT_COMPILER gcc-${XSDT_GCC_VERSION})
if(XSDT_ARCH_NATIVE)
  set(CMAKE_C_COMPILER gcc-${XSDT_GCC_VERSION})
  set(CMAKE_CXX_COMPILER g++-${XSDT_GCC_VERSION})
  set(XSDT_COMPILER_PACKAGES g++-${XSDT_GCC_VERSION})
else()
  set(CMAKE_C_COMPILER ${XSDT_TRIPLE}-gcc-${XSDT_GCC_VERSION})
  set(CMAKE_CXX_COMPILER ${XSDT_TRIPLE}-g++-${XSDT_GCC_VERSION})
  # Debian 12's g++-<triple> is gcc 12; another version has its own package.
  if(XSDT_GCC_VERSION EQUAL 12)
    set(XSDT_COMPILER_PACKAGES g++-${XSDT_TRIPLE})
  else()
    set(XSDT_COMPILER_PACKAGES g++-${XSDT_GCC_VERSION}-${XSDT_TRIPLE})
  endif()
endif()
