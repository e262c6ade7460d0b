#!/usr/bin/env python3
"""Runs the conformance matrix: every toolchain x cell, one lit run per cell.

A cell is (arch, compiler, opt, link). Each toolchain gets the five opt
levels as PIE plus one non-PIE and one static build at -O2. The table shows
passed/total per cell; a cell whose compiler, emulator or tool is missing is
printed as MISSING with the package to install and fails the run, as does
any failing, unresolved or unexpectedly passing test and any cell that ran
no test at all.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTS = ["-O0", "-O1", "-O2", "-O3", "-Os"]
CELLS = [(opt, "pie") for opt in OPTS] + [("-O2", "nopie"), ("-O2", "static")]
BAD = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}


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
    proc = subprocess.run(command, capture_output=True, text=True)
    counts = {}
    failures = []
    if os.path.exists(out_json):
        with open(out_json) as f:
            for test in json.load(f).get("tests", []):
                code = test["code"]
                counts[code] = counts.get(code, 0) + 1
                if code in BAD:
                    failures.append((test["name"], code, test.get("output", "")))
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
    return {"ok": ok, "counts": counts, "ran": ran, "failures": failures,
            "sites_verified": sites, "args_verified": verified}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--toolchain", action="append", default=[],
                        help="toolchain JSON (default: all under BUILD/cells)")
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--inspect")
    parser.add_argument("--lit", default="/usr/lib/llvm-14/build/utils/lit/lit.py")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-14/bin")
    parser.add_argument("--work-dir")
    parser.add_argument("--filter", help="lit --filter regex")
    parser.add_argument("--arch", action="append", help="only these arches")
    parser.add_argument("--compiler", action="append", help="only these compilers")
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
        toolchains.append((path, toolchain))

    results = {}
    all_ok = True
    start = time.monotonic()
    total = len(toolchains) * len(CELLS)
    done = 0
    for path, toolchain in toolchains:
        row = f"{toolchain['arch']}.{toolchain['compiler']}"
        missing = missing_tools(toolchain, args)
        for opt, link in CELLS:
            done += 1
            if missing:
                results[(row, cell_name(opt, link))] = {"missing": missing}
                all_ok = False
                continue
            print(f"[{done}/{total}] {row}.{cell_name(opt, link)} ...", flush=True)
            result = run_cell(path, toolchain, opt, link, args)
            results[(row, cell_name(opt, link))] = result
            all_ok &= result["ok"]
        if missing:
            print(f"MISSING {row}: {' '.join(missing)} not found; install the Debian "
                  f"packages: {toolchain['packages'].strip()} (toolchains/install-deps.sh)",
                  flush=True)

    for (row, cell), result in results.items():
        for name, code, output in result.get("failures", []):
            print(f"\n=== {code}: {row}.{cell}: {name}\n{output.strip()[-3000:]}")

    columns = [cell_name(opt, link) for opt, link in CELLS]
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
    print(f"\n{len(results) - failed} cells passed, {failed} failed "
          f"({time.monotonic() - start:.0f}s)")

    summary = {f"{row}.{cell}": {k: v for k, v in r.items() if k != "failures"}
               | {"failures": [f[0] for f in r.get("failures", [])]}
               for (row, cell), r in results.items()}
    os.makedirs(args.work_dir, exist_ok=True)
    with open(os.path.join(args.work_dir, "results.json"), "w") as f:
        json.dump(summary, f, indent=2)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
