"""xsdt-trace, live and in process: each program runs under `xsdt-trace -c`
(sdt/trace), which preloads the agent of the program's arch and, for a
program this machine does not run itself, starts it under the arch's
emulator (qemu-user), as a user traces a program of another arch; a D
program prints every argument of every probe at each hit. No kernel is
involved, so every arch is traced, emulated or not, and no root is needed.

The cell gives the agent built for its arch ($XSDT_TRACE_AGENT, lit-
tests/tools/build-trace-agent.py) and the host's xsdt-trace
($XSDT_TRACE). argN is the argument as the note's spec reads it, extended
to 64 bits with the spec's sign; %x prints its 64-bit two's complement."""
import os
import re
import shlex
import subprocess

import live

NAME = "live-xsdt-trace"
PACKAGE = "xsdt (this build's sdt/trace/xsdt-trace and the cell's agent)"
LIVE = True
# The program is traced from inside: no kernel, no root, any arch.
IN_PROCESS = True
LIMIT_MARKERS = []
KNOWN_LIMITS = []
# The arguments D names (arg0..arg11), as xsdt-trace's parser takes them.
READABLE_ARGS = 12
HIT = re.compile(r"^xsdt-live (\d+) (\d+)((?: [0-9a-f]+)*)$")
# What xsdt-trace says of the program's end (without -q).
ENDED = re.compile(r"^xsdt-trace: pid \d+ (exited with status (\d+)|was killed by signal \d+)$",
                   re.M)


def executable(emulated):
    trace, agent = os.environ.get("XSDT_TRACE", ""), os.environ.get("XSDT_TRACE_AGENT", "")
    return trace if os.access(trace, os.X_OK) and os.path.isfile(agent) else None


def supports(arch):
    return None


def script(targets):
    """One clause per target: the pid, the target's index and each
    argument in hex."""
    lines = []
    for t in targets:
        n = min(t.argc, READABLE_ARGS)
        fmt = "".join(" %x" for _ in range(n))
        args = "".join(f", arg{i}" for i in range(n))
        lines.append(f'{t.provider}:::{t.name} '
                     f'{{ printf("xsdt-live %d {t.index}{fmt}\\n", pid{args}); }}')
    return "\n".join(lines) + "\n"


def run(runs, targets, work_dir, timeout):
    trace = executable(False)
    traced = live.Traced()
    for i, r in enumerate(runs):
        mine = [t for t in targets if t.binary in r.binaries]
        path = os.path.join(work_dir, f"live-{i}.d")
        out = os.path.join(work_dir, f"live-{i}.trace")
        with open(path, "w") as f:
            f.write(script(mine))
        # The program's own command (r.argv: not the native loader's form
        # live.py makes for the kernel tracers): xsdt-trace finds its arch
        # and emulator itself.
        command = [trace, "-s", path, "-o", out, "-c", shlex.join(r.argv)]
        proc = subprocess.Popen(command, env=r.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        r.pid = proc.pid
        r.finish(proc, timeout)
        # The program's own exit status, which live.py checks, is the one
        # xsdt-trace reports; xsdt-trace's own failure stands in for it
        # when there is none.
        ended = ENDED.search(r.output)
        if r.status == 0:
            r.status = 0 if ended and ended.group(2) == "0" else \
                (ended.group(1) if ended else "no exit reported by xsdt-trace")
        lines = open(out).read().splitlines() if os.path.exists(out) else []
        traced.output += r.output + "".join(line + "\n" for line in lines)
        for line in lines:
            match = HIT.match(line.strip())
            if not match:
                continue
            target = targets[int(match.group(2))]
            readings = [int(v, 16) for v in match.group(3).split()]
            traced.hits.append((i, target.index, readings))
    return traced
