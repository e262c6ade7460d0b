"""bpftrace, live: one bpftrace attaches `usdt:` probes to every probe of
the cell's programs through the kernel (by file, so that a program started
after it is traced, its semaphores counted by the kernel), prints each
argument it can address at every hit, and the programs run one after the
other natively. bpftrace 0.17 reads arg0..arg5 on this host: the later
arguments are its known limit."""
import os
import re
import shutil

import live

NAME = "live-bpftrace"
PACKAGE = "bpftrace"
LIVE = True
LIMIT_MARKERS = []
# bpftrace 0.17's usdt arguments on x86-64 (arg6 and later: "x86_64 doesn't
# support arg6").
READABLE_ARGS = 6
READY = "xsdt-live ready"
HIT = re.compile(r"^xsdt-live (\d+) (\d+)((?: [0-9a-f]+)*)$")


def beyond_reach(value, reading):
    if isinstance(reading, str) and reading.startswith("bpftrace-addresses-arg0-arg5"):
        # bpftrace's x86_64 port ("x86_64 doesn't support arg6").
        return "bpftrace 0.17 addresses USDT arguments arg0..arg5 only on this host"
    return None


KNOWN_LIMITS = [beyond_reach]


def executable(emulated):
    return shutil.which("bpftrace")


def supports(arch):
    return live.runs_natively(arch)


def script(targets):
    """One probe per target; each hit prints the pid, the target's index and
    the arguments in hex (bpftrace reads each with the spec's size and
    sign: a negative value prints as its 64-bit two's complement)."""
    lines = [f'BEGIN {{ printf("{READY}\\n"); }}']
    for t in targets:
        if t.dropped:
            continue
        n = min(t.readable, READABLE_ARGS)
        fmt = "".join(" %lx" for _ in range(n))
        args = "".join(f", arg{i}" for i in range(n))
        lines.append(f'usdt:{t.binary}:{t.provider}:{t.name} '
                     f'{{ printf("xsdt-live %d {t.index}{fmt}\\n", pid{args}); }}')
    return "\n".join(lines) + "\n"


def run(runs, targets, work_dir, timeout):
    path = os.path.join(work_dir, "live.bt")

    def command(targets):
        with open(path, "w") as f:
            f.write(script(targets))
        return ["bpftrace", "-B", "line", path]

    pids, lines = live.session(runs, targets, command, lambda line: READY in line,
                               "bpftrace", timeout)
    traced = live.Traced()
    traced.output = "".join(lines)
    for line in lines:
        match = HIT.match(line.strip())
        if not match or int(match.group(1)) not in pids:
            continue
        target = targets[int(match.group(2))]
        readings = [int(v, 16) for v in match.group(3).split()]
        readings += [live.unread(NAME, target, i, f"bpftrace-addresses-arg0-arg5-only:arg{i}")
                     for i in range(len(readings), target.argc)]
        traced.hits.append((pids[int(match.group(1))], target.index, readings))
    return traced
