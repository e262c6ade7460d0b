#!/usr/bin/env bash
# The main job: set up, then run the conformance matrix across all targets
# and print it. Extra arguments go to ci/matrix.py (e.g. --arch aarch64).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${XSDT_BUILD_DIR:-$repo/build}
# Only what the cells run: the unit tests are ci/test.sh's.
bash "$repo/ci/build.sh" matrix-tools
. "$repo/ci/interpreter.sh"
exec "$xsdt_python" "$repo/ci/matrix.py" --build-dir "$build" "$@"
