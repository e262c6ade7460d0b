# GCC 12 targeting aarch64.
include(${CMAKE_CURRENT_LIST_DIR}/../arches/aarch64/arch.cmake)
set(XSDT_COMPILER gcc-12)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc-12)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++-12)
set(XSDT_COMPILER_PACKAGES g++-aarch64-linux-gnu)
