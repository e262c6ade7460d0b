#!/usr/bin/env python3
"""Kernel uprobes on and around SDT(9) jump sites: what a user gets who
puts a uprobe on a function or a source line that holds a site, with
`perf probe -x PROGRAM FUNCTION+OFFSET`.

  kernel_uprobes.py --inspect XSDT_INSPECT --objdump OBJDUMP
                    [--emulator CMD] -- PROGRAM

For every SDT(9) site record of PROGRAM (`xsdt-inspect list --json`),
uprobes at its function's entry, at the two instructions before the site
(where a uprobe on the site's source line lands) and at the site itself. The program runs once natively under
`perf record` of all of them, and must exit 0: its leaves compare their
results with twins, so a uprobe that a kernel turns into something that
writes below the stack pointer (Linux 6.18's call on a 5-byte NOP) fails it.
A uprobe perf or the kernel refuses is reported, not failed: it changes
nothing. Prints one line per uprobe and a summary; exit 0, 1 (the program
failed, or no uprobe was hit: the check would be vacuous) or 2 (MISSING:
perf cannot attach here).
"""
import argparse
import fcntl
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live  # noqa: E402
import live_perf  # noqa: E402



def functions(program):
    """{name: (start, size)} of the program's function symbols."""
    out = subprocess.run(["readelf", "-sW", program], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for match in re.finditer(r"^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+\s+\S+\s+(\S+)$",
                             out, re.M):
        found.setdefault(match.group(3), (int(match.group(1), 16), int(match.group(2))))
    return found


def boundaries(objdump, program, start, stop):
    """The instruction addresses in [start, stop]."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                          f"--stop-address={stop + 1:#x}", program],
                         capture_output=True, text=True, check=True).stdout
    return [int(m.group(1), 16) for m in re.finditer(r"^\s+([0-9a-f]+):\s+\S", out, re.M)]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inspect", required=True)
    parser.add_argument("--objdump", default="objdump")
    parser.add_argument("--emulator", default="")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("program")
    args = parser.parse_args()
    program = os.path.abspath(args.program)
    why = live.root_problem() or (None if live.which("perf") else
                                  "perf is not installed (apt-get install linux-perf)")
    if not why and not any(os.path.exists(os.path.join(d, "uprobe_events"))
                           for d in live_perf.TRACEFS):
        why = "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)"
    if why:
        print(f"kernel-uprobes: MISSING: {why}")
        return 2
    listed = json.loads(subprocess.run([args.inspect, "list", "--json", program],
                                       capture_output=True, text=True, check=True).stdout)
    symbols = functions(program)
    points = []  # (function, offset, is the site)
    for probe in listed:
        for site in probe.get("sites", []) if probe.get("kind") == "sdt" else []:
            function, address = site["function"], int(site["site"], 16)
            if function not in symbols:
                print(f"kernel-uprobes: site {address:#x}: no function symbol {function!r}")
                return 1
            # The entry (a uprobe on the function), the two instructions
            # before the site (where a line's uprobe lands: x86-64's 1-byte
            # nop before its 10-byte NOP) and the site. Not every one: each
            # uprobe the kernel registers costs tens of milliseconds.
            start = symbols[function][0]
            at = boundaries(args.objdump, program, start, address)
            for point in sorted({at[0], *at[-3:]}):
                points.append((function, point - start, point == address))
    if not any(site for _, _, site in points):
        print("kernel-uprobes: no SDT(9) site in the program")
        return 1
    points = sorted(set(points))
    with tempfile.TemporaryDirectory(prefix="xsdt-kernel-uprobes-") as work, \
            open(os.path.join(live.machine_dir(), "xsdt-live-perf.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        buildids = os.path.join(work, "buildid")
        group = f"xsdt_kernel_uprobes_{os.getpid()}"
        events, refused = {}, {}
        try:
            definitions = [f"{group}:u{i}={function}+{offset}"
                           for i, (function, offset, _) in enumerate(points)]
            # All in one perf probe; when perf refuses one, each alone.
            status, text = live_perf._perf(buildids, "probe", "-x", program,
                                           *[a for d in definitions for a in ("-a", d)])
            if status:
                live_perf._perf(buildids, "probe", "-q", "-d", f"{group}:*")
            for i, definition in enumerate(definitions):
                if status:
                    one, text = live_perf._perf(buildids, "probe", "-x", program, "-a",
                                                definition)
                    if one:
                        refused[i] = " ".join(text.split())[-160:]
                        continue
                events[f"{group}:u{i}"] = i
            data = os.path.join(work, "perf.data")
            command = ["perf", "record", "-q", "-B", "-N", "--no-bpf-event", "-o", data]
            for event in events:
                command += ["-e", event]
            run = subprocess.run(command + ["--"] + live.native_command([program], args.emulator),
                                 capture_output=True, text=True, timeout=args.timeout)
            _, script = live_perf._perf(buildids, "script", "-i", data, "-F", "event")
        finally:
            live_perf._perf(buildids, "probe", "-q", "-d", f"{group}:*")
    hits = {}
    for line in script.splitlines():
        event = line.strip().rstrip(":")
        if event in events:
            hits[events[event]] = hits.get(events[event], 0) + 1
    for i, (function, offset, site) in enumerate(points):
        where = f"{function}+{offset}" + (" (the site)" if site else "")
        if i in refused:
            print(f"kernel-uprobes: {where}: not placed: {refused[i]}")
        else:
            print(f"kernel-uprobes: {where}: {hits.get(i, 0)} hits")
    at_sites = sum(1 for _, _, site in points if site)
    hit = sum(1 for i in hits)
    print(f"kernel-uprobes: {len(points)} uprobes in {len({p[0] for p in points})} "
          f"functions, {at_sites} at their sites, {len(events)} placed, {hit} hit; "
          f"the program's exit {run.returncode}")
    print(run.stdout.strip())
    if run.returncode != 0:
        print(f"kernel-uprobes: FAIL: the program's exit while traced: {run.returncode}: "
              f"{(run.stdout + run.stderr).strip()[-400:]}")
        return 1
    if not hit:
        print("kernel-uprobes: FAIL: no uprobe was hit: the check is vacuous")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
