#!/usr/bin/env python3
"""Runs a real consumer (tracer or debugger) over a program of the corpus and
checks what it reads against the source's own values.

  check.py CONSUMER [--emulator CMD] -- PROGRAM [ARGS...]
  check.py LIVE-CONSUMER --arch ARCH [--emulator CMD] [--launcher L] -- PROGRAM...

CONSUMER is one of the registry (consumers.py). The program runs under the
consumer with ORACLE_LOG set: the value oracle enables nothing and logs what
the source passed at each probe (truth.py). Every probe the consumer stops
at, and every argument it reads, is compared with that log.

A consumer that reads the files instead (readelf, bcc, perf, bpftrace,
stap: STATIC in its module) gets the program's ELF files after one run that
logs which probes the source defines; each site it lists is compared with
the note's specs as readelf prints them (spec_check.py): every argument
there, with the spec's size, sign and location in the consumer's spelling.

Prints one line per finding, one per difference that a known limit of the
consumer explains (its module's KNOWN_LIMITS: not a pass, not a finding of
ours), and a summary (on stdout and stderr):
  CONSUMER: N probes listed, H hits, P arguments passed, A read equal to the
  source's, L at CONSUMER's known limits, F findings
or, for a static consumer,
  CONSUMER: N probes listed, S sites, P arguments specified, A read as the
  spec says (U of them without a location to compare), L at CONSUMER's
  known limits, F findings
A live consumer (live-bpftrace, live-perf, live-bcc: LIVE in its module)
traces each PROGRAM once through the kernel while it runs natively, and
checks its exit status and every value against its oracle log (live.py).

Exit status: 0 no finding; 1 findings (the consumer read something else, or
less); 2 MISSING (the consumer is not installed, or cannot attach here) or
a usage error.
"""
import argparse
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import consumers  # noqa: E402
import live  # noqa: E402
import spec_check  # noqa: E402
import static  # noqa: E402
import truth  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("consumer", choices=consumers.names())
    parser.add_argument("--emulator", default="",
                        help="the cell's emulator command (qemu-ARCH -L SYSROOT), empty natively")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--arch", default="",
                        help="the cell's arch (a live consumer runs it natively if it can)")
    parser.add_argument("--launcher", default="",
                        help="a live consumer: the command before each program (shared link)")
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("no program: CONSUMER [options] -- PROGRAM [ARGS...]")
    program = argv[argv.index("--") + 1:]
    args = parser.parse_args(argv[:argv.index("--")])
    consumer = consumers.get(args.consumer)
    if getattr(consumer, "LIVE", False):
        # Every word after -- is one program, traced in one session.
        return live.check(consumer, program, args.emulator, args.arch, args.timeout,
                          [args.launcher] if args.launcher else [])
    if args.launcher:
        program = [args.launcher] + program
    missing = consumers.missing(consumer, bool(args.emulator))
    if missing:
        print(f"{consumer.NAME}: MISSING: {missing}")
        return 2
    if getattr(consumer, "STATIC", False):
        return check_static(consumer, program, args.emulator, args.timeout)
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "oracle.log")
        events, output = consumer.read(program, args.emulator, log, args.timeout)
        try:
            expected, providers = truth.read_log(log) if os.path.exists(log) else ({}, set())
        except ValueError as error:
            print(f"{consumer.NAME}: the oracle's log is unreadable: {error}")
            return 1
    # Probes of other providers (libc's, in a static link) are not under test.
    events = [e for e in events if e[0] not in ("probe", "hit") or
              (len(e) > 1 and e[1] in providers)]
    listed = {(e[1], e[2]) for e in events if e[0] == "probe"}
    observed = collections.defaultdict(list)
    for event in events:
        if event[0] == "hit" and len(event) >= 4 and not event[3].startswith("error:"):
            observed[(event[1], event[2])].append(
                [int(v) if not v.startswith("error:") else v.replace("_", " ")
                 for v in event[4:]])
        elif event[0] == "hit":
            observed[(event[1], event[2])].append([" ".join(event[3:]).replace("_", " ")])
    findings = [f"{p}:{n}: not listed by {consumer.NAME}" for p, n in sorted(expected)
                if (p, n) not in listed]
    more, agreed, at_limits = truth.compare(expected, observed, consumer.KNOWN_LIMITS)
    findings += more
    for event in events:
        if event[0] == "warning":
            findings.append("warning: " + " ".join(event[1:]))
    exits = [e[1] for e in events if e[0] == "exit"]
    if exits != ["0"]:
        findings.append(f"the program's exit under {consumer.NAME}: {exits or 'none seen'}")
    if not expected:
        findings.append("the program logged no expectation (ORACLE_LOG)")
    limits = [line.strip() for line in output.splitlines()
              if any(marker in line for marker in consumer.LIMIT_MARKERS)]
    for line in dict.fromkeys(limits):
        findings.append(f"limit of {consumer.NAME}: {line}")
    hits = sum(len(v) for v in observed.values())
    passed = sum(len(values) for hits_of in expected.values() for values in hits_of)
    return report(consumer, findings, at_limits,
                  f"{len(listed)} probes listed, {hits} hits, {passed} arguments passed, "
                  f"{agreed} read equal to the source's", output if not events else "")


def report(consumer, findings, at_limits, counts, output):
    """Prints the findings, the known limits and the summary line; the
    consumer's own output too when it read nothing. Returns the exit status."""
    for finding in findings:
        print(f"{consumer.NAME}: {finding}")
    for limit in at_limits:
        print(f"{consumer.NAME}: known limit: {limit}")
    summary = (f"{consumer.NAME}: {counts}, {len(at_limits)} at {consumer.NAME}'s known "
               f"limits, {len(findings)} findings")
    print(summary)
    # Also on stderr, which lit keeps when stdout goes to FileCheck: the
    # matrix counts the known limits from it (ci/matrix.py).
    print(summary, file=sys.stderr)
    if findings and output:
        print(output[-2000:])
    return 1 if findings else 0


def check_static(consumer, program, emulator, timeout):
    """A consumer that reads the files (static.py): every probe the source
    defines is listed, and every argument parsed as its spec says."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "oracle.log")
        status, run_output = static.run_for_log(program, emulator, log, timeout)
        try:
            expected, providers = truth.read_log(log) if os.path.exists(log) else ({}, set())
        except ValueError as error:
            print(f"{consumer.NAME}: the oracle's log is unreadable: {error}")
            return 1
    paths = static.binaries(program)
    sites, output = consumer.sites(paths, timeout)
    sites = [s for s in sites if s.provider in providers]
    findings, agreed, at_limits, unchecked, specified = spec_check.compare(
        consumer, paths, sites, expected)
    if status != 0:
        findings.append(f"the program's exit: {status}: {run_output[-500:]}")
    if not expected:
        findings.append("the program logged no expectation (ORACLE_LOG)")
    return report(consumer, findings, at_limits,
                  f"{len({s.key for s in sites})} probes listed, {len(sites)} sites, "
                  f"{specified} arguments specified, {agreed} read as the spec says "
                  f"({unchecked} of them without a location to compare)",
                  output if not sites else "")


if __name__ == "__main__":
    sys.exit(main())
