"""Where a cell's time goes: its phase log (set-up, build, run, check) and
the programs it started (perf stat's exec count), with the bound on them."""
import os
import re
import shutil
import subprocess
import tempfile
import threading

PHASE_OWNER = re.compile(r"/([^\s]+?)/Output/([^/\s]+?\.test)\.tmp")


def read_phase_log(path):
    """(phase, seconds, outcome, text) per line of a cell's phase log
    (lit-tests/tools/phase_log.h); [] if there is none."""
    entries = []
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t", 3)
                if len(parts) == 4:
                    try:
                        entries.append((parts[0], float(parts[1]), parts[2], parts[3]))
                    except ValueError:
                        continue
    except OSError:
        pass
    return entries


def cell_phases(cell_dir, tests):
    """Where a cell's time went. setup: lit's configuration (the tracer-side
    libraries it builds); build and run: the compiles and program runs of the
    tests, from the phase log; check: the rest of the tests' time (readelf,
    FileCheck, xsdt-inspect, tool start-ups, lit itself). build, run and
    check are summed over the tests, which lit runs side by side, so they
    add up to the tests' total, not to the wall time. Each test's own build
    and run seconds go into its outcome."""
    by_name = {t["name"]: t for t in tests}
    totals = {"setup": 0.0, "build": 0.0, "run": 0.0}
    counts = {}
    prefix = cell_dir.rstrip("/") + "/"
    for phase, seconds, outcome, text in read_phase_log(os.path.join(cell_dir, "phases.log")):
        if phase not in totals:
            continue
        totals[phase] += seconds
        counts[f"{phase}:{outcome}"] = counts.get(f"{phase}:{outcome}", 0) + 1
        owner = None
        for word in text.split():
            if word.startswith(prefix):
                m = PHASE_OWNER.search("/" + word[len(prefix):])
                if m:
                    owner = by_name.get(f"{m.group(1)}/{m.group(2)}")
                    break
        if owner is not None and phase in ("build", "run"):
            owner[phase] = round(owner.get(phase, 0.0) + seconds, 3)
    test_total = sum(t["elapsed"] for t in tests)
    phases = {k: round(v, 1) for k, v in totals.items()}
    phases["check"] = round(max(0.0, test_total - totals["build"] - totals["run"]), 1)
    phases["tests"] = round(test_total, 1)
    phases["counts"] = counts
    return phases


class ProcessCounter:
    """Counts the programs a cell starts (every exec in lit's process tree:
    lit's shell, the compilers and their cc1/as/ld, emulators, FileCheck,
    tools, consumers), with perf's sched:sched_process_exec event inherited
    by every child. command(path) is the prefix that writes the count to
    path; None, with `missing` saying why, where perf cannot count here.
    A count, not a time: the same tests spawn the same programs on a slow
    machine and a fast one."""

    EVENT = "sched:sched_process_exec"

    def __init__(self, perf, missing):
        self.perf, self.missing = perf, missing

    def command(self, path):
        return [self.perf, "stat", "-x", ",", "-e", self.EVENT, "-o", path, "--"]

    @staticmethod
    def read(path):
        """The count perf wrote, or None."""
        try:
            with open(path) as f:
                for line in f:
                    fields = line.strip().split(",")
                    if len(fields) > 2 and fields[2] == ProcessCounter.EVENT:
                        return int(fields[0]) if fields[0].isdigit() else None
        except OSError:
            pass
        return None


_process_counter = None
_process_counter_lock = threading.Lock()


def process_counter():
    """The machine's ProcessCounter, probed once (cells run in threads):
    perf must count the one exec of `true` as 1."""
    global _process_counter
    with _process_counter_lock:
        if _process_counter is None:
            _process_counter = _probe_process_counter()
        return _process_counter


def _probe_process_counter():
    perf = shutil.which("perf")
    missing = None if perf else "perf is not installed (linux-perf)"
    if perf:
        descriptor, probe = tempfile.mkstemp(prefix="xsdt-count-")
        os.close(descriptor)
        try:
            proc = subprocess.run(ProcessCounter(perf, None).command(probe) + ["true"],
                                  capture_output=True, text=True, timeout=60)
            if ProcessCounter.read(probe) != 1:
                missing = ("perf stat cannot count sched:sched_process_exec here "
                           "(not root, or perf_event_paranoid): "
                           + (proc.stderr.strip()[-200:] or "no count"))
        except (OSError, subprocess.TimeoutExpired) as error:
            missing = f"perf stat failed: {error}"
        finally:
            os.unlink(probe)
    counter = ProcessCounter(perf, missing)
    if missing:
        counter.command = None
    return counter


def process_phases(counter, count_file, ran):
    """The cell's process count for its phases: processes (programs
    started), processes_per_test (over the tests that ran); or
    processes_missing, why they were not counted."""
    if not counter.command:
        return {"processes_missing": counter.missing}
    count = ProcessCounter.read(count_file)
    if count is None:
        return {"processes_missing": f"perf stat wrote no count to {count_file}"}
    return {"processes": count,
            "processes_per_test": round(count / ran, 1) if ran else None}


def process_bound_failures(phases, bound):
    """A cell failure when the cell started more programs per test than
    bound (--max-processes-per-test), or when they could not be counted
    (a bound that cannot be checked is not passed)."""
    if bound is None:
        return []
    if "processes_missing" in phases:
        summary = (f"MISSING: processes per test not counted, bound {bound:g}: "
                   f"{phases['processes_missing']}")
    elif phases.get("processes_per_test") is not None and \
            phases["processes_per_test"] > bound:
        summary = (f"{phases['processes_per_test']:g} processes started per test "
                   f"({phases['processes']} in all), bound {bound:g}: a check spawns "
                   f"more programs than it did; batch it, or raise the bound with why")
    else:
        return []
    return [{"name": "processes", "code": "PROCESSES",
             "detail": {"summary": summary, "lines": [], "findings": []}}]


def phase_text(phases):
    """"setup 12s; tests 90s: build 38s, run 9s, check 43s"."""
    if not phases:
        return ""
    return (f"setup {phases['setup']:.0f}s; tests {phases['tests']:.0f}s: "
            f"build {phases['build']:.0f}s, run {phases['run']:.0f}s, "
            f"check {phases['check']:.0f}s")
