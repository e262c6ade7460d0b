"""perf, live: for each program, `perf buildid-cache --add` of its files,
`perf probe -x FILE sdt_PROVIDER:NAME` for each of its probes (one uprobe
event per site, with the arguments perf converts from the note), `perf
record` of those events around the program's run, `perf script` to read
the hits, and the events deleted again.

perf's events are global to the machine (tracefs): sessions wait for each
other on a lock, and each program gets its own build-id cache, since perf
probe adds an SDT event for every cached file that has it. perf skips
immediates ("Skipping unsupported SDT argument"): its known limit."""
import fcntl
import os
import re
import shutil
import subprocess
import tempfile

import host_regs
import live
import notes

NAME = "live-perf"
PACKAGE = "linux-perf"
LIVE = True
LIMIT_MARKERS = []
TRACEFS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
SAMPLE = re.compile(r"^\s*(\d+)\s+(\S+?):(\S+?):\s+\([0-9a-f]+\)(.*)$")
ARGUMENT = re.compile(r"arg(\d+)=(\S+)")


def skips_immediates(value, reading):
    if isinstance(reading, str) and reading.startswith("perf-skipped-immediate"):
        return "perf skips every immediate (\"Skipping unsupported SDT argument\")"
    return None


KNOWN_LIMITS = [skips_immediates]


def executable(emulated):
    return shutil.which("perf")


def supports(arch):
    return live.runs_natively(arch)


def _perf(buildid_dir, *args, timeout=120):
    proc = subprocess.run(["perf", "--buildid-dir", buildid_dir, *args],
                          capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


def _immediates(target):
    """Which arguments of the probe are immediates at every site."""
    sites = [n for n in notes.read(target.binary) if n.key == target.key]
    return {i for i in range(target.argc)
            if sites and all(i < len(s.args) and host_regs.IMMEDIATE.match(s.args[i].location)
                             for s in sites)}


def run(runs, targets, work_dir, timeout):
    if not any(os.path.exists(os.path.join(d, "uprobe_events")) for d in TRACEFS):
        raise live.Missing("perf probe writes uprobe events into tracefs, which is not "
                           "mounted (mount -t tracefs nodev /sys/kernel/tracing)")
    traced = live.Traced()
    lock_path = os.path.join(live.machine_dir(), "xsdt-live-perf.lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for i, r in enumerate(runs):
            _trace_one(i, r, targets, work_dir, timeout, traced)
    return traced


def _trace_one(index, run_, targets, work_dir, timeout, traced):
    buildids = os.path.join(work_dir, f"perf-{index}")
    os.makedirs(buildids, exist_ok=True)
    mine = [t for t in targets if t.binary in run_.binaries]
    events = {}  # "group:event" -> target
    try:
        for binary in sorted({t.binary for t in mine}):
            status, text = _perf(buildids, "buildid-cache", "--add", binary)
            traced.output += text
            if status:
                raise live.Missing(f"perf buildid-cache --add {binary}: {text.strip()[-300:]}")
        for binary in sorted({t.binary for t in mine}):
            probes = [t for t in mine if t.binary == binary]
            # One perf probe for all the file's probes; when it fails, one
            # per probe, to tell which perf cannot add.
            status, text = _perf(buildids, "probe", "-x", binary,
                                 *[a for t in probes for a in ("--add", f"sdt_{t.provider}:{t.name}")])
            traced.output += text
            if status:
                _delete(buildids, run_)
                for t in probes:
                    status, text = _perf(buildids, "probe", "-x", binary,
                                         f"sdt_{t.provider}:{t.name}")
                    traced.output += text
                    if status:
                        # perf 6.1 adds the first site of a probe whose
                        # sites have different argument types, then fails
                        # on the next ("Failed to write event: File exists",
                        # with -f too).
                        traced.unattached[t.index] = "perf probe fails on it: " + " ".join(
                            line.strip() for line in text.splitlines()
                            if "rror" in line or "ailed" in line)[-200:]
            by_name = {(f"sdt_{t.provider}", t.name): t for t in probes}
            for line in _listed(buildids, run_):
                group, _, event = line.split()[0].partition(":")
                # NAME, or NAME_1 ... for a probe's further events.
                base = re.sub(r"_\d+$", "", event)
                target = by_name.get((group, event)) or by_name.get((group, base))
                if target is not None:
                    events[f"{group}:{event}"] = target
        if not events:
            raise live.Missing(f"perf probe added no event for {run_.label}: "
                               f"{traced.output.strip()[-300:]}")
        data = os.path.join(buildids, "perf.data")
        # No build-id collection and no synthesized BPF events: a second
        # each otherwise, and neither is needed to read uprobe samples.
        command = ["perf", "record", "-q", "-B", "-N", "--no-bpf-event", "-o", data]
        for event in events:
            command += ["-e", event]
        proc = subprocess.Popen(command + ["--"] + run_.command, env=run_.env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        run_.finish(proc, timeout)  # perf record exits with the program's status
        status, text = _perf(buildids, "script", "-i", data, "-F", "pid,event,trace")
        traced.output += run_.output + text
        immediates = {id(t): _immediates(t) for t in set(events.values())}
        for line in text.splitlines():
            match = SAMPLE.match(line)
            if not match:
                continue
            target = events.get(f"{match.group(2)}:{match.group(3)}")
            if target is None:
                continue
            read = {int(n) - 1: int(v, 0) for n, v in ARGUMENT.findall(match.group(4))}
            readings = []
            for i in range(target.argc):
                if i in read:
                    readings.append(read[i])
                elif i in immediates[id(target)]:
                    readings.append(f"perf-skipped-immediate:arg{i + 1}")
                else:
                    readings.append(f"perf-did-not-print:arg{i + 1}")
            traced.hits.append((index, target.index, readings))
    finally:
        _delete(buildids, run_)


def _listed(buildids, run_):
    """The `perf probe -l` lines of the events on the program's files."""
    _, listed = _perf(buildids, "probe", "-l")
    return [line for line in listed.splitlines()
            if line.split() and any(f" in {b} " in line or line.rstrip().endswith(f" in {b})")
                                    for b in run_.binaries)]


def _delete(buildids, run_):
    """Deletes every event on one of the program's files, also any that perf
    added before it failed (it does not print those)."""
    names = [line.split()[0] for line in _listed(buildids, run_)]
    if names:
        _perf(buildids, "probe", "-q", *[a for n in names for a in ("-d", n)])
