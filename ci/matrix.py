#!/usr/bin/env python3
"""Runs the conformance matrix: every toolchain x cell, one lit run per cell.

A cell is (arch, compiler, opt, link). Each toolchain gets the five opt
levels as PIE plus one non-PIE and one static build at -O2. The table shows
passed/total per cell; a cell whose compiler, emulator or tool is missing is
printed as MISSING with the package to install and fails the run, as does
any failing, unresolved or unexpectedly passing test and any cell that ran
no test at all.

It writes results.json (schema 2: every cell's per-test outcomes, with a
short detail for each failure, tool versions and the wall time), then
report.md and report.html beside it (ci/report.py).
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time

import report
from failure_detail import extract_detail, shorten

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTS = ["-O0", "-O1", "-O2", "-O3", "-Os"]
CELLS = [(opt, "pie") for opt in OPTS] + [("-O2", "nopie"), ("-O2", "static")]
BAD = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
RESULTS_SCHEMA = 2
# The SDT implementation whose probes the lit suite checks. Only xsdt for
# now; issue 5 adds sys/sdt.h, and every cell already carries the field so
# that the report and the gate need no change then.
IMPLEMENTATION = "xsdt"
# lit names a test "<suite> :: <path>"; results.json keeps the path.
LIT_SUITE_PREFIX = re.compile(r"^[^:]+ :: ")
MAX_LIT_WARNING_LINES = 6


def cell_name(opt, link):
    return f"{opt.lstrip('-')}.{link}"


def missing_tools(toolchain, args):
    """Returns the list of missing executables for this toolchain."""
    needed = [toolchain["cc"], toolchain["cxx"], "readelf",
              os.path.join(args.llvm_bin, "FileCheck")]
    if toolchain["emulator"]:
        needed.append(toolchain["emulator"].split()[0])
    missing = [tool for tool in needed if not shutil.which(tool)]
    for path in (args.lit, args.inspect):
        if not os.path.exists(path):
            missing.append(path)
    return missing


def run_cell(toolchain_path, toolchain, opt, link, args):
    out_dir = os.path.join(args.work_dir, "results")
    os.makedirs(out_dir, exist_ok=True)
    out_json = os.path.join(
        out_dir, f"{toolchain['arch']}.{toolchain['compiler']}.{cell_name(opt, link)}.json")
    command = [sys.executable, args.lit, "-s", "-v", f"-j{args.jobs}",
               "--param", f"toolchain={toolchain_path}",
               "--param", f"opt={opt}", "--param", f"link={link}",
               "--param", f"inspect={args.inspect}",
               "--param", f"llvm_bin={args.llvm_bin}",
               "--param", f"work_dir={args.work_dir}",
               "-o", out_json]
    if args.filter:
        command += ["--filter", args.filter]
    command.append(os.path.join(REPO, "lit-tests"))
    if os.path.exists(out_json):
        os.unlink(out_json)
    # values/ tests tee the oracle's summary to <test>.tmp*.oracle; clear
    # old ones so that only this run's are counted.
    cell_dir = os.path.join(args.work_dir, f"{toolchain['arch']}.{toolchain['compiler']}."
                            f"{cell_name(opt, link)}")
    oracle_glob = os.path.join(cell_dir, "values", "Output", "*.oracle")
    for stale in glob.glob(oracle_glob):
        os.unlink(stale)
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
            tests.append(outcome)
    tests.sort(key=lambda t: t["name"])
    ran = sum(counts.get(c, 0) for c in ("PASS", "FAIL", "XFAIL", "XPASS"))
    ok = proc.returncode == 0 and not failures and counts.get("PASS", 0) > 0
    sites, verified = 0, 0
    for path in glob.glob(oracle_glob):
        with open(path) as f:
            m = re.search(r"^oracle: (\d+) sites, (\d+) args verified", f.read(), re.M)
        if m:
            sites += int(m.group(1))
            verified += int(m.group(2))
    ran_values = not args.filter or "values" in args.filter
    if ran_values and verified == 0:
        failures.append(("values", "ZERO", "the value oracle verified 0 arguments in this cell"))
        ok = False
    if not os.path.exists(out_json):
        failures.append(("lit", "ERROR", proc.stdout + proc.stderr))
        ok = False
    test_names = {t["name"] for t in tests}
    # Failures of the cell as a whole (the oracle's 0-args rule, lit not
    # running at all), as opposed to one lit test's.
    cell_failures = [{"name": name, "code": code, "detail": extract_detail(code, output)}
                     for name, code, output in failures if name not in test_names]
    if counts.get("PASS", 0) == 0 and not failures:
        not_applicable = counts.get("UNSUPPORTED", 0)
        cell_failures.append({"name": "lit", "code": "NO-TESTS", "detail": {
            "summary": f"no test passed in this cell ({len(tests)} selected, "
                       f"{not_applicable} not applicable)", "lines": [], "findings": []}})
    # lit's own warnings (e.g. "building libxsdt failed") explain failures
    # that every runtime test of the cell then shows.
    warnings = [shorten(line) for line in proc.stderr.splitlines()
                if re.search(r"\b(warning|error|fatal)\b", line, re.I)]
    return {"ok": ok, "counts": counts, "ran": ran,
            "sites_verified": sites, "args_verified": verified,
            "elapsed": round(time.monotonic() - started, 1),
            "tests": tests, "cell_failures": cell_failures,
            "lit_warnings": warnings[:MAX_LIT_WARNING_LINES],
            "_console_failures": failures}


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
    """"aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0" -> "12.2.0"."""
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


def cell_document(toolchain, compiler_version, opt, link, result):
    """One cell of results.json v2: its coordinates, then its outcome."""
    document = {
        "implementation": IMPLEMENTATION,
        "arch": toolchain["arch"],
        "compiler": toolchain["compiler"],
        "compiler_version": compiler_version,
        "opt": opt,
        "link": link,
        "toolchain": toolchain["name"],
    }
    if "missing" in result:
        document.update(status="missing", ok=False, missing=result["missing"],
                        packages=toolchain["packages"].strip(), tests=[])
        return document
    document["status"] = "ok" if result["ok"] else "failed"
    document.update({k: v for k, v in result.items() if not k.startswith("_")})
    # Schema 1 had "failures" as a list of names; kept for old readers.
    document["failures"] = [name for name, _, _ in result["_console_failures"]]
    return document


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--toolchain", action="append", default=[],
                        help="toolchain JSON (default: all under BUILD/cells)")
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--inspect")
    parser.add_argument("--lit", default="/usr/lib/llvm-14/build/utils/lit/lit.py")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-14/bin")
    parser.add_argument("--work-dir")
    parser.add_argument("--results", help="results.json to write (default: WORK_DIR/"
                        "results.json); report.md and report.html go beside it")
    parser.add_argument("--filter", help="lit --filter regex")
    parser.add_argument("--arch", action="append", help="only these arches")
    parser.add_argument("--compiler", action="append", help="only these compilers")
    parser.add_argument("--cell", action="append", dest="only_cells", metavar="OPT.LINK",
                        help="only these cells of each toolchain, e.g. O2.pie "
                        f"(default: all of {', '.join(cell_name(o, l) for o, l in CELLS)})")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    # Absolute: lit runs each test in its own directory.
    args.build_dir = os.path.abspath(args.build_dir)
    args.inspect = os.path.abspath(
        args.inspect or os.path.join(args.build_dir, "sdt", "inspect", "xsdt-inspect"))
    args.work_dir = os.path.abspath(args.work_dir or os.path.join(args.build_dir, "matrix"))

    paths = args.toolchain or sorted(glob.glob(os.path.join(args.build_dir, "cells", "*.json")))
    if not paths:
        print(f"matrix: no toolchain descriptions under {args.build_dir}/cells; "
              "configure the build first (cmake -S . -B build)", file=sys.stderr)
        return 2
    toolchains = []
    for path in paths:
        with open(path) as f:
            toolchain = json.load(f)
        if args.arch and toolchain["arch"] not in args.arch:
            continue
        if args.compiler and toolchain["compiler"] not in args.compiler:
            continue
        toolchain.setdefault("name", os.path.splitext(os.path.basename(path))[0])
        toolchains.append((path, toolchain))
    cells_to_run = CELLS
    if args.only_cells:
        cells_to_run = [(o, l) for o, l in CELLS if cell_name(o, l) in args.only_cells]
        unknown = set(args.only_cells) - {cell_name(o, l) for o, l in CELLS}
        if unknown:
            print(f"matrix: unknown --cell {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2

    results = {}
    cell_documents = {}
    all_ok = True
    start = time.monotonic()
    started_at = datetime.datetime.now(datetime.timezone.utc)
    tools = tool_versions(toolchains, args)
    total = len(toolchains) * len(cells_to_run)
    done = 0
    for path, toolchain in toolchains:
        row = f"{toolchain['arch']}.{toolchain['compiler']}"
        missing = missing_tools(toolchain, args)
        compiler_version = version_number(tools["compilers"].get(toolchain["name"]))
        for opt, link in cells_to_run:
            done += 1
            if missing:
                result = {"missing": missing}
                all_ok = False
            else:
                print(f"[{done}/{total}] {row}.{cell_name(opt, link)} ...", flush=True)
                result = run_cell(path, toolchain, opt, link, args)
                all_ok &= result["ok"]
            results[(row, cell_name(opt, link))] = result
            cell_documents[f"{row}.{cell_name(opt, link)}"] = cell_document(
                toolchain, compiler_version, opt, link, result)
        if missing:
            print(f"MISSING {row}: {' '.join(missing)} not found; install the Debian "
                  f"packages: {toolchain['packages'].strip()} (toolchains/install-deps.sh)",
                  flush=True)

    for (row, cell), result in results.items():
        for name, code, output in result.get("_console_failures", []):
            print(f"\n=== {code}: {row}.{cell}: {name}\n{output.strip()[-3000:]}")

    columns = [cell_name(opt, link) for opt, link in cells_to_run]
    rows = [f"{t['arch']}.{t['compiler']}" for _, t in toolchains]
    width = max([len(r) for r in rows] + [10])
    print("\nxsdt conformance matrix (passed/total lit tests per cell; "
          "+Nna: tests not applicable to the cell, not counted)")
    print(" " * width + " | " + " | ".join(f"{c:>16}" for c in columns))
    print("-" * width + "-+-" + "-+-".join("-" * 16 for _ in columns))
    for row in rows:
        cells = []
        for column in columns:
            result = results[(row, column)]
            if "missing" in result:
                text = "MISSING"
            else:
                passed = result["counts"].get("PASS", 0) + result["counts"].get("XFAIL", 0)
                text = f"{'ok' if result['ok'] else 'FAIL'} {passed}/{result['ran']}"
                not_applicable = result["counts"].get("UNSUPPORTED", 0)
                if not_applicable:
                    text += f" +{not_applicable}na"
            cells.append(f"{text:>16}")
        print(f"{row:<{width}} | " + " | ".join(cells))
    print("\nvalue oracle: sites/args verified per cell (every argument of every "
          "site hit, compared with the source's values)")
    print(" " * width + " | " + " | ".join(f"{c:>16}" for c in columns))
    for row in rows:
        cells = []
        for column in columns:
            result = results[(row, column)]
            text = ("MISSING" if "missing" in result else
                    f"{result['sites_verified']}/{result['args_verified']}")
            cells.append(f"{text:>16}")
        print(f"{row:<{width}} | " + " | ".join(cells))
    failed = sum(1 for r in results.values() if "missing" in r or not r["ok"])
    wall_seconds = time.monotonic() - start
    print(f"\n{len(results) - failed} cells passed, {failed} failed "
          f"({wall_seconds:.0f}s)")

    document = {
        "schema": RESULTS_SCHEMA,
        "generator": "ci/matrix.py",
        "ok": all_ok,
        "started_at": started_at.isoformat(timespec="seconds"),
        "wall_seconds": round(wall_seconds, 1),
        "host": {"machine": platform.machine(), "cpus": os.cpu_count()},
        "source": source_state(),
        "options": {"filter": args.filter, "jobs": args.jobs, "cells": args.only_cells,
                    "toolchains": [t["name"] for _, t in toolchains]},
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
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
