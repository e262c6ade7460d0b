"""The cells of a conformance matrix run: the presets' opt levels and link
modes per implementation and toolchain, CI's slice of them (ci/ci_slice.py)
with each cell's share of the tests and the toolchain that builds its
tracer-side runtime, and the order and parallelism the cells run in."""
import fnmatch
import os

import ci_slice
import toolchains as toolchain_discovery

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTS = ci_slice.OPTS
CLANG_ONLY_OPTS = ["-Oz"]
LINKS = ci_slice.LINKS
PRESETS = ("default", "full", "ctest")
# --runtime-compiler's value for "the compiler CI's slice builds the arch's
# runtime with" (ci/ci_slice.py), whatever the cell's own compiler.
SLICE_RUNTIME = "slice"


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
    if args.runtime_compiler and args.runtime_compiler != SLICE_RUNTIME:
        return args.runtime_compiler
    index, families, turn = slice_position(toolchain, args)
    if args.runtime_compiler == SLICE_RUNTIME:
        # A compiler outside the slice (the gate's candidate) links the
        # runtime the slice's cells of its arch built: one build per arch.
        return args.slice_compilers[turn % len(families)]
    if args.preset != "ctest" or index is None:
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
                                 index, families, turn, impl["known_bugs"])
    return ci_slice.and_filters(args.filter, share)


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
