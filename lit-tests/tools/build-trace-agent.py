#!/usr/bin/env python3
"""Build xsdt-trace's agent (sdt/trace) for one conformance cell's arch.

Usage: build-trace-agent.py --repo DIR --cache DIR --runtime ARCHIVE
                            --cxx "COMPILER [TARGET FLAG]" [--flag F]...
                            [--output-dir DIR]

Compiles the agent's sources as sdt/trace/CMakeLists.txt names them (the D
subset: d_eval, d_format, d_parser; the agent: agent, agent_protocol), in
one translation unit, with the cell's runtime compiler and -fPIC, links
them with the cell's libxsdt (ARCHIVE, position-independent:
build-runtime.py's) into
libxsdt-trace-core.so, and agent_start.cpp into libxsdt-trace-agent.so,
which needs the core beside it ($ORIGIN); the core keeps its libxsdt to
itself (--exclude-libs), so that a program with a libxsdt of its own (the
value oracle's) keeps its own. Prints the agent's path: the library the
host's xsdt-trace preloads into a program of that arch ($XSDT_TRACE_AGENT);
--output-dir copies both libraries there too. Cached under --cache by the content of the command,
every source and header involved and the runtime archive, as build-
runtime.py caches libxsdt.
"""
import argparse
import fcntl
import glob
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

CORE_SOURCES = ["d_eval.cpp", "d_format.cpp", "d_parser.cpp", "agent.cpp",
                "agent_protocol.cpp", "aggregation_tables.cpp"]
START_SOURCE = "agent_start.cpp"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flag", action="append", default=[])
    parser.add_argument("--output-dir")
    args = parser.parse_args()

    repo = os.path.abspath(args.repo)
    trace = os.path.join(repo, "sdt", "trace")
    includes = [f"-I{trace}", f"-I{repo}/sdt/runtime/include",
                f"-I{repo}/sdt/runtime/src", f"-I{repo}/sdt/argspec/include"]
    base = shlex.split(args.cxx) + ["-std=c++20", "-fPIC", "-Wall", "-Wextra",
                                    "-Werror"] + args.flag + includes
    compiler = os.path.basename(shlex.split(args.cxx)[0])
    if "clang" not in compiler and "g++" in compiler:
        base.append("-Wno-restrict")  # GCC PR 105329, as build-runtime.py says
    inputs = sorted(glob.glob(os.path.join(trace, "*.h"))) + \
        sorted(glob.glob(os.path.join(repo, "sdt", "runtime", "include", "xsdt", "*.h"))) + \
        [os.path.join(repo, "sdt", "runtime", "src", "probe_description.h")] + \
        [os.path.join(trace, s) for s in CORE_SOURCES + [START_SOURCE]] + [args.runtime]
    key = hashlib.sha256("\0".join(base).encode())
    for path in inputs:
        key.update(path.encode() + b"\0")
        with open(path, "rb") as f:
            key.update(f.read())
    out_dir = os.path.join(args.cache, f"trace-agent-{key.hexdigest()[:32]}")
    agent = os.path.join(out_dir, "libxsdt-trace-agent.so")
    os.makedirs(args.cache, exist_ok=True)
    with open(out_dir + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(agent):
            status = build(args, base, trace, out_dir)
            if status:
                return status
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        for name in os.listdir(out_dir):
            shutil.copy2(os.path.join(out_dir, name), args.output_dir)
        agent = os.path.join(args.output_dir, os.path.basename(agent))
    print(agent)
    return 0


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        print("build-trace-agent: " + shlex.join(cmd), file=sys.stderr)
        sys.stderr.write(result.stdout + result.stderr)
    return result.returncode


def build(args, base, trace, out_dir):
    work = tempfile.mkdtemp(dir=args.cache, prefix=".agent-")
    try:
        # The core's sources in one translation unit: their headers (the
        # standard library's most of all) parsed once, 7.8 CPU-s instead of
        # 13 for one cross arch at -O1; a file-local name that two sources
        # share would fail this compile in every cell.
        unity = os.path.join(work, "trace-core-unity.cpp")
        with open(unity, "w") as f:
            f.writelines(f'#include "{os.path.join(trace, s)}"\n' for s in CORE_SOURCES)
        objects = [os.path.join(work, "trace-core-unity.o")]
        if run(base + ["-c", unity, "-o", objects[0]]):
            return 1
        core = os.path.join(work, "libxsdt-trace-core.so")
        if run(base + ["-shared", "-o", core, *objects, "-Wl,--whole-archive",
                       args.runtime, "-Wl,--no-whole-archive", "-Wl,--exclude-libs,ALL",
                       # On an ISA without byte-sized atomic instructions
                       # clang calls __atomic_exchange_1 for the agent's
                       # std::atomic<bool>: libatomic has it.
                       "-pthread", "-Wl,--as-needed", "-latomic", "-Wl,--no-as-needed"]):
            return 1
        agent = os.path.join(work, "libxsdt-trace-agent.so")
        if run(base + ["-shared", "-o", agent, os.path.join(trace, START_SOURCE),
                       f"-L{work}", "-lxsdt-trace-core", "-Wl,-rpath,$ORIGIN"]):
            return 1
        staged = out_dir + f".{os.getpid()}.tmp"
        os.makedirs(staged)
        for f in (core, agent):
            shutil.copy2(f, staged)
        os.replace(staged, out_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
