# Facts about the i386 target that every toolchain file for it shares.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i386)
set(XSDT_ARCH i386)
set(XSDT_TRIPLE i686-linux-gnu)
set(XSDT_EMULATOR qemu-i386 -L /usr/i686-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR ${XSDT_EMULATOR})
# Debian packages that provide the target's libraries, binutils and emulator.
set(XSDT_ARCH_PACKAGES g++-i686-linux-gnu qemu-user binutils-multiarch)
