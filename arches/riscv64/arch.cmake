# Facts about the riscv64 target that every toolchain file for it shares.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(XSDT_ARCH riscv64)
set(XSDT_TRIPLE riscv64-linux-gnu)
set(XSDT_EMULATOR qemu-riscv64 -L /usr/riscv64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR ${XSDT_EMULATOR})
# Debian packages that provide the target's libraries, binutils and emulator.
set(XSDT_ARCH_PACKAGES g++-riscv64-linux-gnu qemu-user binutils-multiarch)
