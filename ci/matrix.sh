#!/usr/bin/env bash
# The main job: set up, then run the conformance matrix across all targets
# and print it. Extra arguments go to ci/matrix.py (e.g. --arch aarch64).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${XSDT_BUILD_DIR:-$repo/build}
bash "$repo/ci/build.sh"
exec python3 "$repo/ci/matrix.py" --build-dir "$build" "$@"
