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
    parser.add_argument("--each", action="store_true",
                        help="a static consumer: every word after -- is a program of its own, "
                             "all read in one pass of the consumer")
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
    launcher = [args.launcher] if args.launcher else []
    missing = consumers.missing(consumer, bool(args.emulator))
    if missing:
        print(f"{consumer.NAME}: MISSING: {missing}")
        return 2
    if getattr(consumer, "STATIC", False):
        programs = [launcher + [p] for p in program] if args.each else [launcher + program]
        return check_static(consumer, programs, args.emulator, args.timeout)
    if args.each:
        parser.error(f"--each: {consumer.NAME} is not a static consumer")
    program = launcher + program
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


def check_static(consumer, programs, emulator, timeout):
    """A consumer that reads the files (static.py): every probe the source
    defines is listed, and every argument parsed as its spec says. Several
    programs are read in one pass of the consumer (its sites_of(), where it
    has one: one start-up for all), each judged on its own: a line per
    program, then the summary over them."""
    runs = []
    # A program of several that was not built (a reference implementation
    # that does not compile it) is its own finding; the others are read.
    unbuilt = [p for p in programs if len(programs) > 1 and not os.path.exists(p[-1])]
    programs = [p for p in programs if p not in unbuilt]
    with tempfile.TemporaryDirectory() as tmp:
        for number, program in enumerate(programs):
            log = os.path.join(tmp, f"oracle-{number}.log")
            status, run_output = static.run_for_log(program, emulator, log, timeout)
            try:
                expected, providers = (truth.read_log(log) if os.path.exists(log)
                                       else ({}, set()))
            except ValueError as error:
                print(f"{consumer.NAME}: the oracle's log is unreadable: {error}")
                return 1
            runs.append((program, status, run_output, expected, providers,
                         static.binaries(program)))
    groups = [paths for *_, paths in runs]
    read = getattr(consumer, "sites_of", None)
    results = read(groups, timeout) if read else [consumer.sites(g, timeout) for g in groups]
    total = collections.Counter()
    all_findings, all_limits = [], []
    for program in unbuilt:
        name = os.path.basename(program[-1])
        all_findings.append(f"{name}: not built")
        line = f"{consumer.NAME}: {name}: 0 probes listed, not built, 1 findings"
        print(line)
        print(line, file=sys.stderr)
    for (program, status, run_output, expected, providers, paths), (sites, output) in \
            zip(runs, results):
        sites = [s for s in sites if s.provider in providers]
        findings, agreed, at_limits, unchecked, specified = spec_check.compare(
            consumer, paths, sites, expected)
        if status != 0:
            findings.append(f"the program's exit: {status}: {run_output[-500:]}")
        if not expected:
            findings.append("the program logged no expectation (ORACLE_LOG)")
        counts = {"probes": len({s.key for s in sites}), "sites": len(sites),
                  "specified": specified, "agreed": agreed, "unchecked": unchecked}
        total.update(counts)
        if len(programs) == 1 and not unbuilt:
            return report(consumer, findings, at_limits, static_counts(counts),
                          output if not sites else "")
        name = os.path.basename(program[-1])
        all_findings += [f"{name}: {f}" for f in findings]
        all_limits += [f"{name}: {limit}" for limit in at_limits]
        # On stdout for FileCheck, and on stderr, which lit keeps: the
        # matrix counts the programs that passed from it (ci/matrix.py).
        line = (f"{consumer.NAME}: {name}: {static_counts(counts)}, {len(at_limits)} at "
                f"{consumer.NAME}'s known limits, {len(findings)} findings")
        print(line)
        print(line, file=sys.stderr)
        if findings and not sites:
            print(output[-2000:])
    return report(consumer, all_findings, all_limits,
                  f"{len(programs) + len(unbuilt)} programs, {static_counts(total)}", "")


def static_counts(counts):
    return (f"{counts['probes']} probes listed, {counts['sites']} sites, "
            f"{counts['specified']} arguments specified, {counts['agreed']} read as the spec "
            f"says ({counts['unchecked']} of them without a location to compare)")


if __name__ == "__main__":
    sys.exit(main())
