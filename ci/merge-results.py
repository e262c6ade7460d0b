#!/usr/bin/env python3
"""Merges the results.json of several shards into one, then writes its report.

CI runs the conformance matrix as one job per arch x compiler (see
ci/github-actions.yml); each job's ci/matrix.py writes a results.json
(schema 2) with its cells only. This puts them back together, so that the
report and ci/toolchain-gate see the whole matrix as if one run made it:

    python3 ci/merge-results.py -o merged/results.json a.json b.json ...

report.md and report.html are written beside the output (ci/report.py).

Refused, exit status 2, with the reason:
  * a file that is not a schema 2 results.json;
  * shards of different commits: their cells test different code, and a
    report over both would credit one commit with the other's results;
  * the same cell (implementation, arch, compiler, opt, link) in two shards
    with different outcomes: which one is true cannot be decided here. The
    same outcome twice (the same shard given twice, or a re-run that agreed,
    timings aside) is kept once;
  * the same implementation described differently (its known bugs decide
    the verdict).

The merged document: every cell; "ok" when every cell is ok and the
known-bug catalog, recomputed over all cells, has no problem; wall_seconds
is the sum over the shards (what one machine would have spent), with the
longest shard in wall_seconds_max; started_at the earliest; tool versions
merged (a tool that differs between shards lists each version once); the
shards themselves under "shards".
"""
import argparse
import copy
import json
import os
import sys

CI_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, CI_DIR)
import report  # noqa: E402
from results_file import ResultsError, load_results  # noqa: E402

# Fields of a cell (and of its tests) that differ between two runs with the
# same outcome: not a conflict.
TIMING_FIELDS = {"elapsed", "cached"}
CELL_COORDINATES = ("implementation", "arch", "compiler", "opt", "link")
# Joins the values of a tool that differ between shards, e.g. two lit builds.
VALUE_SEPARATOR = " | "


class MergeError(Exception):
    """Shards that cannot be merged; the message says why and where."""


# ------------------------------------------------------------------ cells

def coordinates(cell):
    return tuple(cell[field] for field in CELL_COORDINATES)


def without_timings(value):
    """value with TIMING_FIELDS dropped at every depth, for comparison."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def first_difference(a, b, where=""):
    """A short path to where two JSON values differ, for the error message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}.{key}: only in one"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{where}[{index}]")
    return f"{where or 'value'}: {json.dumps(a)[:120]} vs {json.dumps(b)[:120]}"


def merge_cells(shards):
    """{key: cell} of all shards; MergeError on a conflicting duplicate.

    Cells are matched by their coordinates, not their key, so that shards
    written by different versions of ci/matrix.py (whose keys differ) still
    meet. The first shard's key is kept.
    """
    merged = {}
    origin = {}  # coordinates -> (key, path) of the cell kept
    for path, document in shards:
        for key, cell in document["cells"].items():
            where = coordinates(cell)
            if where in origin and lit_shards_of_one_cell(merged[origin[where][0]], cell):
                kept_key, kept_path = origin[where]
                merged[kept_key] = join_lit_shards(merged[kept_key], cell, kept_path, path)
                continue
            if where in origin:
                kept_key, kept_path = origin[where]
                kept, candidate = without_timings(merged[kept_key]), without_timings(cell)
                if kept != candidate:
                    raise MergeError(
                        f"cell {'/'.join(where)} is in both {kept_path} and {path} with "
                        f"different results ({first_difference(kept, candidate)}); "
                        "merge only one of them")
                continue
            if key in merged:
                raise MergeError(f"cell key {key} names {'/'.join(coordinates(merged[key]))} "
                                 f"in {origin_of(origin, key)} but {'/'.join(where)} in {path}")
            merged[key] = copy.deepcopy(cell)
            origin[where] = (key, path)
    return merged


def lit_shards_of_one_cell(kept, cell):
    """Two lit shards (--num-shards N --run-shard K) of the same cell: each
    ran a disjoint share of the cell's tests."""
    shards = set((kept.get("lit_shard") or "").split(",")) | {cell.get("lit_shard") or ""}
    return bool(kept.get("lit_shard")) and bool(cell.get("lit_shard")) and \
        cell["lit_shard"] not in (kept["lit_shard"] or "").split(",") and "" not in shards


def join_lit_shards(kept, cell, kept_path, path):
    """One cell from two lit shards of it: the union of their tests, counts
    and oracle totals; failed if either failed. A test in both is a conflict."""
    names = {t["name"] for t in kept.get("tests", [])}
    both = sorted(names & {t["name"] for t in cell.get("tests", [])})
    if both:
        raise MergeError(f"cell {'/'.join(coordinates(cell))}: lit shards {kept['lit_shard']} "
                         f"({kept_path}) and {cell['lit_shard']} ({path}) both ran {both[0]}")
    joined = copy.deepcopy(kept)
    joined["tests"] = sorted(kept.get("tests", []) + copy.deepcopy(cell.get("tests", [])),
                             key=lambda t: t["name"])
    counts = dict(kept.get("counts", {}))
    for code, count in cell.get("counts", {}).items():
        counts[code] = counts.get(code, 0) + count
    joined["counts"] = counts
    for field in ("ran", "sites_verified", "args_verified", "elapsed"):
        joined[field] = kept.get(field, 0) + cell.get(field, 0)
    for field in ("cell_failures", "lit_warnings", "failures"):
        joined[field] = kept.get(field, []) + cell.get(field, [])
    joined["ok"] = cell_ok(kept) and cell_ok(cell)
    joined["status"] = "ok" if kept.get("status") == cell.get("status") == "ok" else "failed"
    joined["lit_shard"] = f"{kept['lit_shard']},{cell['lit_shard']}"
    return joined


def origin_of(origin, key):
    return next(path for kept_key, path in origin.values() if kept_key == key)


# ------------------------------------------------------------ top level

def same_commit(shards):
    """The shards' common source state; MergeError when commits differ."""
    commits = {}
    for path, document in shards:
        commit = (document.get("source") or {}).get("commit")
        commits.setdefault(commit, []).append(path)
    if len(commits) > 1:
        listing = "; ".join(f"{commit or 'unknown commit'}: {', '.join(paths)}"
                            for commit, paths in commits.items())
        raise MergeError(f"the shards ran from different commits ({listing}); "
                         "merge only the results of one commit")
    commit = next(iter(commits))
    return {"commit": commit,
            "dirty": any((d.get("source") or {}).get("dirty") for _, d in shards)}


def merged_value(values):
    """One value for a field the shards report each: itself when they agree,
    else the distinct values joined (strings), so that a report shows them."""
    distinct = []
    for value in values:
        if value not in distinct:
            distinct.append(value)
    if len(distinct) == 1:
        return distinct[0]
    present = [v for v in distinct if v is not None]
    if len(present) == 1:
        return present[0]
    return VALUE_SEPARATOR.join(str(v) for v in present)


def merge_tools(shards):
    """Tool versions: scalars via merged_value, compilers and emulators by name."""
    tools = {}
    documents = [d.get("tools") or {} for _, d in shards]
    for name in unique(name for tools_of in documents for name in tools_of):
        values = [tools_of[name] for tools_of in documents if name in tools_of]
        if all(isinstance(v, dict) for v in values):
            keys = unique(k for v in values for k in v)
            tools[name] = {k: merged_value([v[k] for v in values if k in v]) for k in keys}
        else:
            tools[name] = merged_value(values)
    return tools


def merge_implementations(shards):
    implementations = {}
    for path, document in shards:
        for name, description in (document.get("implementations") or {}).items():
            if name in implementations and implementations[name][0] != description:
                raise MergeError(
                    f"implementation {name} is described differently in "
                    f"{implementations[name][1]} and {path} "
                    f"({first_difference(implementations[name][0], description)})")
            implementations.setdefault(name, (description, path))
    return {name: description for name, (description, _) in implementations.items()}


def unique(items):
    return list(dict.fromkeys(items))


def known_bug_catalog(cells, implementations):
    """(catalog, problems) over the merged cells, as ci/matrix.py computes
    them for one run: a known bug not hit in one shard may be hit in another.
    Imported here, not at the top: the cell modules need conformance/impls,
    which results without implementations do not."""
    if not implementations:
        return {}, []
    import known_bugs
    impls = [dict(description, name=name) for name, description in implementations.items()]
    return known_bugs.catalog_summary(cells, impls)


def cell_ok(cell):
    return bool(cell.get("ok", cell.get("status") == "ok"))


def merge(shards):
    """The merged results document of [(path, document)]; MergeError if the
    shards cannot be merged."""
    if not shards:
        raise MergeError("no results to merge")
    source = same_commit(shards)
    cells = merge_cells(shards)
    implementations = merge_implementations(shards)
    catalog, problems = known_bug_catalog(cells, implementations)
    walls = [d.get("wall_seconds") or 0.0 for _, d in shards]
    starts = [d["started_at"] for _, d in shards if d.get("started_at")]
    hosts = [d.get("host") or {} for _, d in shards]
    options = [d.get("options") or {} for _, d in shards]
    document = {
        "schema": 2,
        "generator": "ci/merge-results.py",
        "ok": all(cell_ok(c) for c in cells.values()) and not problems,
        "started_at": min(starts) if starts else None,
        "wall_seconds": round(sum(walls), 1),
        "wall_seconds_max": round(max(walls), 1),
        "host": {key: merged_value([h.get(key) for h in hosts])
                 for key in unique(k for h in hosts for k in h)},
        "source": source,
        "options": {key: merged_value([o.get(key) for o in options])
                    for key in unique(k for o in options for k in o if k != "toolchains")},
        "tools": merge_tools(shards),
        "cells": cells,
        "shards": [{"path": path, "ok": d.get("ok"), "started_at": d.get("started_at"),
                    "wall_seconds": d.get("wall_seconds"), "cells": len(d["cells"]),
                    "toolchains": (d.get("options") or {}).get("toolchains")}
                   for path, d in shards],
    }
    document["options"]["toolchains"] = unique(
        name for o in options for name in (o.get("toolchains") or []))
    if implementations:
        document["implementations"] = implementations
        document["catalog"] = catalog
        document["catalog_problems"] = problems
    return document


# -------------------------------------------------------------------- CLI

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", required=True, help="merged results.json to write")
    parser.add_argument("results", nargs="+", help="results.json of each shard")
    args = parser.parse_args(argv)
    try:
        shards = [(path, load_results(path)) for path in args.results]
        document = merge(shards)
    except (ResultsError, MergeError) as error:
        print(f"merge-results: {error}", file=sys.stderr)
        return 2
    output = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    written = [output] + report.write_reports(document, os.path.dirname(output))
    failed = sum(1 for c in document["cells"].values() if not cell_ok(c))
    print(f"merged {len(shards)} results: {len(document['cells'])} cells, {failed} not ok"
          + (f", {len(document.get('catalog_problems', []))} catalog problems"
             if document.get("catalog_problems") else ""))
    print("wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
