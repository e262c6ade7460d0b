#!/bin/sh
# A stand-in compiler for build-cache's tests (lit.cfg.py: %fake-cc):
#
#   sh fake-cc.sh WORD... -o OUT
#
# Each time it runs, it appends one line to the file "compiles" of its
# working directory (the test's), so that a test counts the compiles that
# really ran. It prints "fake-cc: compiling" on stdout, writes to OUT the
# line "fake-cc object" followed by the contents of the files among its
# words, and prints "fake-cc: warning: not a real compiler" on stderr.
#
# Two environment variables change what it does; build-cache's key leaves
# the environment out, so they change the outcome without changing the key:
#   FAKE_CC_EXIT=N      it says "fake-cc: error: asked to fail with status N"
#                       on stderr and exits with status N, writing no OUT
#   FAKE_CC_SIGNAL=SIG  it kills itself with signal SIG (a compiler crash)
echo "fake-cc $*" >> compiles
echo "fake-cc: compiling"
if [ -n "$FAKE_CC_SIGNAL" ]; then
  kill -s "$FAKE_CC_SIGNAL" $$
fi
if [ -n "$FAKE_CC_EXIT" ]; then
  echo "fake-cc: error: asked to fail with status $FAKE_CC_EXIT" >&2
  exit "$FAKE_CC_EXIT"
fi
out=
inputs=
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then
    out=$2
    shift
  elif [ -f "$1" ]; then
    inputs="$inputs $1"
  fi
  shift
done
if [ -z "$out" ]; then
  echo "fake-cc: error: no -o OUT" >&2
  exit 1
fi
# Word splitting of $inputs is intended: the tests' file names have no spaces.
# shellcheck disable=SC2086
{ echo "fake-cc object"; cat $inputs; } > "$out"
echo "fake-cc: warning: not a real compiler" >&2
