# GCC 12 targeting riscv64.
include(${CMAKE_CURRENT_LIST_DIR}/../arches/riscv64/arch.cmake)
set(XSDT_COMPILER gcc-12)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc-12)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++-12)
set(XSDT_COMPILER_PACKAGES g++-riscv64-linux-gnu)
