"""A cell's content key: what its tests read (the sources, the tools, the
compiler and emulator binaries, its options), so that a cell that passed is
not run again until one of them changes (ci/matrix.py's cell cache)."""
import glob
import hashlib
import json
import os
import platform
import shutil
import sys
import threading

import toolchains as toolchain_discovery
from cell_plan import REPO, cell_lit_filter, runtime_compiler
sys.path.insert(0, os.path.join(REPO, "conformance", "impls"))
import implementations  # noqa: E402

CACHE_VERSION = 1
# The lit suite's native tools (lit-tests/tools), built into --tools.
LIT_TOOLS = ("build-cache", "notes-table", "run-once")

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
# sources (lit builds libxsdt per toolchain), xsdt-trace's agent's (built in
# the cells). Not the unit tests, the fuzz
# targets or the benchmarks: editing those reruns no cell.
CELL_SOURCES = ("lit-tests", "conformance/impls", "conformance/corpus", "conformance/oracle",
                "conformance/consumers", "ci/arch_facts.py",
                "sdt/include", "sdt/runtime/include", "sdt/runtime/src", "sdt/argspec",
                "sdt/trace")


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
        "trace": tree_digest(getattr(args, "trace", "") or ""),
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
