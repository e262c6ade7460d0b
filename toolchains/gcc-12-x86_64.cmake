# GCC 12 targeting x86_64.
include(${CMAKE_CURRENT_LIST_DIR}/../arches/x86_64/arch.cmake)
set(XSDT_COMPILER gcc-12)
set(CMAKE_C_COMPILER gcc-12)
set(CMAKE_CXX_COMPILER g++-12)
set(XSDT_COMPILER_PACKAGES g++-12)
