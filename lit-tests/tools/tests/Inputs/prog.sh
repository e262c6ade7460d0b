#!/bin/sh
# A stand-in test program for run-once's tests (lit.cfg.py: %prog):
#
#   sh prog.sh WORD [STATUS | SIGNAL]
#
# Each time it runs, it appends WORD to the file "runs" of its working
# directory (the test's), so that a test counts the runs that really
# happened. It prints "prog: WORD GREETING=G" on stdout (G: the value of
# the environment variable GREETING, or "unset"), then "prog: WORD on
# stderr" on stderr, and exits with STATUS (0 without one), or kills itself
# with SIGNAL, given by name (SEGV: a program that crashed), without a core
# file.
echo "$1" >> runs
echo "prog: $1 GREETING=${GREETING-unset}"
echo "prog: $1 on stderr" >&2
case $2 in
  "") exit 0 ;;
  [0-9]*) exit "$2" ;;
  *)
    ulimit -c 0
    kill -s "$2" $$
    ;;
esac
