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
import json
import os
import platform
import re
import subprocess
import sys
import threading
import time

import report
import toolchains as toolchain_discovery
from cell_cache import cell_cache_key
from cell_phases import phase_text
from cell_plan import (CLANG_ONLY_OPTS, LINKS, OPTS, PRESETS, REPO, cell_name, matches,
                       parallelism, plan, run_order)
from cell_run import BAD, missing_tools, run_cell
from known_bugs import catalog_summary

sys.path.insert(0, os.path.join(REPO, "conformance", "impls"))
import implementations  # noqa: E402

RESULTS_SCHEMA = 2


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


def parse_arguments(argv=None):
    """The command line, checked, with its paths made absolute."""
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
    parser.add_argument("--trace", help="xsdt-trace, the in-process tracer of the live "
                        "consumer live-xsdt-trace (default: BUILD_DIR/sdt/trace/xsdt-trace)")
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
                        "cell's own; --preset ctest: one of --slice-compilers per arch; 'slice': "
                        "that one for every cell, in any preset")
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
    parser.add_argument("--no-cells-exit", type=int, metavar="CODE", default=0,
                        help="the exit status when --preset ctest gives the toolchain no "
                        "cell (default 0; ctest's conformance tests: 77, skipped)")
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
    args = parser.parse_args(argv)
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
    args.trace = os.path.abspath(
        args.trace or os.path.join(args.build_dir, "sdt", "trace", "xsdt-trace"))
    args.tools = os.path.abspath(
        args.tools or os.path.join(args.build_dir, "lit-tests", "tools"))
    args.work_dir = os.path.abspath(args.work_dir or os.path.join(args.build_dir, "matrix"))
    os.makedirs(args.work_dir, exist_ok=True)
    return args


def one_cell(cell, args, cache_dir):
    """A cell's result: MISSING, replayed from the cell cache, or run."""
    impl, path, toolchain, opt, link = cell
    missing = missing_tools(impl, toolchain, args)
    if missing:
        packages = " ".join(filter(None, [toolchain.get("packages", "").strip(),
                                           impl["package"]]))
        return {"missing": missing, "packages": packages, "ok": False}
    key = cell_cache_key(impl, toolchain, opt, link, args)
    cache_file = os.path.join(cache_dir, f"{key}.json")
    if not args.no_cache and os.path.exists(cache_file):
        with open(cache_file) as f:
            result = json.load(f)
        result["_console_failures"] = []
        result["cached"] = True
        return result
    result = run_cell(impl, path, toolchain, opt, link, args)
    if result["ok"]:
        with open(cache_file + ".tmp", "w") as f:
            json.dump({k: v for k, v in result.items() if not k.startswith("_")}, f)
        os.replace(cache_file + ".tmp", cache_file)
    result["cached"] = False
    return result


def verdict_line(impl, result):
    """A cell's verdict on the console."""
    if "missing" in result:
        return "MISSING " + ", ".join(result["missing"])
    passed = result["counts"].get("PASS", 0) + result["counts"].get("XFAIL", 0)
    failed = len([t for t in result["tests"] if t["code"] in BAD])
    return (f"{'ok' if result['status'] == 'ok' else 'FAIL'} {passed} passed"
            + (f", {failed} failed" if failed else "")
            + (" (reference: findings)" if failed and impl["role"] != "subject" else "")
            + (" [cached]" if result["cached"] else
               f" in {result['elapsed']:.0f}s ({phase_text(result.get('phases'))})"))


def run_cells(cells, args, start):
    """{name: (cell, result)} of every cell, run side by side, each line
    printed as its cell ends."""
    cache_dir = os.path.join(args.work_dir, "cell-cache")
    os.makedirs(cache_dir, exist_ok=True)
    done = [0]
    print_lock = threading.Lock()

    def run_one(cell):
        impl, _, toolchain, opt, link = cell
        name = cell_name(impl["name"], toolchain["arch"], toolchain["compiler"], opt, link)
        result = one_cell(cell, args, cache_dir)
        with print_lock:
            done[0] += 1
            print(f"[{done[0]}/{len(cells)} {time.monotonic() - start:4.0f}s] {name}: "
                  f"{verdict_line(impl, result)}", flush=True)
        return name, cell, result

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.parallel_cells)) as pool:
        for name, cell, result in pool.map(run_one, run_order(cells)):
            results[name] = (cell, result)
    return results


def print_findings(results, cell_documents, catalog, problems, impls):
    """The subject's failures in full, the matrix, the catalog, and what
    could not run."""
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


def results_document(args, toolchains, impls, cell_documents, catalog, problems, tools,
                     started_at, wall_seconds, all_ok):
    """results.json (schema 2)."""
    return {
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


def main(argv=None):
    args = parse_arguments(argv)
    impls = select_impls(args)
    toolchains = load_toolchains(args)
    if not toolchains:
        print("matrix: no toolchain matches; install them with toolchains/install-deps.sh "
              "(python3 ci/toolchains.py lists what is found)", file=sys.stderr)
        return 2
    cells = plan(impls, toolchains, args)
    if not cells and args.preset == "ctest":
        # CI's slice gives this toolchain no cell (a reference's, on the
        # arches whose other compiler runs it): said, and skipped, not passed.
        print("SKIPPED: CI's slice runs no cell of "
              f"{', '.join(t['name'] for _, t in toolchains)} for "
              f"{', '.join(i['name'] for i in impls)} (another compiler of the arch runs "
              "them; the README's main job runs every compiler; docs/suite.md, \"CI's slice\")")
        return args.no_cells_exit
    args.parallel_cells, args.jobs = parallelism(len(cells), os.cpu_count() or 1,
                                                 args.parallel_cells, args.jobs)
    start = time.monotonic()
    started_at = datetime.datetime.now(datetime.timezone.utc)
    tools = tool_versions(toolchains, args)
    print(f"matrix: {len(cells)} cells: {len(impls)} implementations "
          f"({', '.join(i['name'] for i in impls)}) x {len(toolchains)} toolchains "
          f"({', '.join(t['name'] for _, t in toolchains)}), preset {args.preset}", flush=True)
    results = run_cells(cells, args, start)

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
    print_findings(results, cell_documents, catalog, problems, impls)
    wall_seconds = time.monotonic() - start
    failed = [n for n, d in cell_documents.items()
              if d["status"] != "ok" and d["role"] == "subject" or d["status"] == "missing"]
    cached = sum(1 for _, r in results.values() if r.get("cached"))
    print(f"\n{len(cell_documents)} cells ({cached} cached): {len(failed)} of the subject "
          f"implementation failed or missing; {wall_seconds:.0f}s")

    document = results_document(args, toolchains, impls, cell_documents, catalog, problems,
                                tools, started_at, wall_seconds, all_ok)
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
