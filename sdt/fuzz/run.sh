#!/usr/bin/env bash
# Runs one fuzzer for a bounded time and fails on any crash, sanitizer
# report, leak, timeout or broken property.
#   run.sh FUZZER WORK_DIR SECONDS RUNS SEED_DIR [libFuzzer flags...]
# New inputs go to WORK_DIR/corpus (kept between runs, so coverage builds
# up); the committed seeds are only read. A failing input is saved under
# WORK_DIR/artifacts/ and the command to replay it is printed.
set -uo pipefail
fuzzer=$1 work=$2 seconds=$3 runs=$4 seeds=$5
shift 5
mkdir -p "$work/corpus" "$work/artifacts"
rm -f "$work"/artifacts/*

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# -timeout: one input taking seconds is a hang in a parser of inputs this
# short. -rss_limit_mb: well under the 24 GiB machine, far over need.
"$fuzzer" "$work/corpus" "$seeds" \
  -max_total_time="$seconds" -runs="$runs" -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" \
  >"$work/log" 2>&1
status=$?
# The start (seeds read, coverage) and the end (stats, or the report).
head -n 12 "$work/log"
echo "..."
tail -n 40 "$work/log"
if [ "$status" -ne 0 ]; then
  echo "fuzz: $(basename "$fuzzer") failed with status $status; full log: $work/log"
  for a in "$work"/artifacts/*; do
    [ -e "$a" ] && echo "fuzz: replay with: $fuzzer $a"
  done
  exit 1
fi
echo "fuzz: $(basename "$fuzzer"): no failure in ${seconds}s / $runs runs"
