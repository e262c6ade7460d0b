"""What the live consumers have in common: tracers that attach to the
probes through the host's kernel (uprobes) while the programs run natively,
as users trace (bpftrace, perf, bcc's trace; live_*.py), and xsdt-trace,
which traces them from inside the process, emulated or not.

A live check runs each program of a cell once under one tracer, with the
value oracle's ORACLE_LOG (the program enables nothing itself and logs what
its source passed at each probe), and checks two things:
  * the program's own result: its exit status is 0 while traced (the
    red-zone program's leaves compare their results with twins: a tracer
    that corrupts a leaf makes it exit 1);
  * every value the tracer printed equals what the source passed, argument
    by argument (truth.py), hit by hit.
The tracer's own limits (an argument it cannot address, an immediate it
skips) are known limits of its module, counted apart, never passed.

A tracer module has NAME, PACKAGE, LIVE = True, KNOWN_LIMITS (functions of
(Value, reading) -> why or None, reading being what run() put for an
argument it did not read), executable(emulated), supports(arch) and
run(runs, targets, work_dir, timeout) -> Traced, raising Missing when it
cannot attach here (no root, no tracefs, no kernel headers): a MISSING
column, loudly, never a pass.
"""
import json
import os
import platform
import shutil
import subprocess

import consumers
import notes

ARCHES = consumers.ARCHES


class Missing(Exception):
    """The tracer cannot attach on this machine; the message says why."""


class Target:
    """One probe of one binary that a tracer attaches to: every site of
    (provider, name) in binary; argc is the most arguments a site has."""

    def __init__(self, index, binary, provider, name, argc):
        self.index, self.binary = index, binary
        self.provider, self.name, self.argc = provider, name, argc
        self.site_args = []  # each site's argument specs, as the note says
        # The arguments before the first spec the tracer's parser rejected
        # (it then reads none after it either), and that spec; dropped: the
        # tracer refuses the whole probe for it (bcc's trace).
        self.readable, self.rejected, self.dropped = argc, None, False

    @property
    def key(self):
        return (self.provider, self.name)


class Run:
    """One program run: its command (native), its environment and, once
    run, its process id, exit status and output."""

    def __init__(self, label, command, env):
        self.label, self.command, self.env = label, command, env
        self.pid, self.status, self.output = None, None, ""
        self.binaries = []  # the ELF files whose probes it may hit

    def start(self):
        """Starts the program; the caller waits on the returned process."""
        proc = subprocess.Popen(self.command, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        self.pid = proc.pid
        return proc

    def finish(self, proc, timeout):
        try:
            self.output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            self.output, _ = proc.communicate()
            self.output += f"\n(killed after {timeout:.0f}s)"
        self.status = proc.returncode


class Traced:
    """What a tracer saw: hits as (run index, target index, readings), a
    reading an int or a string saying why the tracer did not read it; and
    its own output, for diagnosis."""

    def __init__(self):
        self.hits = []
        self.output = ""
        # {target index: why}: probes the tracer could not attach whole,
        # for a reason that is its own limit (not compared, counted apart).
        self.unattached = {}


def targets(binaries):
    """The probes of the binaries (their stapsdt notes, as readelf reads
    them), one Target per (binary, provider, name)."""
    found, seen = [], {}
    for binary in binaries:
        for note in notes.read(binary):
            key = (binary, note.provider, note.name)
            if key not in seen:
                seen[key] = Target(len(found), binary, note.provider, note.name, 0)
                found.append(seen[key])
            target = seen[key]
            target.argc = target.readable = max(target.argc, len(note.args))
            target.site_args.append([a.text for a in note.args])
    return found


def rejected_specs(text):
    """The specs a tracer's USDT parser (libbcc's, under bpftrace and bcc)
    refused, from its output: "Parse error:", the probe's argument string
    on the next line and a caret under the spec it stopped in."""
    import re
    lines, found = text.splitlines(), set()
    for i, line in enumerate(lines[:-2]):
        if line.strip() != "Parse error:" or "^" not in lines[i + 2]:
            continue
        # The spec the caret is in, or just after (the last that starts
        # at or before it).
        caret = lines[i + 2].index("^")
        starts = [m for m in re.finditer(r"\S+", lines[i + 1]) if m.start() <= caret]
        if starts:
            found.add(starts[-1].group())
    return found


def restrict(targets, rejected, whole=False):
    """Stops reading each probe's arguments at the first spec in rejected
    (libbcc drops the rest of a probe's arguments after one it cannot
    parse), or, where that was done and the tracer still refuses, or when
    it refuses whole probes (whole), drops the probe; whether anything
    changed."""
    changed = False
    for t in targets:
        for args in t.site_args:
            for i, spec in enumerate(args):
                if spec not in rejected or t.dropped:
                    continue
                if i < t.readable and not whole:
                    t.readable, t.rejected = i, spec
                else:
                    t.dropped, t.rejected = True, t.rejected or spec
                changed = True
    return changed


def unread(consumer_name, target, index, beyond):
    """The reading of an argument a tracer did not print: rejected (a
    finding: the spec is outside what the tracer parses), or `beyond`, the
    tracer's own reach (its known limit)."""
    if index >= target.readable:
        return f"{consumer_name}-rejects-{target.rejected}-or-an-earlier-spec"
    return beyond


def _arch_facts(arch):
    try:
        with open(os.path.join(ARCHES, arch, "arch.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def runs_natively(arch):
    """None when this machine's kernel runs the arch's programs natively
    (the host's own arch, or one whose arch.json "runs_on" names the host's:
    a 32-bit arch on its 64-bit kernel, when this kernel does execute it);
    else why not. qemu-user has no uprobes: a tracer through the kernel sees
    no probe of an emulated program."""
    host = consumers.host_arch()
    if arch == host:
        return None
    if claims_native(arch):
        refused = kernel_refuses(arch)
        if not refused:
            return None
        return (f"the kernel here ({platform.machine()}) refuses {arch} programs "
                f"({refused}), so no tracer through it sees their probes")
    return (f"the kernel here ({platform.machine()}) does not run {arch} programs "
            "natively, and qemu-user has no uprobes")


def attach_problem(consumer, arch):
    """Why the tracer cannot attach to the arch's programs here, or None: a
    tracer through the kernel needs them to run natively and needs root; an
    in-process one (IN_PROCESS in its module: xsdt-trace) needs neither."""
    if getattr(consumer, "IN_PROCESS", False):
        return None
    return runs_natively(arch) or root_problem()


def claims_native(arch):
    """Whether the arch's arch.json "runs_on" names this machine's arch."""
    host = consumers.host_arch()
    return bool(host) and host in _arch_facts(arch).get("runs_on", [])


_refusals = {}


def kernel_refuses(arch):
    """Why this kernel does not execute the arch's programs, or None: a
    64-bit kernel can be built or booted without its 32-bit ABI (Linux's
    ia32_emulation=0, some virtual machines), which "runs_on" cannot know.
    Asked by executing the dynamic loader of the arch's sysroot (the
    arch.json emulator's -L) with --help; None when there is none to ask."""
    if arch not in _refusals:
        import glob
        sysroot = emulator_sysroot(_arch_facts(arch).get("emulator", []))
        loaders = sorted(glob.glob(os.path.join(sysroot, "lib", "ld-*.so*"))) if sysroot else []
        refused = None
        if loaders:
            try:
                subprocess.run([loaders[0], "--help"], capture_output=True, timeout=30)
            except OSError as error:
                refused = f"{loaders[0]}: {error.strerror}"
        _refusals[arch] = refused
    return _refusals[arch]


def emulator_sysroot(words):
    """The sysroot an emulator command (`qemu-ARCH -L SYSROOT`, as words)
    names, or None."""
    return words[words.index("-L") + 1] if "-L" in words[:-1] else None


def _interpreter(path):
    """The PT_INTERP of an ELF file, or None (a static program)."""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "Requesting program interpreter:" in line:
            return line.split(":", 1)[1].strip().rstrip("]").strip()
    return None


def native_command(argv, emulator):
    """The command that runs argv natively: as it is without an emulator;
    with one (`qemu-ARCH -L SYSROOT`), through the sysroot's
    dynamic loader with the sysroot's libraries (the kernel runs the program
    itself, the loader maps it, so uprobes on its file fire), or directly
    when it is static."""
    if not emulator:
        return list(argv)
    sysroot = emulator_sysroot(emulator.split()) or "/"
    interp = _interpreter(argv[0])
    if interp is None:
        return list(argv)
    loader = os.path.join(sysroot, interp.lstrip("/"))
    libraries = ":".join(os.path.join(sysroot, d) for d in ("lib", "usr/lib"))
    # The program's own folder too: a shared-link cell's library sits there.
    folders = ":".join(dict.fromkeys(os.path.dirname(os.path.abspath(a))
                                     for a in argv if os.path.isfile(a)))
    return [loader, "--library-path", f"{libraries}:{folders}"] + list(argv)


def default_sigint():
    """Before a tracer starts (Popen preexec_fn): SIGINT, which stops it,
    back to its default. A test runner may ignore it, and an ignored signal
    stays ignored across exec: Python then installs no KeyboardInterrupt
    handler, and bcc's trace would run on until it is killed."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_quiet(lines, quiet=1.5, limit=30.0):
    """Waits until a tracer's output (lines, which its reader thread
    appends to) has not grown for `quiet` seconds, at most `limit`: the
    hits of a program that just exited may still be in the tracer's
    buffers, and an interrupt while it prints them loses them. Generous:
    a loaded machine delays the tracer's reading of its buffers."""
    import time
    start = time.monotonic()
    seen, since = len(lines), time.monotonic()
    while time.monotonic() - start < limit:
        time.sleep(0.1)
        if len(lines) != seen:
            seen, since = len(lines), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def machine_dir():
    """A directory every process on the machine shares, for the lock of
    the tracers' global state and their caches: /tmp, whatever TMPDIR a
    test runner gives each test (lit sets one per test)."""
    return "/tmp"


def root_problem():
    """None as root; else why a tracer cannot attach uprobes."""
    if os.geteuid() != 0:
        return "not root: attaching uprobes needs root (or CAP_PERFMON and CAP_BPF)"
    return None


def which(name):
    return shutil.which(name)


def missing(name, why):
    """Says that the tracer cannot attach here, on stdout and on stderr
    (which lit keeps: the matrix makes the consumer's column MISSING from
    it); the exit status 2."""
    import sys
    line = f"{name}: MISSING: " + " ".join(why.split())[:600]
    print(line)
    print(line, file=sys.stderr)
    return 2


def private_copies(programs, work):
    """The programs, each directory of them copied into work (files, so new
    inodes; the libraries beside a program come along). The build cache
    links one build into every test that uses it, and the kernel keeps one
    semaphore offset per file and probe address: two tracers attaching the
    same file at once with different ones (bcc and bpftrace do) get EINVAL
    ("ref_ctr_offset mismatch" in the kernel log)."""
    import shutil
    copies, directories = [], {}
    for program in programs:
        source = os.path.dirname(os.path.abspath(program))
        if source not in directories:
            directories[source] = os.path.join(work, f"programs-{len(directories)}")
            shutil.copytree(source, directories[source], symlinks=True)
        copies.append(os.path.join(directories[source], os.path.basename(program)))
    return copies


def check(consumer, programs, emulator, arch, timeout, prefix=()):
    """Runs each program (a path; `prefix` before it: a shared-link cell's
    launcher) once under the tracer and compares what it read with each
    program's oracle log. Prints one line per finding, one summary line
    per program and a total; returns 0 (no finding), 1 (findings) or 2
    (MISSING: the tracer cannot attach here)."""
    import tempfile

    import static
    import truth

    name = consumer.NAME
    why = consumers.missing(consumer, bool(emulator)) or attach_problem(consumer, arch)
    if why:
        return missing(name, why)
    with tempfile.TemporaryDirectory(prefix="xsdt-live-") as work:
        runs, binaries = [], []
        for i, program in enumerate(private_copies(programs, work)):
            argv = list(prefix) + [program]
            log = os.path.join(work, f"oracle-{i}.log")
            env = dict(os.environ, ORACLE_LOG=log)
            runs.append(Run(os.path.basename(program), native_command(argv, emulator), env))
            runs[-1].argv = argv  # as the user types it (an in-process tracer's)
            runs[-1].binaries = static.binaries([program])
            binaries += runs[-1].binaries
        probes = targets(list(dict.fromkeys(binaries)))
        try:
            traced = consumer.run(runs, probes, work, timeout)
        except Missing as error:
            return missing(name, str(error))
        total = {"findings": 0, "hits": 0, "passed": 0, "agreed": 0, "limits": 0}
        for i, run in enumerate(runs):
            log = run.env["ORACLE_LOG"]
            findings = []
            try:
                expected, providers = truth.read_log(log) if os.path.exists(log) \
                    else ({}, set())
            except ValueError as error:
                expected, providers = {}, set()
                findings.append(f"the oracle's log is unreadable: {error}")
            observed = {}
            for run_index, target_index, readings in traced.hits:
                target = probes[target_index]
                if run_index == i and target.provider in providers:
                    observed.setdefault(target.key, []).append(readings)
            at_limits = []
            for target in probes:
                if target.dropped and target.binary in run.binaries and \
                        target.key in expected:
                    findings.append(f"{target.provider}:{target.name}: not traced: {name} "
                                    f"refuses the probe for its spec {target.rejected}")
                    del expected[target.key]
                    observed.pop(target.key, None)
            for target_index, reason in traced.unattached.items():
                target = probes[target_index]
                if target.binary in run.binaries and target.key in expected:
                    at_limits.append(f"{target.provider}:{target.name}: not traced: {reason}")
                    del expected[target.key]
                    observed.pop(target.key, None)
            more, agreed, limited = truth.compare(expected, observed, consumer.KNOWN_LIMITS)
            at_limits += limited
            findings += more
            if run.status != 0:
                findings.append(f"the program's exit while traced: {run.status}: "
                                f"{run.output.strip()[-300:]}")
            if not expected:
                findings.append("the program logged no expectation (ORACLE_LOG)")
            attached = {t.key for t in probes
                        if t.provider in providers and t.binary in run.binaries}
            hits = sum(len(v) for v in observed.values())
            passed = sum(len(values) for hits_of in expected.values() for values in hits_of)
            for finding in findings:
                print(f"{name}: {run.label}: {finding}")
            for limit in at_limits:
                print(f"{name}: {run.label}: known limit: {limit}")
            print(f"{name}: {run.label}: {len(attached)} probes attached, {hits} hits, "
                  f"{passed} arguments passed, {agreed} read equal to the source's, "
                  f"{len(at_limits)} at {name}'s known limits, {len(findings)} findings")
            total["findings"] += len(findings)
            total["hits"] += hits
            total["passed"] += passed
            total["agreed"] += agreed
            total["limits"] += len(at_limits)
        summary = (f"{name}: {len(runs)} programs, {total['hits']} hits, {total['passed']} "
                   f"arguments passed, {total['agreed']} read equal to the source's, "
                   f"{total['limits']} at {name}'s known limits, {total['findings']} findings")
        print(summary)
        # On stderr too, which lit keeps: the matrix counts the known
        # limits from it (ci/matrix.py).
        import sys
        print(summary, file=sys.stderr)
        if total["findings"]:
            print(traced.output[-3000:])
        return 1 if total["findings"] else 0


def session(runs, targets, command, is_ready, what, timeout, env=None, whole=False):
    """Runs the programs under one tracer process that attaches to every
    target at its start: command(targets) is its command line (it may write
    files), is_ready(line) says from its output that it has attached. A
    spec the tracer's USDT parser rejects fails the whole process: those
    arguments are left out (restrict; whole: their probes, for a tracer
    that parses every argument of a probe it attaches) and the tracer
    started again.
    Returns ({pid: run index}, the tracer's output lines)."""
    import signal
    import threading

    while True:
        proc = subprocess.Popen(command(targets), env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                preexec_fn=default_sigint)
        lines, ready = [], threading.Event()

        def read(proc=proc, lines=lines, ready=ready):
            for line in proc.stdout:
                lines.append(line)
                if is_ready(line):
                    ready.set()
            ready.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        ready.wait(timeout)
        if any(is_ready(line) for line in lines):
            break
        proc.kill()
        reader.join(10)
        if not restrict(targets, rejected_specs("".join(lines)), whole):
            raise Missing(f"{what} did not attach: " + "".join(lines)[-800:].strip())
    pids = {}
    for i, r in enumerate(runs):
        program = r.start()
        pids[r.pid] = i
        r.finish(program, timeout)
    wait_quiet(lines)
    stop(proc)
    reader.join(10)
    return pids, lines


def stop(proc):
    """Stops a tracer whose output is read: SIGINT, as a user does, then
    SIGTERM and SIGKILL. Loaded, bpftrace 0.17 sometimes lets a SIGINT
    pass and ran on until a 60 s wait killed it, a minute of a test's time;
    its output is already read by then (wait_quiet)."""
    import signal
    for sig, wait in ((signal.SIGINT, 10), (signal.SIGTERM, 5)):
        proc.send_signal(sig)
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            pass
    proc.kill()
    proc.wait()
