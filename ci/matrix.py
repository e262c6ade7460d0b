#!/usr/bin/env python3
"""Runs the conformance matrix: one lit run per cell, then the report.

A cell is (implementation, arch, compiler, opt, link). Implementations come
from conformance/impls/list, toolchains from ci/toolchains.py (every
installed gcc cross compiler and clang, verified by compiling and linking a
program for the target) or from --toolchain JSON files. A preset picks the
other axes:

  default  every implementation x gcc-12 and clang-14 x -O0..-Os x PIE
  full     every implementation x every compiler found x -O0..-Os (and
           -Oz for clang) x pie, nopie, static and shared
  ctest    CI's slice (ci/ci_slice.py), what one ctest
           conformance.<impl>.<arch>.<compiler> test runs: xsdt at -O0..-Os
           PIE plus -O2 nopie, static and shared, every other implementation
           at -O2 PIE, each cell with the tests of its share

--impl, --arch, --compiler, --opt and --link narrow (or, for --opt and
--link, replace) the preset's axes; --filter and --num-shards/--run-shard
go to lit.

Verdict: a subject implementation (xsdt) fails the run on any failing,
unresolved or unexpectedly passing test. A reference implementation
(sys/sdt.h) is run side by side: its failures are findings, shown in the
report, except that every known bug its adapter declares must still be hit
(its catalog test must fail) in at least one cell of the run where that test
ran with a matching compiler. A cell whose compiler, emulator or header is
missing is MISSING, loudly, with the package to install, and fails the run.

Cells are cached by content: the key covers the sources the cell's tests
read (lit-tests, conformance, sdt, the arch's directory, the adapter and the
implementation's headers), the inspector binary, the compiler and emulator
binaries, lit and the cell's options. A cell that passed is not run again
until one of those changes (--no-cache runs everything).

It writes results.json (schema 2), then report.md and report.html beside it.
"""
import argparse
import concurrent.futures
import datetime
import fnmatch
import glob
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import tempfile
import sys
import threading
import time

import ci_slice
import report
import toolchains as toolchain_discovery
from failure_detail import extract_detail, shorten

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "conformance", "impls"))
import implementations  # noqa: E402
sys.path.insert(0, os.path.join(REPO, "conformance", "consumers"))
import consumers  # noqa: E402

OPTS = ci_slice.OPTS
CLANG_ONLY_OPTS = ["-Oz"]
LINKS = ci_slice.LINKS
PRESETS = ("default", "full", "ctest")
BAD = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
RESULTS_SCHEMA = 2
CACHE_VERSION = 1
# lit names a test "<suite> :: <path>"; results.json keeps the path.
LIT_SUITE_PREFIX = re.compile(r"^[^:]+ :: ")
MAX_LIT_WARNING_LINES = 6
CATALOG_PREFIX = "catalog/"
# The lit suite's native tools (lit-tests/tools), built into --tools.
LIT_TOOLS = ("build-cache", "notes-table", "run-once")


def cell_name(impl, arch, compiler, opt, link):
    return f"{impl}.{arch}.{compiler}.{opt.lstrip('-')}.{link}"


def family(compiler):
    return compiler.split("-")[0]


def matches(value, patterns):
    return not patterns or any(fnmatch.fnmatchcase(value, p) for p in patterns)


def preset_cells(preset, impl, toolchain, args):
    """The (opt, link) pairs a preset runs for one implementation and toolchain."""
    opts = OPTS + (CLANG_ONLY_OPTS if family(toolchain["compiler"]) == "clang" else [])
    if preset == "default":
        return [(opt, "pie") for opt in OPTS]
    if preset == "full":
        return [(opt, link) for link in LINKS for opt in opts]
    index, families, turn = slice_position(toolchain, args)
    return ci_slice.cells(impl["role"], index, len(families), turn)


def slice_position(toolchain, args):
    """(compiler index, compiler families, arch turn) of a toolchain in CI's
    slice; the index is None for a compiler outside --slice-compilers."""
    variant = toolchain.get("variant") or ""
    base = toolchain["compiler"]
    if variant and base.endswith("-" + variant):
        base = base[:-len(variant) - 1]
    compilers = args.slice_compilers
    index = compilers.index(base) if base in compilers else None
    variants = ci_slice.arch_variants(REPO)
    where = (toolchain["arch"], variant)
    turn = variants.index(where) if where in variants else 0
    return index, [family(c) for c in compilers], turn


def runtime_compiler(toolchain, args):
    """The compiler (without variant) that builds a cell's libxsdt and value
    oracle: --runtime-compiler; in CI's slice one of the arch's compilers,
    turning with the arch; otherwise None, the cell's own."""
    if args.runtime_compiler:
        return args.runtime_compiler
    if args.preset != "ctest":
        return None
    index, families, turn = slice_position(toolchain, args)
    if index is None:
        return None
    return args.slice_compilers[turn % len(families)]


def runtime_toolchain_path(toolchain_path, toolchain, args):
    """The toolchain JSON whose compilers build a cell's libxsdt and oracle,
    or None for the cell's own: the file of that compiler for the same arch
    and variant beside the cell's (CMake writes them all into one
    directory), else ci/toolchains.py's discovery of it."""
    compiler = runtime_compiler(toolchain, args)
    variant = toolchain.get("variant") or ""
    own_base = toolchain["compiler"][:-len(variant) - 1] if variant else toolchain["compiler"]
    if compiler is None or compiler == own_base:
        return None
    name = f"{compiler}-{variant}-{toolchain['arch']}" if variant else \
        f"{compiler}-{toolchain['arch']}"
    beside = os.path.join(os.path.dirname(toolchain_path), f"{name}.json")
    if os.path.exists(beside):
        return beside
    found = [t for t in toolchain_discovery.discover(
        REPO, cache_dir=os.path.join(args.work_dir, "cache"), compilers=[compiler],
        arches=[toolchain["arch"]]) if t["name"] == name and not t.get("broken")]
    if not found:
        raise SystemExit(f"matrix: no toolchain {name} to build the runtime of "
                         f"{toolchain['name']} (--runtime-compiler {compiler}); "
                         "python3 ci/toolchains.py lists them")
    return toolchain_discovery.write_json(found, os.path.join(args.work_dir, "toolchains"))[0]


def cell_lit_filter(impl, toolchain, opt, link, args):
    """The lit --filter of one cell: --filter, and in CI's slice the cell's
    share of the tests."""
    if args.preset != "ctest":
        return args.filter
    index, families, turn = slice_position(toolchain, args)
    share = ci_slice.cell_filter(os.path.join(REPO, "lit-tests"), impl["role"], opt, link,
                                 index, families, turn)
    return ci_slice.and_filters(args.filter, share)


# ------------------------------------------------------------ content keys

_tree_digests = {}
_tree_lock = threading.Lock()


def tree_digest(path):
    """sha256 over every file under path (names and contents), memoised."""
    with _tree_lock:
        if path in _tree_digests:
            return _tree_digests[path]
    digest = hashlib.sha256()
    if os.path.isfile(path):
        with open(path, "rb") as f:
            digest.update(f.read())
    for dirpath, dirnames, files in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "Output", "tests"))
        for name in sorted(files):
            if name.endswith(".pyc"):
                continue
            file_path = os.path.join(dirpath, name)
            digest.update(os.path.relpath(file_path, path).encode() + b"\0")
            with open(file_path, "rb") as f:
                digest.update(f.read())
    with _tree_lock:
        _tree_digests[path] = digest.hexdigest()
    return _tree_digests[path]


def binary_identity(command):
    """realpath, size and mtime of a command's executable (None if absent)."""
    found = shutil.which(command) if command else None
    if not found:
        return None
    real = os.path.realpath(found)
    stat = os.stat(real)
    return f"{real}:{stat.st_size}:{stat.st_mtime_ns}"


# What a cell's tests read from the repo besides its arch: the suite, the
# corpus with its oracle and adapters, the probe headers and libxsdt's
# sources (lit builds libxsdt per toolchain). Not the unit tests, the fuzz
# targets or the benchmarks: editing those reruns no cell.
CELL_SOURCES = ("lit-tests", "conformance/impls", "conformance/corpus", "conformance/oracle",
                "conformance/consumers", "ci/arch_facts.py",
                "sdt/include", "sdt/runtime/include", "sdt/runtime/src", "sdt/argspec")


def cell_sources(arch):
    """CELL_SOURCES plus arches/<arch> and the directories its arch.json
    shares with other arches (arches/<share>): a change to one backend
    reruns only the cells that read it. An arch without a readable arch.json
    shares nothing (missing_tools reports it; its cells do not run)."""
    try:
        shares = toolchain_discovery.read_arch_json(
            toolchain_discovery.arch_file(REPO, arch)).get("shares", [])
    except ValueError:
        shares = []
    return list(CELL_SOURCES) + [os.path.join("arches", d) for d in [arch] + shares]


def cell_cache_key(impl, toolchain, opt, link, args):
    parts = {
        "version": CACHE_VERSION,
        "impl": impl["name"], "opt": opt, "link": link,
        "toolchain": {k: toolchain.get(k) for k in
                      ("arch", "triple", "compiler", "cc", "cxx", "target_flag", "emulator")},
        "cc": binary_identity(toolchain["cc"]), "cxx": binary_identity(toolchain["cxx"]),
        "emulator": binary_identity((toolchain["emulator"] or "").split(" ")[0]),
        "inspect": tree_digest(args.inspect),
        "generator": tree_digest(implementations.generator_path(impl, args.dtrace) or ""),
        "tools": [tree_digest(os.path.join(args.tools, t)) for t in LIT_TOOLS],
        "lit": tree_digest(args.lit), "filecheck": binary_identity(
            os.path.join(args.llvm_bin, "FileCheck")),
        "filter": cell_lit_filter(impl, toolchain, opt, link, args),
        "runtime_compiler": runtime_compiler(toolchain, args),
        "shard": [args.num_shards, args.run_shard],
        "soak": args.soak, "run_limit": args.run_limit, "max_failures": args.max_failures,
        "max_processes_per_test": args.max_processes_per_test,
        # The live consumers trace through this machine's kernel.
        "kernel": platform.release(),
        "trees": [tree_digest(os.path.join(REPO, d)) for d in cell_sources(toolchain["arch"])],
        "headers": [tree_digest(p) for pattern in impl["headers"].values()
                    for p in sorted(glob.glob(pattern))],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


# --------------------------------------------------------------- one cell

def missing_tools(impl, toolchain, args):
    """What this cell cannot run without: executables, files, headers."""
    if toolchain.get("broken"):
        return [f"{toolchain['cc']} ({toolchain['broken']})"]
    # The arch's data file: lit reads its traits and expected bytes, and the
    # cache key the directories it shares.
    try:
        toolchain_discovery.read_arch_json(toolchain_discovery.arch_file(REPO, toolchain["arch"]))
    except ValueError as error:
        return [f"arch {toolchain['arch']}: {error}"]
    needed = [toolchain["cc"], toolchain["cxx"], "readelf",
              os.path.join(args.llvm_bin, "FileCheck")]
    if toolchain["emulator"]:
        needed.append(toolchain["emulator"].split()[0])
    missing = [tool for tool in needed if not shutil.which(tool)]
    missing += [path for path in (args.lit, args.inspect) if not os.path.exists(path)]
    generator = implementations.generator_path(impl, args.dtrace)
    if generator and not os.path.exists(generator):
        missing.append(f"{generator} (the dtrace generator of {impl['name']})")
    missing += [os.path.join(args.tools, t) for t in LIT_TOOLS
                if not os.path.exists(os.path.join(args.tools, t))]
    missing += [f"<{h}> of {impl['name']}" for h in implementations.missing_headers(impl)]
    return missing


def run_cell(impl, toolchain_path, toolchain, opt, link, args):
    name = cell_name(impl["name"], toolchain["arch"], toolchain["compiler"], opt, link)
    out_dir = os.path.join(args.work_dir, "results")
    os.makedirs(out_dir, exist_ok=True)
    out_json = os.path.join(out_dir, f"{name}.json")
    command = [sys.executable, args.lit, "-s", "-v", f"-j{args.jobs}",
               "--param", f"impl={impl['name']}",
               "--param", f"toolchain={toolchain_path}",
               "--param", f"opt={opt}", "--param", f"link={link}",
               "--param", f"inspect={args.inspect}",
               "--param", f"dtrace={args.dtrace}",
               "--param", f"tools={args.tools}",
               "--param", f"llvm_bin={args.llvm_bin}",
               "--param", f"work_dir={args.work_dir}",
               "-o", out_json]
    lit_filter = cell_lit_filter(impl, toolchain, opt, link, args)
    if lit_filter:
        command += ["--filter", lit_filter]
    runtime_path = runtime_toolchain_path(toolchain_path, toolchain, args)
    if runtime_path:
        command += ["--param", f"runtime_toolchain={runtime_path}"]
    if args.num_shards:
        command += ["--num-shards", str(args.num_shards), "--run-shard", str(args.run_shard)]
    if args.soak:
        command += ["--param", "soak=1"]
    if args.run_limit:
        command += ["--param", f"run_limit={args.run_limit:g}"]
    if args.max_failures:
        command += ["--max-failures", str(args.max_failures)]
    command.append(os.path.join(REPO, "lit-tests"))
    if os.path.exists(out_json):
        os.unlink(out_json)
    # values/ tests tee the oracle's summary to <test>.tmp*.oracle; clear
    # old ones so that only this run's are counted.
    oracle_glob = os.path.join(args.work_dir, name, "values", "Output", "*.oracle")
    for stale in glob.glob(oracle_glob):
        os.unlink(stale)
    counter = process_counter()
    count_file = os.path.join(out_dir, f"{name}.processes")
    if counter.command:
        command = counter.command(count_file) + command
    started = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True)
    counts = {}
    tests = []
    # (name, code, raw output): printed on the console, not stored.
    failures = []
    if os.path.exists(out_json):
        with open(out_json) as f:
            lit_results = json.load(f)
        for test in lit_results.get("tests", []):
            code = test["code"]
            counts[code] = counts.get(code, 0) + 1
            outcome = {"name": LIT_SUITE_PREFIX.sub("", test["name"]), "code": code,
                       "elapsed": round(test.get("elapsed") or 0.0, 3)}
            if code in BAD:
                failures.append((outcome["name"], code, test.get("output", "")))
                outcome["detail"] = extract_detail(code, test.get("output", ""))
            limits = KNOWN_LIMITS_LINE.findall(test.get("output") or "")
            if outcome["name"].startswith("consumers/") and limits:
                outcome["known_limits"] = int(limits[-1])
            corpus = CORPUS_TEST.match(outcome["name"])
            programs = program_lines(corpus.group(1), test.get("output") or "") if corpus else []
            if programs:
                # A test that reads several programs (consumers/*-corpus.test)
                # counts each: the consumer table stays per program.
                judged = {name: (limits, found) for name, limits, found in programs}
                outcome["programs"] = {
                    "passed": sum(1 for _, f in judged.values() if f == "0"),
                    "failed": sum(1 for _, f in judged.values() if f != "0")}
                outcome["known_limits"] = sum(int(n or 0) for n, _ in judged.values())
            missing_consumer = MISSING_CONSUMER_LINE.search(test.get("output") or "")
            if outcome["name"].startswith("consumers/") and missing_consumer:
                outcome["missing"] = missing_consumer.group(1)
            tests.append(outcome)
    tests.sort(key=lambda t: t["name"])
    ran = sum(counts.get(c, 0) for c in ("PASS", "FAIL", "XFAIL", "XPASS"))
    sites, verified = 0, 0
    for path in glob.glob(oracle_glob):
        with open(path) as f:
            m = re.search(r"^oracle: (\d+) sites, (\d+) args verified", f.read(), re.M)
        if m:
            sites += int(m.group(1))
            verified += int(m.group(2))
    phases = cell_phases(os.path.join(args.work_dir, name), tests)
    phases.update(process_phases(counter, count_file, ran))
    test_names = {t["name"] for t in tests}
    values_ran = any(t["name"].startswith("values/") and t["code"] not in ("UNSUPPORTED",)
                     for t in tests)
    if values_ran and verified == 0:
        failures.append(("values", "ZERO", "the value oracle verified 0 arguments in this cell"))
    if not os.path.exists(out_json):
        failures.append(("lit", "ERROR", proc.stdout + proc.stderr))
    # Failures of the cell as a whole (the oracle's 0-args rule, lit not
    # running at all), as opposed to one lit test's.
    cell_failures = [{"name": n, "code": code, "detail": extract_detail(code, output)}
                     for n, code, output in failures if n not in test_names]
    cell_failures += process_bound_failures(phases, args.max_processes_per_test)
    if ran == 0 and os.path.exists(out_json):
        cell_failures.append({"name": "lit", "code": "NO-TESTS", "detail": {
            "summary": f"no test ran in this cell ({len(tests)} selected, "
                       f"{counts.get('UNSUPPORTED', 0)} not applicable)",
            "lines": [], "findings": []}})
    # lit's own warnings (e.g. "building libxsdt failed") explain failures
    # that every runtime test of the cell then shows.
    warnings = [shorten(line) for line in proc.stderr.splitlines()
                if re.search(r"\b(warning|error|fatal)\b", line, re.I)]
    failing = bool(failures) or bool(cell_failures) or (proc.returncode != 0 and not tests)
    if impl["role"] == "subject":
        ok = not failing
    else:
        # A reference implementation's failing tests are findings; the cell
        # itself must still have run (lit worked, some test ran) within the
        # suite's process bound (its cost is the suite's, not a finding).
        ok = os.path.exists(out_json) and ran > 0 and not any(
            f["code"] in ("ERROR", "NO-TESTS", "PROCESSES") for f in cell_failures)
    return {"ok": ok, "status": "ok" if not failing else "failed",
            "counts": counts, "ran": ran,
            "lit_filter": lit_filter,
            "runtime_toolchain": (os.path.splitext(os.path.basename(runtime_path))[0]
                                  if runtime_path else toolchain["name"]),
            "sites_verified": sites, "args_verified": verified,
            "elapsed": round(time.monotonic() - started, 1),
            "phases": phases,
            "tests": tests, "cell_failures": cell_failures,
            "consumers": consumer_summary(tests, bool(toolchain["emulator"]),
                                          toolchain["arch"]),
            "lit_warnings": warnings[:MAX_LIT_WARNING_LINES],
            "_console_failures": failures}


# The summary line of conformance/consumers/check.py (on stderr, which lit
# keeps): how many readings a consumer's known limit explains.
KNOWN_LIMITS_LINE = re.compile(r"(\d+) at \S+ known limits, \d+ findings")
# A live consumer that cannot attach here says so (conformance/consumers/
# live.py), and its test fails: the column is MISSING, not FAIL.
MISSING_CONSUMER_LINE = re.compile(r"^\S+: MISSING: (.*)$", re.M)
# A static consumer's line per program (check.py --each): "stap: PROGRAM:
# ..., N findings".
# Only the consumer's own lines count, not the test's CHECK lines that lit
# echoes ("CHECK: gdb: 17 probes listed, ...").
def program_lines(consumer, output):
    """[(program, known limits or "", findings)] of consumer's lines."""
    return re.findall(
        rf"^{re.escape(consumer)}: ([\w.+-]+): \d+ probes listed, "
        r".*?(?:(\d+) at \S+ known limits, )?(\d+) findings$", output, re.M)


# The consumer of a test over several programs: consumers/<name>-corpus.test.
CORPUS_TEST = re.compile(r"^consumers/(.+)-corpus\.test$")


def consumer_summary(tests, emulated, arch):
    """Per consumer of conformance/consumers: how its tests
    (consumers/<name>-*.test) came out in the cell. status: ok (every one that
    ran passed), failed, limit (the consumer's own limit: expected failures,
    XFAIL, and nothing else failed), missing (not installed here: its tests
    did not run; never a pass), n/a (the consumer does not read this arch;
    why in not_applicable_reason) or none (no test of it ran in the cell).
    known_limits counts the readings that the consumer's own known limits
    explain in tests that passed (bpftrace's arg6, perf's immediates): such
    a cell is "limit", not "ok"."""
    summary = {}
    for name in consumers.names():
        mine = [t for t in tests if t["name"].startswith(f"consumers/{name}-")]
        codes = [t["code"] for t in mine]
        # A test over several programs counts each program.
        passed = sum(t["programs"]["passed"] if "programs" in t else t["code"] == "PASS"
                     for t in mine)
        failed = sum(max(t["programs"]["failed"], t["code"] in BAD) if "programs" in t
                     else t["code"] in BAD for t in mine)
        entry = {"passed": passed, "failed": failed,
                 "limit": codes.count("XFAIL"), "not_applicable": codes.count("UNSUPPORTED"),
                 "known_limits": sum(t.get("known_limits", 0) for t in mine)}
        consumer = consumers.get(name)
        # A live consumer traces through this machine's kernel: its column
        # is the report's live part.
        entry["live"] = bool(getattr(consumer, "LIVE", False))
        missing = consumers.missing(consumer, emulated)
        unsupported = consumers.unsupported(consumer, arch)
        if entry["live"] and not missing and not unsupported:
            import live
            missing = live.root_problem() or next(
                (t["missing"] for t in mine if t.get("missing")), None)
        if missing:
            entry.update(status="missing", missing=missing)
        elif unsupported:
            entry.update(status="n/a", not_applicable_reason=unsupported)
        elif entry["failed"]:
            entry["status"] = "failed"
        elif entry["limit"] or entry["known_limits"]:
            entry["status"] = "limit"
        elif entry["passed"]:
            entry["status"] = "ok"
        else:
            entry["status"] = "none"
        summary[name] = entry
    return summary


# ------------------------------------------------------------- phase times

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


# ---------------------------------------------------------- tool versions

def first_output_line(command, pattern=r"\d+\.\d+"):
    """The first line of `command`'s output that matches pattern, or None."""
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in (proc.stdout + proc.stderr).splitlines():
        if re.search(pattern, line):
            return line.strip()
    return None


def version_number(line):
    """"<triple>-gcc-12 (Debian 12.2.0-14) 12.2.0" -> "12.2.0"."""
    match = re.search(r"\b(\d+\.\d+(?:\.\d+)?)\b", line or "")
    return match.group(1) if match else None


def tool_versions(toolchains, args):
    """Versions of everything that can change a cell's outcome."""
    tools = {
        "python": platform.python_version(),
        "lit": first_output_line([sys.executable, args.lit, "--version"]),
        "FileCheck": first_output_line([os.path.join(args.llvm_bin, "FileCheck"), "--version"],
                                       r"version"),
        "readelf": first_output_line(["readelf", "--version"]),
        "compilers": {},
        "emulators": {},
    }
    for _, toolchain in toolchains:
        tools["compilers"][toolchain["name"]] = first_output_line([toolchain["cc"], "--version"])
        if toolchain["emulator"]:
            emulator = toolchain["emulator"].split()[0]
            tools["emulators"][emulator] = first_output_line([emulator, "--version"])
    return tools


def source_state():
    """The commit the suite ran from, and whether the tree had changes."""
    def git(*command):
        try:
            return subprocess.run(["git", "-C", REPO, *command], capture_output=True,
                                  text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    commit = git("rev-parse", "HEAD")
    return {"commit": commit or None,
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def cell_document(impl, toolchain, compiler_version, opt, link, result, args_shard=None):
    """One cell of results.json v2: its coordinates, then its outcome."""
    document = {
        "implementation": impl["name"],
        "role": impl["role"],
        "arch": toolchain["arch"],
        "compiler": toolchain["compiler"],
        "compiler_version": compiler_version,
        "opt": opt,
        "link": link,
        "toolchain": toolchain["name"],
    }
    if "missing" in result:
        document.update(status="missing", ok=False, missing=result["missing"],
                        packages=result["packages"], tests=[])
        return document
    document.update({k: v for k, v in result.items() if not k.startswith("_")})
    if args_shard:
        document["lit_shard"] = args_shard  # this cell ran one share of its tests
    # Schema 1 had "failures" as a list of names; kept for old readers.
    document["failures"] = [name for name, _, _ in result.get("_console_failures", [])]
    return document


# ------------------------------------------------------ the known-bug catalog

def catalog_summary(cell_documents, impls):
    """Per implementation and catalog test: the cells that hit it (failed),
    passed it, or could not run it. Then the known-bug check: every known
    bug of a reference adapter must be hit where its test ran with a
    matching compiler. Returns (catalog, problems)."""
    catalog = {}
    # The catalog's tests, and any other test that an adapter names as a
    # known bug (lit-tests/dtrace: SystemTap's generator).
    known_tests = {known.split()[0] for impl in impls for known in impl["known_bugs"]}
    for key, cell in cell_documents.items():
        for test in cell.get("tests", []):
            if not (test["name"].startswith(CATALOG_PREFIX) or test["name"] in known_tests):
                continue
            entry = catalog.setdefault(cell["implementation"], {}).setdefault(
                test["name"], {"hit": [], "passed": [], "not_applicable": 0})
            if test["code"] in BAD:
                entry["hit"].append(key)
            elif test["code"] in ("PASS", "XFAIL"):
                entry["passed"].append(key)
            else:
                entry["not_applicable"] += 1
    problems = []
    for impl in impls:
        for known in impl["known_bugs"]:
            test, *compilers = known.split()
            ran = [(key, cell) for key, cell in cell_documents.items()
                   if cell["implementation"] == impl["name"]
                   and matches(cell["compiler"], compilers)
                   and any(t["name"] == test and t["code"] not in ("UNSUPPORTED",)
                           for t in cell.get("tests", []))]
            if not ran:
                continue  # not in this run's cells: nothing to say
            hit = [key for key, cell in ran if any(
                t["name"] == test and t["code"] in BAD for t in cell["tests"])]
            if not hit:
                problems.append(
                    f"known bug {test} of {impl['name']} not reproduced: it passed in all "
                    f"{len(ran)} cells where it ran ({', '.join(k for k, _ in ran[:4])}"
                    f"{', ...' if len(ran) > 4 else ''}); the catalog test lost its teeth "
                    f"or {impl['name']} changed")
    return catalog, problems


# --------------------------------------------------------------- the run

def load_toolchains(args):
    """[(json path, toolchain)], discovered or from --toolchain files."""
    json_dir = os.path.join(args.work_dir, "toolchains")
    if args.toolchain:
        found = []
        for path in args.toolchain:
            with open(path) as f:
                toolchain = json.load(f)
            toolchain.setdefault("name", os.path.splitext(os.path.basename(path))[0])
            found.append(toolchain)
    else:
        compilers = args.compiler or (["gcc-12", "clang-14"] if args.preset != "full" else None)
        found = toolchain_discovery.discover(REPO, cache_dir=os.path.join(args.work_dir, "cache"),
                                             compilers=compilers, arches=args.arch)
    found = [t for t in found if matches(t["arch"], args.arch)
             and (not args.compiler or toolchain_discovery.compiler_matches(t, args.compiler))]
    paths = toolchain_discovery.write_json(found, json_dir) if found else []
    return list(zip(paths, found))


def select_impls(args):
    names = implementations.names()
    chosen = [n for n in names if matches(n, args.impl)]
    unknown = [p for p in args.impl or [] if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    if unknown:
        raise SystemExit(f"matrix: unknown --impl {', '.join(unknown)} "
                         f"(conformance/impls/list has {', '.join(names)})")
    return [implementations.load(n) for n in chosen]


def plan(impls, toolchains, args):
    """Every cell to run, in a stable order: (impl, path, toolchain, opt, link).
    --opt replaces the preset's opt levels, --link its link modes."""
    cells = []
    for impl in impls:
        for path, toolchain in toolchains:
            pairs = preset_cells(args.preset, impl, toolchain, args)
            if args.opt:
                links = list(dict.fromkeys(link for _, link in pairs))
                pairs = [(opt, link) for link in links for opt in args.opt]
            if args.link:
                opts = list(dict.fromkeys(opt for opt, _ in pairs))
                pairs = [(opt, link) for link in args.link for opt in opts]
            for opt, link in dict.fromkeys(pairs):
                if opt in CLANG_ONLY_OPTS and family(toolchain["compiler"]) != "clang":
                    continue
                cells.append((impl, path, toolchain, opt, link))
    return cells


def run_order(cells):
    """The order the cells start in: implementation by implementation (the
    subject's longer cells first), and within one, toolchain after toolchain
    for each opt level and link mode. The cells that run side by side then
    belong to different toolchains: the first cell of a toolchain builds its
    tracer-side libraries (libxsdt, the oracle) in lit's set-up, and a second
    cell of the same toolchain started next to it would only wait for that
    build."""
    impl_rank, toolchain_rank, mode_rank = {}, {}, {}
    for impl, path, toolchain, opt, link in cells:
        impl_rank.setdefault(impl["name"], len(impl_rank))
        toolchain_rank.setdefault(path, len(toolchain_rank))
        mode_rank.setdefault((opt, link), len(mode_rank))
    return sorted(cells, key=lambda c: (impl_rank[c[0]["name"]], mode_rank[(c[3], c[4])],
                                        toolchain_rank[c[1]]))


def parallelism(cell_count, cores, parallel_cells=None, jobs=None):
    """(cells at a time, lit workers per cell). Cells are independent, so
    they go side by side first, one per core, and lit's workers take the
    cores that are left. Measured on the 2-core machine (docs/suite.md, 16
    cells, twice): 2 cells x 1 worker and 1 x 4 tie, 1 x 2, 2 x 2 and 3 x 1
    are 2-6 % slower."""
    if parallel_cells is None:
        parallel_cells = max(1, min(cores, cell_count))
    if jobs is None:
        jobs = max(1, cores // parallel_cells)
    return parallel_cells, jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", choices=PRESETS, default="default")
    parser.add_argument("--impl", action="append", help="implementations (glob)")
    parser.add_argument("--arch", action="append", help="arches (glob)")
    parser.add_argument("--compiler", action="append",
                        help="compilers (glob, e.g. clang-*; default gcc-12 and clang-14, "
                        "every compiler found with --preset full)")
    parser.add_argument("--opt", action="append", choices=OPTS + CLANG_ONLY_OPTS)
    parser.add_argument("--link", action="append", choices=LINKS)
    parser.add_argument("--toolchain", action="append", default=[],
                        help="toolchain JSON instead of discovery (repeatable)")
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--inspect")
    parser.add_argument("--dtrace", help="xsdt-dtrace (default: BUILD_DIR/sdt/dtrace/"
                        "xsdt-dtrace)")
    parser.add_argument("--tools", help="the lit suite's native tools (default: "
                        "BUILD_DIR/lit-tests/tools)")
    parser.add_argument("--lit", default="/usr/lib/llvm-14/build/utils/lit/lit.py")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-14/bin")
    parser.add_argument("--work-dir")
    parser.add_argument("--results", help="results.json to write (default: WORK_DIR/"
                        "results.json); report.md and report.html go beside it")
    parser.add_argument("--filter", help="lit --filter regex (e.g. 'catalog/|values/')")
    parser.add_argument("--slice-compilers", default="gcc-12,clang-14",
                        help="--preset ctest: the compilers (comma-separated, without "
                        "variant) whose cells share the tests run once per arch")
    parser.add_argument("--runtime-compiler", metavar="COMPILER",
                        help="build every cell's libxsdt and value oracle with this "
                        "compiler of the cell's arch (e.g. clang-14) instead of the "
                        "cell's own; --preset ctest: one of --slice-compilers per arch")
    parser.add_argument("--num-shards", type=int, help="lit sharding: split each cell's "
                        "tests into N shards ...")
    parser.add_argument("--run-shard", type=int, help="... and run shard K (1-based)")
    parser.add_argument("--soak", action="store_true",
                        help="also run the soak tests (lit feature soak: minutes per "
                        "cell, so no preset runs them; ctest -L soak does, one cell per arch)")
    parser.add_argument("--run-limit", type=float, metavar="SECONDS",
                        help="kill a test program still running after SECONDS, "
                        "failing its test (ci/mutate: a mutant that makes a test "
                        "spin forever)")
    parser.add_argument("--max-failures", type=int, metavar="N",
                        help="stop each cell's tests after N failures (ci/mutate: "
                        "one failing test kills a mutant; the rest need not run)")
    parser.add_argument("--no-tests-exit", type=int, metavar="CODE",
                        help="exit CODE instead of 1 when the only failure is that no "
                        "selected test applies to any cell (a skip, e.g. for ctest's "
                        "SKIP_RETURN_CODE)")
    parser.add_argument("--max-processes-per-test", type=float, metavar="N",
                        help="fail a cell that starts more than N programs per test that "
                             "ran (counted with perf stat), or where they cannot be counted")
    parser.add_argument("--no-cache", action="store_true",
                        help="run every cell, even one whose inputs did not change")
    parser.add_argument("-j", "--jobs", type=int,
                        help="lit workers per cell (default: the cores left to each "
                        "of the cells that run at the same time)")
    parser.add_argument("--parallel-cells", type=int,
                        help="cells run at the same time (default: one per core, at "
                        "most the number of cells)")
    args = parser.parse_args()
    if (args.num_shards is None) != (args.run_shard is None) or (
            args.num_shards and not 1 <= args.run_shard <= args.num_shards):
        parser.error("--num-shards N and --run-shard K (1 <= K <= N) go together")
    args.slice_compilers = [c for c in args.slice_compilers.split(",") if c]
    # Absolute: lit runs each test in its own directory.
    args.build_dir = os.path.abspath(args.build_dir)
    args.inspect = os.path.abspath(
        args.inspect or os.path.join(args.build_dir, "sdt", "inspect", "xsdt-inspect"))
    args.dtrace = os.path.abspath(
        args.dtrace or os.path.join(args.build_dir, "sdt", "dtrace", "xsdt-dtrace"))
    args.tools = os.path.abspath(
        args.tools or os.path.join(args.build_dir, "lit-tests", "tools"))
    args.work_dir = os.path.abspath(args.work_dir or os.path.join(args.build_dir, "matrix"))
    os.makedirs(args.work_dir, exist_ok=True)

    impls = select_impls(args)
    toolchains = load_toolchains(args)
    if not toolchains:
        print("matrix: no toolchain matches; install them with toolchains/install-deps.sh "
              "(python3 ci/toolchains.py lists what is found)", file=sys.stderr)
        return 2
    cells = plan(impls, toolchains, args)
    args.parallel_cells, args.jobs = parallelism(len(cells), os.cpu_count() or 1,
                                                 args.parallel_cells, args.jobs)
    start = time.monotonic()
    started_at = datetime.datetime.now(datetime.timezone.utc)
    tools = tool_versions(toolchains, args)
    cache_dir = os.path.join(args.work_dir, "cell-cache")
    os.makedirs(cache_dir, exist_ok=True)
    print(f"matrix: {len(cells)} cells: {len(impls)} implementations "
          f"({', '.join(i['name'] for i in impls)}) x {len(toolchains)} toolchains "
          f"({', '.join(t['name'] for _, t in toolchains)}), preset {args.preset}", flush=True)

    results = {}
    done = [0]
    print_lock = threading.Lock()

    def run_one(cell):
        impl, path, toolchain, opt, link = cell
        name = cell_name(impl["name"], toolchain["arch"], toolchain["compiler"], opt, link)
        missing = missing_tools(impl, toolchain, args)
        cached = False
        if missing:
            packages = " ".join(filter(None, [toolchain.get("packages", "").strip(),
                                               impl["package"]]))
            result = {"missing": missing, "packages": packages, "ok": False}
        else:
            key = cell_cache_key(impl, toolchain, opt, link, args)
            cache_file = os.path.join(cache_dir, f"{key}.json")
            if not args.no_cache and os.path.exists(cache_file):
                with open(cache_file) as f:
                    result = json.load(f)
                result["_console_failures"] = []
                cached = True
            else:
                result = run_cell(impl, path, toolchain, opt, link, args)
                if result["ok"]:
                    with open(cache_file + ".tmp", "w") as f:
                        json.dump({k: v for k, v in result.items() if not k.startswith("_")}, f)
                    os.replace(cache_file + ".tmp", cache_file)
            result["cached"] = cached
        with print_lock:
            done[0] += 1
            if missing:
                verdict = "MISSING " + ", ".join(missing)
            else:
                passed = result["counts"].get("PASS", 0) + result["counts"].get("XFAIL", 0)
                failed = len([t for t in result["tests"] if t["code"] in BAD])
                verdict = (f"{'ok' if result['status'] == 'ok' else 'FAIL'} {passed} passed"
                           + (f", {failed} failed" if failed else "")
                           + (" (reference: findings)" if failed and impl["role"] != "subject"
                              else "")
                           + (" [cached]" if cached else
                              f" in {result['elapsed']:.0f}s ({phase_text(result.get('phases'))})"))
            elapsed = time.monotonic() - start
            print(f"[{done[0]}/{len(cells)} {elapsed:4.0f}s] {name}: {verdict}", flush=True)
        return name, cell, result

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.parallel_cells)) as pool:
        for name, cell, result in pool.map(run_one, run_order(cells)):
            results[name] = (cell, result)

    cell_documents = {}
    all_ok = True
    for name, ((impl, _, toolchain, opt, link), result) in results.items():
        version = version_number(tools["compilers"].get(toolchain["name"]))
        cell_documents[name] = cell_document(
            impl, toolchain, version, opt, link, result,
            f"{args.run_shard}/{args.num_shards}" if args.num_shards else None)
        all_ok &= bool(result["ok"])
    catalog, problems = catalog_summary(cell_documents, impls)
    all_ok &= not problems

    for name, (cell, result) in results.items():
        if cell[0]["role"] != "subject":
            continue  # a reference implementation's failures are in the report
        for test, code, output in result.get("_console_failures", []):
            print(f"\n=== {code}: {name}: {test}\n{output.strip()[-3000:]}")
    print_console_matrix(cell_documents)
    print_catalog(catalog, impls)
    missing_cells = [n for n, d in cell_documents.items() if d["status"] == "missing"]
    for problem in problems:
        print(f"CATALOG FAILURE: {problem}")
    if missing_cells:
        print(f"MISSING: {len(missing_cells)} cells could not run (e.g. {missing_cells[0]}: "
              f"{', '.join(cell_documents[missing_cells[0]]['missing'])}); install with "
              "bash toolchains/install-deps.sh")
    wall_seconds = time.monotonic() - start
    failed = [n for n, d in cell_documents.items()
              if d["status"] != "ok" and d["role"] == "subject" or d["status"] == "missing"]
    cached = sum(1 for _, r in results.values() if r.get("cached"))
    print(f"\n{len(cell_documents)} cells ({cached} cached): {len(failed)} of the subject "
          f"implementation failed or missing; {wall_seconds:.0f}s")

    document = {
        "schema": RESULTS_SCHEMA,
        "generator": "ci/matrix.py",
        "ok": all_ok,
        "started_at": started_at.isoformat(timespec="seconds"),
        "wall_seconds": round(wall_seconds, 1),
        "host": {"machine": platform.machine(), "cpus": os.cpu_count()},
        "source": source_state(),
        "options": {"preset": args.preset, "filter": args.filter,
                    "slice": ("CI's slice (ci/ci_slice.py), compilers "
                              + ", ".join(args.slice_compilers)
                              if args.preset == "ctest" else None),
                    "jobs": args.jobs,
                    "shard": f"{args.run_shard}/{args.num_shards}" if args.num_shards else None,
                    "toolchains": [t["name"] for _, t in toolchains]},
        "implementations": {i["name"]: {k: i[k] for k in ("role", "features", "known_bugs",
                                                           "package")} for i in impls},
        "catalog": catalog,
        "catalog_problems": problems,
        "tools": tools,
        "cells": cell_documents,
    }
    results_path = os.path.abspath(args.results or os.path.join(args.work_dir, "results.json"))
    os.makedirs(os.path.dirname(results_path), exist_ok=True)
    with open(results_path, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    written = [results_path] + report.write_reports(document, os.path.dirname(results_path))
    print("wrote " + ", ".join(written))
    if not all_ok and args.no_tests_exit is not None and not problems and all(
            d["status"] != "missing" and d["ran"] == 0 and
            [f["code"] for f in d.get("cell_failures", [])] == ["NO-TESTS"]
            for d in cell_documents.values()):
        print(f"SKIPPED: no selected test applies to any cell (exit {args.no_tests_exit})")
        return args.no_tests_exit
    return 0 if all_ok else 1


def print_console_matrix(cell_documents):
    """passed/ran per cell: rows impl.arch.compiler, columns opt.link."""
    rows = sorted({(d["implementation"], d["arch"], d["compiler"])
                   for d in cell_documents.values()})
    columns = sorted({(d["link"], d["opt"]) for d in cell_documents.values()},
                     key=lambda c: (LINKS.index(c[0]), (OPTS + CLANG_ONLY_OPTS).index(c[1])))
    grid = {((d["implementation"], d["arch"], d["compiler"]), (d["link"], d["opt"])): d
            for d in cell_documents.values()}
    width = max(len(".".join(r)) for r in rows) + 1
    print("\nconformance matrix (passed/ran lit tests per cell; +N n/a: not applicable, "
          "not counted; reference implementations' failures are findings)")
    print(" " * width + "| " + " | ".join(f"{o.lstrip('-') + '.' + l:>14}" for l, o in columns))
    for row in rows:
        texts = []
        for column in columns:
            d = grid.get((row, column))
            if d is None:
                text = "-"
            elif d["status"] == "missing":
                text = "MISSING"
            else:
                passed = d["counts"].get("PASS", 0) + d["counts"].get("XFAIL", 0)
                text = f"{'ok' if d['status'] == 'ok' else 'FAIL'} {passed}/{d['ran']}"
                if d["counts"].get("UNSUPPORTED"):
                    text += f" +{d['counts']['UNSUPPORTED']}"
            texts.append(f"{text:>14}")
        print(f"{'.'.join(row):<{width}}| " + " | ".join(texts))


def print_catalog(catalog, impls):
    if not catalog:
        return
    print("\nknown-bug catalog (cells where the implementation hits the bug, i.e. "
          "fails the catalog test / cells where it ran)")
    tests = sorted({t for entries in catalog.values() for t in entries})
    names = [i["name"] for i in impls if i["name"] in catalog]
    width = max(len(t) for t in tests) + 1
    print(" " * width + "| " + " | ".join(f"{n:>12}" for n in names))
    for test in tests:
        texts = []
        for name in names:
            entry = catalog[name].get(test)
            if not entry or not entry["hit"] + entry["passed"]:
                texts.append(f"{'n/a':>12}")
                continue
            ran = len(entry["hit"]) + len(entry["passed"])
            texts.append(f"{'HIT ' if entry['hit'] else 'ok '}{len(entry['hit'])}/{ran}".rjust(12))
        print(f"{test:<{width}}| " + " | ".join(texts))


if __name__ == "__main__":
    sys.exit(main())
