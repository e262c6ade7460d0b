# GCC 12 targeting i386.
include(${CMAKE_CURRENT_LIST_DIR}/../arches/i386/arch.cmake)
set(XSDT_COMPILER gcc-12)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc-12)
set(CMAKE_CXX_COMPILER i686-linux-gnu-g++-12)
set(XSDT_COMPILER_PACKAGES g++-i686-linux-gnu)
