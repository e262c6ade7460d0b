"""One cell of the conformance matrix: its lit run, and what its results
say (counts, failures with their details, sites and arguments verified,
the consumers' columns, phases)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import toolchains as toolchain_discovery
from cell_cache import LIT_TOOLS
from cell_phases import (cell_phases, process_bound_failures, process_counter,
                         process_phases)
from cell_plan import REPO, cell_lit_filter, cell_name, runtime_toolchain_path
from failure_detail import extract_detail, shorten

sys.path.insert(0, os.path.join(REPO, "conformance", "impls"))
import implementations  # noqa: E402
sys.path.insert(0, os.path.join(REPO, "conformance", "consumers"))
import consumers  # noqa: E402

BAD = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
# lit names a test "<suite> :: <path>"; results.json keeps the path.
LIT_SUITE_PREFIX = re.compile(r"^[^:]+ :: ")
MAX_LIT_WARNING_LINES = 6

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
               "--param", f"trace={getattr(args, 'trace', '')}",
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
    # The subject's cells only: a reference's cell runs tests that the
    # subject's cells run too, and in CI's slice only a handful of them,
    # which the fixed set-up (libxsdt for the value oracle) outweighs.
    if impl["role"] == "subject":
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
