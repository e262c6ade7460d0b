#!/bin/sh
# %expect-exit CODE COMMAND [ARG...] (lit.cfg.py): runs COMMAND with this
# script's stdin, stdout and stderr and succeeds only if it exits with
# exactly CODE. xsdt-inspect exits 1 for violations and 2 for usage errors
# and unreadable input; `not` would accept either, and a crash too. A
# command killed by a signal ends with status 128+N here, never 1 or 2.
if [ $# -lt 2 ]; then
  echo "usage: expect-exit.sh CODE COMMAND [ARG...]" >&2
  exit 1
fi
code=$1
shift
"$@"
status=$?
if [ "$status" -eq "$code" ]; then
  exit 0
fi
if [ "$status" -gt 128 ]; then
  echo "expect-exit: $1 was killed by signal $((status - 128)), expected exit status $code" >&2
else
  echo "expect-exit: $1 exited with status $status, expected $code" >&2
fi
exit 1
