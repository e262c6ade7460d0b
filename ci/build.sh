#!/usr/bin/env bash
# Installs the Debian packages, then configures and builds the host tools
# into build/ (or $XSDT_BUILD_DIR). Shared by ci/matrix.sh and ci/test.sh.
# Arguments: the CMake targets to build (default: all).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${XSDT_BUILD_DIR:-$repo/build}

if [ "$(id -u)" = 0 ]; then
  bash "$repo/toolchains/install-deps.sh"
  # perf probe, one of the live tracers (lit-tests/consumers/live-*), writes
  # its uprobe events into tracefs, which a fresh machine may not mount.
  if [ ! -e /sys/kernel/tracing/uprobe_events ] && [ -d /sys/kernel/tracing ]; then
    mount -t tracefs nodev /sys/kernel/tracing ||
      echo "ci/build.sh: cannot mount tracefs: live-perf will be MISSING" >&2
  fi
else
  echo "ci/build.sh: not root; skipping package installation" >&2
fi
. "$repo/ci/interpreter.sh"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$xsdt_python"
cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"}
