#!/usr/bin/env python3
"""What one traced event costs the traced program: xsdt-trace (in process)
against bpftrace (a kernel uprobe) on the same program, for the two
aggregations the issue names, and LTTng-UST's recording of an event
(xsdt-bench-lttng, the same run), on this machine.

  sdt/bench/trace-cost.py --trace build/sdt/trace/xsdt-trace
                          [--lttng-bench build/sdt/bench/xsdt-bench-lttng]
                          [--calls N] [--rounds R] [--cc CC]

The program is sdt/bench/kernel/hit.c with xsdt's site (-O2): a loop of N
calls of a noinline function holding one probe (bench:hit, arg0 = the
call's index), which times the loop itself, so that neither tracer's
start and end is counted. Each round runs it untraced, then under each
tracer and aggregation (the order turning with the round); the cost of an
event is the median traced ns/call minus the median untraced. Each traced
run must count every call (count()) or put every call in a bucket
(quantize()), or the script fails. Needs root and bpftrace for the kernel
side (reported MISSING otherwise). A benchmark: it asserts nothing about
time.
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
RESULT = re.compile(r"^([0-9.]+) ns/call \(acc -?\d+\) site.*$", re.M)
# A quantize() line of either tracer: "[lo, hi) count |@@@" (bpftrace) or
# "value |@@@ count" (xsdt-trace, as dtrace prints it).
BPFTRACE_BUCKET = re.compile(r"^\[[^\]\n]*[\])][ \t]+(\d+) \|", re.M)
XSDT_BUCKET = re.compile(r"^\s*-?\d+ \|@* *(\d+)$", re.M)

AGGREGATIONS = [
    ("@[probename] = count()", "bench:::hit { @[probename] = count(); }",
     "usdt:{binary}:bench:hit {{ @[probe] = count(); }}", "count"),
    ("@ = quantize(arg0)", "bench:::hit { @ = quantize(arg0); }",
     "usdt:{binary}:bench:hit {{ @ = hist(arg0); }}", "buckets"),
]


def host_arch():
    """The arches/ directory of this machine's compiler (its probe header)."""
    sys.path.insert(0, os.path.join(REPO, "ci"))
    import toolchains  # ci/: reads arch.json
    triple = subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True,
                            check=True).stdout.strip()
    for arch in toolchains.load_arches(REPO):
        if arch["triple"] == triple:
            return arch["arch"]
    raise SystemExit(f"trace-cost: no arches/ directory has the triple {triple}")


def events_seen(output, how):
    if how == "count":
        counts = [int(n) for n in re.findall(r"(\d+)\s*$", output, re.M)]
        return max(counts) if counts else 0
    buckets = BPFTRACE_BUCKET.findall(output) or XSDT_BUCKET.findall(output)
    return sum(int(n) for n in buckets)


def run(command, calls, how=None):
    out = subprocess.run(command, capture_output=True, text=True)
    match = RESULT.search(out.stdout)
    if out.returncode != 0 or not match:
        raise SystemExit(f"trace-cost: {' '.join(command)}: exit {out.returncode}, "
                         f"no result:\n{out.stdout}{out.stderr}")
    if how:
        seen = events_seen(RESULT.sub("", out.stdout), how)
        if seen != calls:
            raise SystemExit(f"trace-cost: {' '.join(command)}: {seen} events of "
                             f"{calls} calls:\n{out.stdout}{out.stderr}")
    return float(match.group(1))


def lttng_event(bench):
    """LTTng-UST's wall time per recorded event, one thread, one long and a
    string (xsdt-bench-lttng's enabled/lttng/1), and xsdt's SDT jump record
    beside it."""
    out = subprocess.run([bench, "--benchmark_filter=enabled/(lttng|xsdt-sdt)/1/",
                          "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true",
                          "--benchmark_format=console"], capture_output=True, text=True)
    found = {}
    for name in ("lttng", "xsdt-sdt"):
        m = re.search(rf"^enabled/{name}/1/\S*threads:1_median\s+([0-9.]+) ns", out.stdout,
                      re.M)
        if m:
            found[name] = float(m.group(1))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace", required=True, help="the built xsdt-trace")
    parser.add_argument("--lttng-bench", help="the built xsdt-bench-lttng")
    parser.add_argument("--calls", type=int, default=1000000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cc", default="gcc")
    parser.add_argument("--bufsize", default="64m",
                        help="xsdt-trace's -x bufsize (per thread): every call's record "
                        "must fit between two drains, or the run fails on its drops")
    args = parser.parse_args()
    kernel_side = os.geteuid() == 0 and shutil.which("bpftrace")
    if not kernel_side:
        print("trace-cost: MISSING: bpftrace's side needs root and bpftrace "
              "(apt-get install bpftrace)", file=sys.stderr)
    arch = host_arch()
    with tempfile.TemporaryDirectory(prefix="xsdt-trace-cost-") as work:
        binary = os.path.join(work, "hit")
        subprocess.run([args.cc, "-O2", "-DSITE_XSDT", f"-I{REPO}/sdt/include",
                        f"-I{REPO}/arches/{arch}/include", SOURCE, "-o", binary], check=True)
        plan = [("untraced", None, [binary, str(args.calls)], None)]
        for label, d_program, bpftrace_program, how in AGGREGATIONS:
            plan.append((f"xsdt-trace {label}", label,
                         [args.trace, "-q", "-x", f"bufsize={args.bufsize}", "-n", d_program, "-c",
                          f"{binary} {args.calls}"], how))
            if kernel_side:
                plan.append((f"bpftrace {label}", label,
                             ["bpftrace", "-e", bpftrace_program.format(binary=binary),
                              "-c", f"{binary} {args.calls}"], how))
        times = {name: [] for name, *_ in plan}
        for round_ in range(args.rounds):
            order = plan[round_ % len(plan):] + plan[:round_ % len(plan)]
            for name, _, command, how in order:
                times[name].append(run(command, args.calls, how))
    base = statistics.median(times["untraced"])
    print(f"Linux {os.uname().release}, {args.cc} -O2, {args.calls} calls of one probe, "
          f"median of {args.rounds} rounds; untraced {base:.1f} ns/call")
    print()
    print("| aggregation | xsdt-trace ns/event | bpftrace ns/event | bpftrace / xsdt-trace |")
    print("|---|---:|---:|---:|")
    for label, *_ in AGGREGATIONS:
        ours = statistics.median(times[f"xsdt-trace {label}"]) - base
        if kernel_side:
            theirs = statistics.median(times[f"bpftrace {label}"]) - base
            print(f"| `{label}` | {ours:.0f} | {theirs:.0f} | {theirs / ours:.2f} |")
        else:
            print(f"| `{label}` | {ours:.0f} | MISSING | MISSING |")
    if args.lttng_bench:
        found = lttng_event(args.lttng_bench)
        print()
        for name, what in (("lttng", "LTTng-UST recording session (enabled/lttng/1, one "
                            "long + a string, 1 thread)"),
                           ("xsdt-sdt", "xsdt SDT jump record (enabled/xsdt-sdt/1, the same "
                            "payload)")):
            figure = f"{found[name]:.1f} ns/event" if name in found else "MISSING"
            print(f"- {what}: {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
