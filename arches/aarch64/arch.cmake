# Facts about the aarch64 target that every toolchain file for it shares.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(XSDT_ARCH aarch64)
set(XSDT_TRIPLE aarch64-linux-gnu)
set(XSDT_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR ${XSDT_EMULATOR})
# Debian packages that provide the target's libraries, binutils and emulator.
set(XSDT_ARCH_PACKAGES g++-aarch64-linux-gnu qemu-user binutils-multiarch)
