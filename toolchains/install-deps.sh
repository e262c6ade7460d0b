#!/usr/bin/env bash
# Installs every package the xsdt build and conformance suite need on Debian 12:
# the base packages listed here, then the packages that every arch's
# arches/<arch>/arch.json names (its cross libraries, binutils and emulator).
# Idempotent: packages already present are skipped by apt; safe to run again.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

base=(
  # build system and host tools
  cmake make ninja-build pkg-config python3 python3-psutil
  python3-jinja2 # the templates of report.md and report.html (ci/report.py)
  python3-pyelftools # the ELF reader of the Python tools (ci/elf_reader.py)
  libssl-dev # SHA-256 for the lit suite's build cache (lit-tests/tools)
  # host compilers
  g++ clang-14 lld-14 llvm-14 llvm-14-tools
  # newer clangs for the toolchain matrix (ci/toolchains.py finds them): each
  # pulls its own libclang-common-N-dev and links with the GNU cross binutils
  # and gcc-12's cross libraries below, so no other package is needed.
  # All three are in bookworm main (clang-19 as 1:19.1.7-3~deb12u1).
  clang-15 clang-16 clang-19
  # their sanitizer runtimes (faults/leaks.test; clang-15's are in its
  # libclang-common-15-dev)
  libclang-rt-16-dev libclang-rt-19-dev
  # ELF tooling (each arch's binutils, cross compiler and emulator come from
  # its arch.json, below)
  binutils-multiarch libelf-dev
  # test and benchmark libraries
  libgtest-dev libbenchmark-dev
  libcli11-dev # the command lines of xsdt-dtrace and xsdt-inspect
  nlohmann-json3-dev # xsdt-inspect's JSON output (sdt/inspect)
  groff-base # checks the man pages (ci/check-man-page)
  libclang-rt-14-dev # libFuzzer and the sanitizer runtimes (sdt/fuzz)
  # the reference implementation, for side-by-side comparison
  systemtap-sdt-dev
  # the peer tracer of xsdt-bench-lttng (sdt/bench): its library, its
  # session daemon and command line, and the reader its smoke test checks
  # the trace with
  liblttng-ust-dev lttng-tools babeltrace
  # real consumers that read every cell's probes (conformance/consumers)
  gdb gdb-multiarch bpfcc-tools bpftrace linux-perf systemtap
)

updated=
# install WHAT PACKAGE...: installs those of the packages that are not yet.
install() {
  local what=$1 missing=() p
  shift
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all $# $what packages already installed"
    return
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$updated" ]; then
    apt-get update -q
    updated=1
  fi
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The base first: it brings python3, which reads the arch files.
install base "${base[@]}"

# SystemTap wants a kernel build tree even to elaborate user-space probes; a
# container's own kernel has none, so conformance/consumers/stap.py points
# it (stap -r) at the tree of Debian's kernel headers for this host.
install kernel-tree "linux-headers-$(dpkg --print-architecture)"

# ci/toolchains.py reads arches/*/arch.json (stdlib Python only).
arch_packages=$(python3 "$repo/ci/toolchains.py" --list-packages)
read -r -a arch_list <<< "$arch_packages"
install arch "${arch_list[@]}"
