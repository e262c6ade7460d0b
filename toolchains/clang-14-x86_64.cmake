# Clang 14 targeting x86_64; it finds Debian's GNU cross binutils and libraries
# itself (no --sysroot: Debian's libc.so linker script uses absolute paths).
include(${CMAKE_CURRENT_LIST_DIR}/../arches/x86_64/arch.cmake)
set(XSDT_COMPILER clang-14)
set(CMAKE_C_COMPILER clang-14)
set(CMAKE_CXX_COMPILER clang++-14)
set(CMAKE_C_COMPILER_TARGET ${XSDT_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${XSDT_TRIPLE})
set(XSDT_COMPILER_PACKAGES clang-14)
