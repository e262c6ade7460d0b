#!/usr/bin/env bash
# Installs the Debian packages, then configures and builds the host tools
# into build/ (or $XSDT_BUILD_DIR). Shared by ci/matrix.sh and ci/test.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${XSDT_BUILD_DIR:-$repo/build}

if [ "$(id -u)" = 0 ]; then
  bash "$repo/toolchains/install-deps.sh"
else
  echo "ci/build.sh: not root; skipping package installation" >&2
fi
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
