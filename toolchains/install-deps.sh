#!/usr/bin/env bash
# Installs every package the xsdt build and conformance suite need on Debian 12.
# Idempotent: packages already present are skipped by apt; safe to run again.
set -euo pipefail

packages=(
  # build system and host tools
  cmake make ninja-build pkg-config python3 python3-psutil
  libssl-dev # SHA-256 for the lit suite's build cache (lit-tests/tools)
  # host compilers
  g++ clang-14 lld-14 llvm-14 llvm-14-tools
  # newer clangs for the toolchain matrix (ci/toolchains.py finds them): each
  # pulls its own libclang-common-N-dev and links with the GNU cross binutils
  # and gcc-12's cross libraries below, so no other package is needed.
  # All three are in bookworm main (clang-19 as 1:19.1.7-3~deb12u1).
  clang-15 clang-16 clang-19
  # cross compilers (gcc-12): i386, aarch64, riscv64
  g++-i686-linux-gnu g++-aarch64-linux-gnu g++-riscv64-linux-gnu
  # emulation and ELF tooling
  qemu-user binutils-multiarch libelf-dev
  # test and benchmark libraries
  libgtest-dev libbenchmark-dev
  libclang-rt-14-dev # libFuzzer and the sanitizer runtimes (sdt/fuzz)
  # the reference implementation, for side-by-side comparison
  systemtap-sdt-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
