#!/usr/bin/env bash
# The tests: set up, then run every CTest test (unit tests, inspector CLI
# tests, the disabled-cost bound and one conformance test per target x
# compiler). Extra arguments go to ctest (e.g. -L arch:riscv64).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${XSDT_BUILD_DIR:-$repo/build}
bash "$repo/ci/build.sh"
cd "$build"
# Every core: the conformance tests each take them all (their PROCESSORS
# property), the small tests run side by side.
exec ctest --output-on-failure -j "$(nproc)" "$@"
