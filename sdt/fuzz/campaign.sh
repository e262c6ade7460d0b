#!/usr/bin/env bash
# A fuzzing campaign: every target (or those named) for RUNS executions
# each, one at a time, then its new inputs merged into the committed corpus
# and a table of the results.
#
#   campaign.sh [-n RUNS] [-t SECONDS] [target...]
#
# RUNS defaults to 10,000,000; SECONDS (default: none) caps each target's
# time, for targets too slow to reach RUNS. Runs in build/ (override with
# XSDT_BUILD=DIR), whose fuzzers `cmake --build build --target xsdt-fuzzers`
# builds; each target's corpus accumulates in
# build/sdt/fuzz/campaign/<target>/corpus, so a second campaign goes on from
# the first. ASan's leak check is on; a UBSan report is fatal (the build's
# -fno-sanitize-recover) and counted from the log.
#
# The merge (-merge=1) keeps every file already in
# sdt/fuzz/corpus/<target>/ (the hand-written seeds) and adds only inputs
# that reach new coverage. The notes corpus there is text for make_seeds.py,
# so its binary inputs go to corpus/notes-bin/ instead.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${XSDT_BUILD:-$root/build}
runs=10000000 seconds=0
while getopts n:t: opt; do
  case $opt in
  n) runs=$OPTARG ;;
  t) seconds=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(argspec argeval notes elf sdt_records provider description)

bin=$build/sdt/fuzz/clang seeds=$build/sdt/fuzz/seeds
out=$build/sdt/fuzz/campaign
[ -x "$bin/fuzz_argspec" ] || {
  echo "campaign: no fuzzers in $bin: cmake --build $build --target xsdt-fuzzers" >&2
  exit 1
}

# Per target: its seed directories and flags, as the ctest runs have them.
args_of() {
  case $1 in
  argspec) echo "$here/corpus/argspec -dict=$here/argspec.dict -max_len=512" ;;
  argeval) echo "$here/corpus/argeval -dict=$here/argeval.dict -max_len=512" ;;
  notes) echo "$seeds/notes -max_len=1024" ;;
  elf) echo "$seeds/elf -max_len=4096" ;;
  sdt_records) echo "$seeds/sdt_records -max_len=1024" ;;
  provider) echo "$here/corpus/provider -dict=$here/provider.dict -max_len=1024" ;;
  description) echo "$here/corpus/description -max_len=256" ;;
  *)
    echo "campaign: unknown target $1" >&2
    exit 2
    ;;
  esac
}
merged_dir() {
  [ "$1" = notes ] && echo "$here/corpus/notes-bin" || echo "$here/corpus/$1"
}

export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rows=()
status=0
for t in "${targets[@]}"; do
  a=$(args_of "$t") || exit 2
  w=$out/$t
  mkdir -p "$w/corpus" "$w/artifacts"
  rm -f "$w"/artifacts/*
  extra=()
  [ "$seconds" -gt 0 ] && extra=(-max_total_time="$seconds")
  start=$(date +%s)
  # A unit is a hang after 60 s: on a loaded machine a reniced campaign
  # can wait seconds for a core (a 5 s limit once flagged a 50 ms input).
  # shellcheck disable=SC2086 # $a: directories and flags, word-split
  "$bin/fuzz_$t" "$w/corpus" $a -runs="$runs" "${extra[@]}" -timeout=60 \
    -rss_limit_mb=2048 -artifact_prefix="$w/artifacts/" \
    -print_final_stats=1 >"$w/log" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -1)
  edges=$(grep -o 'cov: [0-9]*' "$w/log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$w/artifacts" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
  leaks=$(find "$w/artifacts" -name 'leak-*' | wc -l)
  ub=$(grep -c 'runtime error:' "$w/log")
  [ "$rc" -ne 0 ] && status=1
  # Only a clean run's corpus is merged: a crashing input stays an artifact.
  if [ "$rc" -eq 0 ]; then
    dest=$(merged_dir "$t")
    mkdir -p "$dest"
    # shellcheck disable=SC2086
    "$bin/fuzz_$t" -merge=1 "$dest" "$w/corpus" $a >"$w/merge.log" 2>&1 ||
      { echo "campaign: merge of $t failed: $w/merge.log" >&2; status=1; }
  fi
  rate=$([ "$secs" -gt 0 ] && echo $((${execs:-0} / secs)) || echo "-")
  rows+=("$(printf '%-12s %11s %7s %8s %6s %7s %5s %3s' "$t" "${execs:-?}" \
    "$secs" "$rate" "${edges:-?}" "$crashes" "$leaks" "$ub")")
  echo "campaign: $t done (status $rc, log $w/log)" >&2
done
printf '%-12s %11s %7s %8s %6s %7s %5s %3s\n' target execs seconds exec/s \
  edges crashes leaks UB
printf '%s\n' "${rows[@]}"
exit $status
