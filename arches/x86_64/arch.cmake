# Facts about the x86_64 target that every toolchain file for it shares.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(XSDT_ARCH x86_64)
set(XSDT_TRIPLE x86_64-linux-gnu)
set(XSDT_EMULATOR "")  # runs natively
set(CMAKE_CROSSCOMPILING_EMULATOR ${XSDT_EMULATOR})
# Debian packages that provide the target's libraries, binutils and emulator.
set(XSDT_ARCH_PACKAGES binutils-multiarch)
