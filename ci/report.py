#!/usr/bin/env python3
"""Writes report.md and report.html from a results.json (schema 2).

The matrix is implementation x arch x compiler (rows) by link mode x opt
level (columns): green cells passed, red ones failed, grey ones are MISSING
(the toolchain or emulator is not installed; the package is named) or n/a
(the run did not have that cell). Below it: totals, then every failure with
its detail: probe, arg, spec, expected and actual value, or the error line.
Then where the time went: setup, build, run and check seconds summed over the
cells that ran, the slowest cells and the slowest tests.

report.html is self-contained (inline CSS, no scripts, no external assets):
it can be attached to a CI run and opened anywhere. Both are laid out by the
Jinja2 templates in ci/templates/ (Debian's python3-jinja2); this file
computes what they show.

    python3 ci/report.py build/matrix/results.json [--out-dir DIR]

ci/matrix.py calls write_reports() at the end of every run.
"""
import argparse
import functools
import itertools
import json
import os
import sys

import jinja2

from results_file import (BAD_CODES, GOOD_CODES, NOT_APPLICABLE_CODES, ResultsError,
                          column_key, column_sort_key, failing_tests, load_results,
                          row_key, row_sort_key)

# A toolchain that breaks every test would otherwise produce a report of
# thousands of entries; results.json keeps them all.
MAX_FAILURES_PER_CELL = 30
# The slowest cells and tests listed under "Where the time goes".
MAX_SLOWEST = 10
CODE_ORDER = ["PASS", "XFAIL", "FAIL", "XPASS", "UNRESOLVED", "TIMEOUT", "UNSUPPORTED"]


# ---------------------------------------------------------------- the model

def build_matrix(document):
    """Returns (rows, columns, grid): grid[(row, column)] -> cell or None."""
    cells = document["cells"]
    # The subject implementation first, then the references beside it.
    roles = {c["implementation"]: c.get("role") for c in cells.values()}
    rows = sorted({row_key(c) for c in cells.values()},
                  key=lambda row: (roles.get(row[0]) == "reference", row_sort_key(row)))
    columns = sorted({column_key(c) for c in cells.values()}, key=column_sort_key)
    grid = {}
    for key, cell in cells.items():
        grid[(row_key(cell), column_key(cell))] = dict(cell, key=key)
    return rows, columns, grid


def cell_state(cell):
    """"ok", "failed", "finding" (a reference implementation's failing cell:
    side-by-side evidence, not a failure of the run), "missing" or "n/a"
    (the run has no such cell)."""
    if cell is None:
        return "n/a"
    state = cell["status"] if cell["status"] in ("ok", "failed", "missing") else "failed"
    if state == "failed" and cell.get("role") == "reference":
        return "finding"
    return state


def passed_count(cell):
    counts = cell.get("counts", {})
    return sum(counts.get(code, 0) for code in GOOD_CODES)


def not_applicable_count(cell):
    counts = cell.get("counts", {})
    return sum(counts.get(code, 0) for code in NOT_APPLICABLE_CODES)


def cell_text(cell):
    """(main, note) of a matrix cell: ("3/3", "+1 n/a"), ("2 failed", "1/3 +1 n/a"),
    ("MISSING", ""), ("n/a", "")."""
    state = cell_state(cell)
    if state in ("n/a", "missing"):
        return ("n/a" if state == "n/a" else "MISSING"), ""
    passed = f"{passed_count(cell)}/{cell.get('ran', 0)}"
    not_applicable = (f"+{not_applicable_count(cell)} n/a"
                      if not_applicable_count(cell) else "")
    if state == "ok":
        return passed, not_applicable
    if cell.get("cached"):
        not_applicable = (not_applicable + " cached").strip()
    bad_tests = sum(1 for t in cell.get("tests", []) if t["code"] in BAD_CODES)
    # A cell can fail with every test passing: the oracle verified 0 args.
    main = f"{bad_tests} failed" if bad_tests else "cell check failed"
    return main, f"{passed} {not_applicable}".strip()


def group_failures(failures):
    """[(failure, [test names])]: failures with the same code and detail (e.g.
    every test of a cell failing to link the same missing library) once."""
    groups = {}
    for failure in failures:
        detail = failure.get("detail") or {}
        key = (failure["code"], detail.get("summary", ""), tuple(detail.get("lines", [])),
               repr(detail.get("findings", [])))
        groups.setdefault(key, (failure, []))[1].append(failure["name"])
    return list(groups.values())


def names_text(names, limit=12):
    text = ", ".join(names[:limit])
    return text + (f" and {len(names) - limit} more" if len(names) > limit else "")


def totals(document):
    cells = document["cells"].values()
    by_state = {"ok": 0, "failed": 0, "finding": 0, "missing": 0}
    by_code = {}
    sites = args = 0
    for cell in cells:
        by_state[cell_state(cell)] = by_state.get(cell_state(cell), 0) + 1
        for test in cell.get("tests", []):
            by_code[test["code"]] = by_code.get(test["code"], 0) + 1
        sites += cell.get("sites_verified", 0)
        args += cell.get("args_verified", 0)
    codes = sorted(by_code, key=lambda c: (CODE_ORDER.index(c) if c in CODE_ORDER
                                           else len(CODE_ORDER), c))
    return {"cells": len(document["cells"]), "by_state": by_state,
            "by_code": [(code, by_code[code]) for code in codes],
            "sites_verified": sites, "args_verified": args}


def missing_toolchains(document):
    """{(implementation, arch, compiler): (missing tools, packages)}."""
    found = {}
    for cell in document["cells"].values():
        if cell["status"] == "missing":
            found[row_key(cell)] = (cell.get("missing", []), cell.get("packages", ""))
    return dict(sorted(found.items(), key=lambda item: row_sort_key(item[0])))


def failed_cells(document):
    """[(key, cell, failures)] in matrix order."""
    result = []
    for key, cell in document["cells"].items():
        failures = failing_tests(cell)
        if cell["status"] == "failed" or failures:
            result.append((key, cell, failures))
    # The subject's failures first, then the reference implementations' findings.
    result.sort(key=lambda item: (cell_state(item[1]) == "finding",
                                  row_sort_key(row_key(item[1])),
                                  column_sort_key(column_key(item[1]))))
    return result


def row_label(row, grid, columns):
    implementation, arch, compiler = row
    versions = {grid[(row, c)].get("compiler_version") for c in columns
                if grid.get((row, c)) is not None}
    versions.discard(None)
    version = f" ({', '.join(sorted(versions))})" if versions else ""
    return implementation, arch, f"{compiler}{version}"


def column_label(column):
    link, opt = column
    return link, opt.lstrip("-")


def finding_columns(finding):
    """(probe, arg, spec, expected, actual) for the findings table."""
    if finding.get("kind") == "value mismatch":
        expected, actual = finding.get("expected", ""), finding.get("got", "")
    else:
        expected, actual = "portable spec", finding.get("problem", "")
    return (finding.get("probe", ""), f"arg{finding.get('arg', '?')}",
            finding.get("spec", ""), expected, actual)


def run_facts(document):
    """[(label, value)] about the run: time, source, tools."""
    facts = []
    wall = document.get("wall_seconds")
    if wall is not None:
        facts.append(("wall time", f"{wall:.0f} s ({wall / 60:.1f} min)"))
    if document.get("started_at"):
        facts.append(("started", document["started_at"]))
    host = document.get("host") or {}
    if host:
        facts.append(("host", f"{host.get('machine', '?')}, {host.get('cpus', '?')} CPUs"))
    source = document.get("source") or {}
    if source.get("commit"):
        facts.append(("source", source["commit"][:12] + (" (with local changes)"
                                                          if source.get("dirty") else "")))
    options = document.get("options") or {}
    if options.get("filter"):
        facts.append(("lit --filter", options["filter"]))
    if options.get("slice"):
        facts.append(("tests per cell", options["slice"]))
    tools = document.get("tools") or {}
    for name in ("lit", "FileCheck", "readelf", "python"):
        if tools.get(name):
            facts.append((name, tools[name]))
    for name, version in sorted((tools.get("compilers") or {}).items()):
        facts.append((name, version or "not installed"))
    for name, version in sorted((tools.get("emulators") or {}).items()):
        facts.append((name, version or "not installed"))
    return facts


def catalog_rows(document):
    """[(test, [(implementation, text, css)])] of the known-bug catalog: per
    implementation, the cells that hit the bug (failed its test) out of the
    cells that ran it."""
    catalog = document.get("catalog") or {}
    names = sorted(catalog, key=lambda n: (
        (document.get("implementations") or {}).get(n, {}).get("role") != "subject", n))
    tests = sorted({t for entries in catalog.values() for t in entries})
    rows = []
    for test in tests:
        row = []
        for name in names:
            entry = catalog[name].get(test)
            ran = len(entry["hit"]) + len(entry["passed"]) if entry else 0
            if not ran:
                row.append((name, "n/a", "na"))
            elif entry["hit"]:
                cells = [short_cell(k, name) for k in entry["hit"]]
                row.append((name, f"HIT in {len(entry['hit'])}/{ran}: {names_text(cells, 8)}",
                            "failed"))
            else:
                row.append((name, f"not hit (passed {ran}/{ran})", "ok"))
        rows.append((test, row))
    return names, rows


def consumer_text(entry):
    """One consumer's outcome in one cell, as the consumer table shows it."""
    status = entry.get("status")
    ran = entry.get("passed", 0) + entry.get("failed", 0)
    if status == "missing":
        return f"MISSING ({entry.get('missing', '')})"
    if status == "failed":
        return f"FAIL {entry['passed']}/{ran}"
    if status == "limit":
        parts = []
        if entry.get("limit"):
            parts.append(f"{entry['limit']} expected failures")
        if entry.get("known_limits"):
            parts.append(f"{entry['known_limits']} readings at its known limits")
        return f"limit ({', '.join(parts)})" + (f", {entry['passed']}/{ran}" if ran else "")
    if status == "n/a":
        return f"n/a ({entry.get('not_applicable_reason', '')})"
    if status == "ok":
        return f"ok {entry['passed']}/{ran}"
    return "n/a"


def consumer_rows(document, live=False):
    """(consumer names, [(cell key, [text per consumer])]) for the cells
    whose results carry a consumer summary (ci/matrix.py): the consumers
    that read the files or run the program under themselves, or with live,
    those that trace it through the kernel."""
    cells = document["cells"]
    names = sorted({n for c in cells.values() for n, entry in (c.get("consumers") or {}).items()
                    if bool(entry.get("live")) == live})
    rows = []
    for key in sorted(cells, key=lambda k: (cells[k].get("role") == "reference", k)):
        summary = cells[key].get("consumers") or {}
        # The live part lists only the cells the kernel runs (the others
        # are n/a in every column).
        if summary and (not live or any(summary.get(n, {}).get("status") != "n/a"
                                         for n in names)):
            rows.append((key, [consumer_text(summary[n]) if n in summary else "n/a"
                               for n in names]))
    return names, rows


def short_cell(key, implementation):
    """"sys-sdt.<arch>.gcc-12.O2.pie" -> "<arch>.gcc-12.O2.pie"."""
    prefix = implementation + "."
    return key[len(prefix):] if key.startswith(prefix) else key


def implementation_lines(document):
    """One sentence per implementation: its role and what it provides."""
    lines = []
    for name, impl in sorted((document.get("implementations") or {}).items(),
                             key=lambda item: (item[1].get("role") != "subject", item[0])):
        role = ("subject: every failure fails the run" if impl.get("role") == "subject" else
                "reference: run side by side; its failures are findings (amber), only a "
                "known bug that stops reproducing fails the run")
        features = ", ".join(impl.get("features") or []) or "none of xsdt's extras"
        lines.append(f"{name} ({role}; provides: {features})")
    return lines


# ------------------------------------------------------ where the time goes
#
# A cell's "phases" (ci/matrix.py cell_phases): setup is lit's configuration;
# build, run and check are summed over the cell's tests, which lit runs side
# by side, so they add up to "tests" (the sum of the test times), not to the
# cell's wall time ("elapsed"). A cached cell's phases are those of the run
# that produced it: it took no time now. Missing cells and results written
# before phases existed have none.

PHASE_COLUMNS = ("setup", "build", "run", "check", "tests")


def seconds_text(value):
    """12.345 -> "12.3"; None -> "" (a blank table cell)."""
    return "" if value is None else f"{value:.1f}"


def phase_counts(phases):
    """(compiled, cached builds, programs ran, runs replayed) of a cell's phases."""
    counts = (phases or {}).get("counts") or {}
    return tuple(counts.get(k, 0) for k in
                 ("build:compiled", "build:cached", "run:ran", "run:replayed"))


def has_phases(document):
    return any(cell.get("phases") for cell in document["cells"].values())


def cells_run_now(document):
    """[(key, cell)] of the cells that ran in this run: they have phases and
    were not reused from the cell cache."""
    return [(key, cell) for key, cell in document["cells"].items()
            if cell.get("phases") and not cell.get("cached")]


def time_summary(document):
    """The one line over the cells that ran: their number, the run's wall time,
    the summed phases and tests, the builds and program runs. Without phases
    in any cell (an older results.json), the line that says so."""
    if not has_phases(document):
        return ("No phase times in this results.json (written before ci/matrix.py "
                "recorded them): re-run the matrix to see where the time goes.")
    ran = cells_run_now(document)
    cached = sum(1 for cell in document["cells"].values() if cell.get("cached"))
    sums = {phase: sum(cell["phases"].get(phase) or 0.0 for _, cell in ran)
            for phase in PHASE_COLUMNS}
    compiled = cached_builds = programs = replayed = 0
    for _, cell in ran:
        counts = phase_counts(cell["phases"])
        compiled += counts[0]
        cached_builds += counts[1]
        programs += counts[2]
        replayed += counts[3]
    wall = document.get("wall_seconds")
    floor = sums["build"] + sums["run"]
    spent = sums["setup"] + sums["tests"]
    text = f"{len(ran)} cells ran"
    if cached:
        text += f" ({cached} cached, not counted)"
    if wall is not None:
        text += f" in {seconds_text(wall)} s wall time"
    return (text + f": setup {seconds_text(sums['setup'])} s; "
            f"tests {seconds_text(sums['tests'])} s (summed, lit runs them side by side): "
            f"build {seconds_text(sums['build'])} s, run {seconds_text(sums['run'])} s, "
            f"check {seconds_text(sums['check'])} s; "
            f"builds: {compiled} compiled, {cached_builds} cached; "
            f"programs: {programs} ran, {replayed} replayed. "
            f"The floor (the compiles and program runs alone) is {seconds_text(floor)} s of "
            f"{seconds_text(spent)} s in setup and tests: "
            f"{seconds_text(spent - floor)} s over the floor, {floor_ratio(spent, floor)} it."
            + processes_text(ran))


def floor_ratio(spent, floor):
    """"1.64x" (spent over floor), or "n/a" without a floor."""
    return f"{spent / floor:.2f}x" if floor > 0 else "n/a"


def processes_text(ran):
    """" Processes: 1814 started, 6.7 per test that ran." over the cells
    that counted them (ci/matrix.py: perf's exec count), and how many
    could not."""
    counted = [cell["phases"] for _, cell in ran if "processes" in cell["phases"]]
    uncounted = sum(1 for _, cell in ran if "processes_missing" in cell["phases"])
    if not counted and not uncounted:
        return ""
    text = ""
    if counted:
        started = sum(p["processes"] for p in counted)
        tests = sum(cell.get("ran") or 0 for _, cell in ran if "processes" in cell["phases"])
        per_test = f", {started / tests:.1f} per test that ran" if tests else ""
        text = f" Processes: {started} started{per_test}"
        text += f" ({len(counted)} cells)" if uncounted else ""
    if uncounted:
        text += (";" if text else " Processes:") + f" not counted in {uncounted} cells"
    return text + "."


def slowest_cells(document, limit=MAX_SLOWEST):
    """[(key, [wall, setup, build, run, check, tests, compiled/cached,
    ran/replayed])] as text, slowest first by wall time; cached cells left
    out (they did not run now)."""
    ran = sorted(cells_run_now(document),
                 key=lambda item: (-(item[1].get("elapsed") or 0.0), item[0]))
    rows = []
    for key, cell in ran[:limit]:
        phases = cell["phases"]
        compiled, cached_builds, programs, replayed = phase_counts(phases)
        floor = (phases.get("build") or 0.0) + (phases.get("run") or 0.0)
        spent = (phases.get("setup") or 0.0) + (phases.get("tests") or 0.0)
        per_test = phases.get("processes_per_test")
        rows.append((key, [seconds_text(cell.get("elapsed"))]
                     + [seconds_text(phases.get(phase)) for phase in PHASE_COLUMNS]
                     + [seconds_text(floor), floor_ratio(spent, floor),
                        "" if per_test is None else f"{per_test:.1f}",
                        f"{compiled}/{cached_builds}", f"{programs}/{replayed}"]))
    return rows


def slowest_tests(document, limit=MAX_SLOWEST):
    """[(test name, cell label, [elapsed, build, run, check])] as text, the
    slowest tests of every cell first. build and run are blank where the test
    had none; check is the rest of its time. A cached cell's tests are
    labelled so: their times are from the run that produced the cell."""
    tests = []
    for key, cell in document["cells"].items():
        for test in cell.get("tests", []):
            tests.append((test.get("elapsed") or 0.0, key, cell, test))
    tests.sort(key=lambda item: (-item[0], item[3]["name"], item[1]))
    rows = []
    for elapsed, key, cell, test in tests[:limit]:
        build, run = test.get("build"), test.get("run")
        check = max(0.0, elapsed - (build or 0.0) - (run or 0.0))
        rows.append((test["name"], key + (" (cached)" if cell.get("cached") else ""),
                     [seconds_text(v) for v in (elapsed, build, run, check)]))
    return rows


# ------------------------------------------------------------ the templates
#
# report_context() gathers what every section holds; ci/templates/ lays it
# out: report.md.j2 as Markdown, report.html.j2 as HTML with report.css in
# its <style>.

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")

CELL_TIME_HEADER = ["cell", "wall s", "setup", "build", "run", "check", "tests",
                    "floor", "x floor", "processes/test",
                    "compiled/cached builds", "ran/replayed runs"]
TEST_TIME_HEADER = ["test", "cell", "elapsed", "build", "run", "check"]
# A consumer's outcome (the first word of consumer_text) -> the colour of its cell.
CONSUMER_CSS = {"ok": "ok", "FAIL": "failed", "limit": "finding", "MISSING": "missing"}


def md_escape(text):
    """Text for a Markdown table cell or list item: a "|" would end the cell,
    a newline the row."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def anchor(cell_key):
    return "cell-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in cell_key)


@functools.lru_cache(maxsize=None)
def template_environment():
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        # The HTML only: Markdown shows a "<" as it is, escaping it would
        # print "&lt;" in a code span.
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",),
                                            default_for_string=False),
        # A misspelt field fails the report instead of leaving a blank.
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    environment.filters["md"] = md_escape
    return environment


def link_spans(columns):
    """[(link mode, number of its columns)]: the HTML matrix's first header
    row over the opt levels (columns are in link mode order)."""
    return [(link, len(list(group)))
            for link, group in itertools.groupby(columns, key=lambda column: column[0])]


def matrix_cell(cell):
    """One matrix cell: its state ("n/a" has the CSS class "na"), its text and
    note (cell_text), the failure section it links to, the missing tools."""
    state = cell_state(cell)
    main, note = cell_text(cell)
    linked = state in ("failed", "finding")
    missing = state == "missing"
    return {"state": state, "css": "na" if state == "n/a" else state,
            "main": main, "note": note, "link": anchor(cell["key"]) if linked else None,
            "tools": ", ".join(cell.get("missing", [])) if missing else "",
            "packages": cell.get("packages", "") if missing else ""}


def consumer_table(document, live=False):
    """consumer_rows with each outcome's colour: {"names", "rows": [(cell
    key, [{"text", "css"}])]}."""
    names, rows = consumer_rows(document, live)
    return {"names": names,
            "rows": [(key, [{"text": text, "css": CONSUMER_CSS.get(text.split()[0], "na")}
                            for text in texts]) for key, texts in rows]}


def catalog_table(document):
    """catalog_rows as {"names", "rows": [(test, [{"text", "css"}])]}."""
    names, rows = catalog_rows(document)
    return {"names": names,
            "rows": [(test, [{"text": text, "css": css} for _, text, css in row])
                     for test, row in rows]}


def failure_view(failure, names):
    """One failure of a cell, standing for every test in names (group_failures)."""
    detail = failure.get("detail") or {}
    return {"code": failure["code"], "names": names, "names_text": names_text(names),
            "summary": detail.get("summary", ""),
            "findings": [finding_columns(finding) for finding in detail.get("findings", [])],
            # The summary is already said above the lines.
            "lines": [line for line in detail.get("lines", []) if line != detail.get("summary")]}


def failure_sections(document):
    """[{"heading", "cells"}]: "Failures" (the subject's), then "Findings
    (reference implementations)"; each cell with its failures grouped, at
    most MAX_FAILURES_PER_CELL of them, and how many more there are."""
    sections = []
    for key, cell, failures in failed_cells(document):
        heading = ("Findings (reference implementations)" if cell_state(cell) == "finding"
                   else "Failures")
        if not sections or sections[-1]["heading"] != heading:
            sections.append({"heading": heading, "cells": []})
        groups = group_failures(failures)
        sections[-1]["cells"].append({
            "key": key, "anchor": anchor(key), "compiler": cell.get("compiler", ""),
            "compiler_version": cell.get("compiler_version") or "",
            "opt": cell.get("opt", ""), "link": cell.get("link", ""),
            "lit_warnings": cell.get("lit_warnings") or [],
            "failures": [failure_view(failure, names)
                         for failure, names in groups[:MAX_FAILURES_PER_CELL]],
            "more": max(0, len(groups) - MAX_FAILURES_PER_CELL)})
    return sections


def time_section(document):
    """"Where the time goes": the summary line, then the slowest cells and
    tests, which an older results.json without phases does not list."""
    phases = has_phases(document)
    return {"summary": time_summary(document), "max_slowest": MAX_SLOWEST,
            "cell_header": CELL_TIME_HEADER, "cells": slowest_cells(document) if phases else [],
            "test_header": TEST_TIME_HEADER, "tests": slowest_tests(document) if phases else []}


def gate_section(gate):
    """ci/toolchain-gate's report parts (this matrix is its candidate); each
    section also by its name, the title up to its colon."""
    parts = gate["report"]
    return {"title": "Toolchain gate: " + ("PASS" if parts["passed"] else "FAIL"),
            "passed": parts["passed"], "verdict": parts["verdict"],
            "header": parts["header"], "notes": parts["notes"],
            "sections": [dict(section, name=section["title"].split(":")[0])
                         for section in parts["sections"]]}


def report_context(document, gate=None):
    """Everything both templates show, in the order they show it."""
    rows, columns, grid = build_matrix(document)
    return {
        "ok": bool(document.get("ok")), "totals": totals(document),
        "wall_seconds": document.get("wall_seconds"),
        "catalog_problems": document.get("catalog_problems") or [],
        "implementation_lines": implementation_lines(document),
        "columns": [column_label(column) for column in columns],
        "link_spans": link_spans(columns),
        "matrix_rows": [(row_label(row, grid, columns),
                         [matrix_cell(grid.get((row, column))) for column in columns])
                        for row in rows],
        "gate": gate_section(gate) if gate else None,
        "consumers": consumer_table(document),
        "live_consumers": consumer_table(document, live=True),
        "catalog": catalog_table(document),
        "missing_toolchains": [
            {"implementation": implementation, "arch": arch, "compiler": compiler,
             "tools": tools, "packages": packages}
            for (implementation, arch, compiler), (tools, packages)
            in missing_toolchains(document).items()],
        "failure_sections": failure_sections(document),
        "time": time_section(document),
        "run_facts": run_facts(document),
    }


def render_markdown(document, gate=None):
    """report.md; gate: ci/toolchain-gate's JSON when document is its candidate."""
    return template_environment().get_template("report.md.j2").render(
        report_context(document, gate))


def render_html(document, gate=None):
    """report.html, self-contained; gate as for render_markdown."""
    return template_environment().get_template("report.html.j2").render(
        report_context(document, gate))


# ------------------------------------------------------------------- output

def write_reports(document, out_dir, gate=None):
    """Writes report.md and report.html into out_dir; returns their paths.
    gate: ci/toolchain-gate's JSON when document is its candidate."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for name, render in (("report.md", render_markdown), ("report.html", render_html)):
        path = os.path.join(out_dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render(document, gate))
        paths.append(path)
    return paths


def load_gate(path):
    try:
        with open(path, encoding="utf-8") as f:
            gate = json.load(f)
    except (OSError, ValueError) as error:
        raise ResultsError(f"cannot read the gate's JSON {path}: {error}")
    if not isinstance(gate, dict) or not isinstance(gate.get("report"), dict):
        raise ResultsError(f"{path}: not ci/toolchain-gate --json output (no \"report\")")
    return gate


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", help="results.json written by ci/matrix.py")
    parser.add_argument("--out-dir", help="where to write report.md and report.html "
                        "(default: beside results.json)")
    parser.add_argument("--gate", metavar="GATE.json", help="ci/toolchain-gate --json "
                        "output whose candidate RESULTS is: its table beside the matrix")
    args = parser.parse_args(argv)
    try:
        document = load_results(args.results)
        gate = None
        if args.gate:
            gate = load_gate(args.gate)
    except ResultsError as error:
        print(f"report: {error}", file=sys.stderr)
        return 2
    out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.results))
    for path in write_reports(document, out_dir, gate):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
