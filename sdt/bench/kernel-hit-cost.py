#!/usr/bin/env python3
# xsdt-arch-specific: the candidates are x86-64 sites, traced by this
# machine's x86-64 kernel (issue 31, docs/design.md "Site").
"""What a traced hit costs through the kernel: bpftrace on one probe site,
for each candidate x86-64 site, measured in one run on this machine.

  sdt/bench/kernel-hit-cost.py [--calls N] [--rounds R] [--cc CC]

Builds sdt/bench/kernel/hit.c once per candidate (-O2), runs each untraced
and under `bpftrace -e 'usdt:BIN:bench:hit { @ = count(); }' -c BIN`,
round after round (the candidates interleaved, each round starting at
another, so that load on the machine falls on all of them), and prints a Markdown table of the medians: the
time per call untraced and traced, their difference (the cost of a traced
hit), its ratio to xsdt's, the bytes at the probe's address while traced
(what the kernel made of the site: cc is int3, e8 a call into its
trampoline) and whether bpftrace counted every hit. Needs root and
bpftrace; a benchmark, not a test: it asserts nothing about time.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(REPO, "sdt", "bench", "kernel", "hit.c")
NOP10 = "0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00"
# name, what it is, compiler flags
CANDIDATES = [
    ("xsdt", "xsdt's site: `nop; nop10`, the note at the nop",
     ["-DSITE_XSDT", f"-I{REPO}/sdt/include", f"-I{REPO}/arches/x86_64/include"]),
    ("sys/sdt.h", "SystemTap's 1-byte `nop`", ["-DSITE_SYS_SDT"]),
    ("libbpf/usdt", "libbpf/usdt's `nop; nop10` (usdt.h today), the note at the nop",
     ["-DSITE_NOTE", f"-DSITE_BYTES=\"0x90, {NOP10}\""]),
    ("bare nop5", "a bare 5-byte NOP at the note (xsdt before; unsafe: the red zone)",
     ["-DSITE_NOTE", "-DSITE_BYTES=\"0x0f, 0x1f, 0x44, 0x00, 0x00\""]),
    ("nop5 below the red zone", "a 5-byte NOP between `lea -128(%rsp),%rsp` and "
     "`lea 128(%rsp),%rsp` (safe, optimizable; no CFI for the move)",
     ["-DSITE_NOTE", "-DSITE_BYTES=\"0x0f, 0x1f, 0x44, 0x00, 0x00\"",
      "-DSITE_BEFORE=\"lea -128(%%rsp), %%rsp\"", "-DSITE_AFTER=\"lea 128(%%rsp), %%rsp\""]),
]
RESULT = re.compile(r"^([0-9.]+) ns/call \(acc -?\d+\) site((?: [0-9a-f]{2})+)$", re.M)


def probe_offset(binary):
    """The probe's address minus hit()'s, from the note and the symbols."""
    notes = subprocess.run(["readelf", "-nW", binary], capture_output=True, text=True,
                           check=True).stdout
    pc = int(re.search(r"Location: (0x[0-9a-f]+)", notes).group(1), 16)
    symbols = subprocess.run(["readelf", "-sW", binary], capture_output=True, text=True,
                             check=True).stdout
    start = int(re.search(r"^\s*\d+:\s+([0-9a-f]+)\s+\d+\s+FUNC\s+\S+\s+\S+\s+\S+\s+hit$",
                          symbols, re.M).group(1), 16)
    return pc - start


def run(command):
    out = subprocess.run(command, capture_output=True, text=True)
    match = RESULT.search(out.stdout)
    if not match:
        raise SystemExit(f"kernel-hit-cost: {' '.join(command)}: no result:\n"
                         f"{out.stdout}{out.stderr}")
    count = re.search(r"^@: (\d+)$", out.stdout, re.M)
    return float(match.group(1)), match.group(2).strip(), int(count.group(1)) if count else None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cc", default="gcc")
    args = parser.parse_args()
    if os.geteuid() != 0 or not shutil.which("bpftrace"):
        print("kernel-hit-cost: MISSING: needs root and bpftrace (apt-get install bpftrace)")
        return 2
    with tempfile.TemporaryDirectory(prefix="xsdt-kernel-hit-") as work:
        binaries = []
        for i, (name, _, flags) in enumerate(CANDIDATES):
            binary = os.path.join(work, f"hit{i}")
            subprocess.run([args.cc, "-O2", *flags, SOURCE, "-o", binary], check=True)
            binaries.append((binary, str(probe_offset(binary))))
        untraced = [[] for _ in CANDIDATES]
        traced = [[] for _ in CANDIDATES]
        sites, counted = [""] * len(CANDIDATES), [True] * len(CANDIDATES)
        for round_ in range(args.rounds):
            # Each round starts at another candidate: no candidate always
            # runs first, or right after the same one.
            order = list(range(len(binaries)))
            order = order[round_ % len(order):] + order[:round_ % len(order)]
            for i in order:
                binary, offset = binaries[i]
                untraced[i].append(run([binary, str(args.calls), offset])[0])
                ns, site, count = run(["bpftrace", "-e", f"usdt:{binary}:bench:hit "
                                       "{ @ = count(); }", "-c",
                                       f"{binary} {args.calls} {offset}"])
                traced[i].append(ns)
                sites[i] = site
                counted[i] = counted[i] and count == args.calls
    kernel = os.uname().release
    print(f"Linux {kernel}, bpftrace "
          f"{subprocess.run(['bpftrace', '--version'], capture_output=True, text=True).stdout.split()[-1]}"
          f", {args.cc} -O2, {args.calls} calls, median of {args.rounds} rounds:")
    print()
    print("| site | untraced ns/call | traced ns/call | traced hit ns | × xsdt's | bytes while traced | every hit counted |")
    print("|---|---:|---:|---:|---:|---|---|")
    base = statistics.median(traced[0]) - statistics.median(untraced[0])
    for i, (name, what, _) in enumerate(CANDIDATES):
        u, t = statistics.median(untraced[i]), statistics.median(traced[i])
        print(f"| {name}: {what} | {u:.1f} | {t:.1f} | {t - u:.0f} | {(t - u) / base:.2f} | "
              f"`{sites[i]}` | {'yes' if counted[i] else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
