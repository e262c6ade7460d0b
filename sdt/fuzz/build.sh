#!/usr/bin/env bash
# Configures and builds the fuzzers with clang into their own build directory
# (kept between runs, so an unchanged tree rebuilds in about a second), then
# writes the binary note seeds from the text descriptions (make_seeds.py),
# the ELF seeds from those (elf_seeds, built with the fuzzers) and the
# SDT(9) record seeds (make_sdt_seeds.py).
#   build.sh SOURCE_ROOT FUZZ_BUILD_DIR CLANGXX PYTHON SEED_DIR
set -euo pipefail
root=$1 build=$2 cxx=$3 python=$4 seeds=$5
here=$root/sdt/fuzz

if [ ! -f "$build/CMakeCache.txt" ]; then
  # Name the missing package instead of failing inside CMake's link check.
  mkdir -p "$build"
  probe=$build/toolchain-probe
  if ! printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }\n' |
      "$cxx" -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" 2>"$probe.log"; then
    cat "$probe.log" >&2
    echo "fuzz: $cxx cannot link -fsanitize=fuzzer,address,undefined:" \
      "install libclang-rt-14-dev (bash toolchains/install-deps.sh)" >&2
    exit 1
  fi
  rm -f "$probe" "$probe.log"
fi

# The optimisation and sanitizer flags are set in clang/CMakeLists.txt.
# One translation unit per target's sources: 104 CPU-s instead of 137 for a
# cold tree (2026-12-02), the same fuzzers.
cmake -S "$here/clang" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_UNITY_BUILD=ON \
  >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
cmake --build "$build" -j "$(nproc)"

rm -rf "$seeds"
"$python" "$here/make_seeds.py" "$here/corpus/notes" "$seeds"
"$build/elf_seeds" "$seeds/notes" "$seeds/elf"
"$python" "$here/make_sdt_seeds.py" "$seeds/sdt_records"
