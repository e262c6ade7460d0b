#!/bin/sh
# Runs a command and checks its exit code and output.
#   expect.sh CODE [--out RE] [--err RE] [--no-out RE] [--out-lines N] -- CMD...
# Passes only when CMD exits with exactly CODE, so a crash (a signal exit,
# 128+N from the shell) never passes for an expected failure. RE are
# grep -E patterns matched against stdout/stderr lines.
set -u
code=$1
shift
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/checks"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
  --out | --err | --no-out | --out-lines)
    [ $# -ge 2 ] || { echo "expect.sh: $1 needs a value" >&2; exit 99; }
    printf '%s\n%s\n' "$1" "$2" >>"$tmp/checks"
    shift 2
    ;;
  *)
    echo "expect.sh: unknown option $1" >&2
    exit 99
    ;;
  esac
done
[ $# -ge 2 ] || { echo "expect.sh: missing -- CMD" >&2; exit 99; }
shift
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
if [ "$rc" -ne "$code" ]; then
  echo "FAIL: exit code $rc, expected $code"
  fail=1
fi
while IFS= read -r kind && IFS= read -r arg; do
  case $kind in
  --out) grep -Eq -- "$arg" "$tmp/out" || { echo "FAIL: stdout lacks /$arg/"; fail=1; } ;;
  --err) grep -Eq -- "$arg" "$tmp/err" || { echo "FAIL: stderr lacks /$arg/"; fail=1; } ;;
  --no-out) ! grep -Eq -- "$arg" "$tmp/out" || { echo "FAIL: stdout has /$arg/"; fail=1; } ;;
  --out-lines)
    n=$(wc -l <"$tmp/out")
    [ "$n" -eq "$arg" ] || { echo "FAIL: stdout has $n lines, expected $arg"; fail=1; }
    ;;
  esac
done <"$tmp/checks"
if [ $fail -ne 0 ]; then
  echo "--- command: $*"
  echo "--- stdout:"
  cat "$tmp/out"
  echo "--- stderr:"
  cat "$tmp/err"
fi
exit $fail
