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
it can be attached to a CI run and opened anywhere.

    python3 ci/report.py build/matrix/results.json [--out-dir DIR]

ci/matrix.py calls write_reports() at the end of every run.
"""
import argparse
import html
import json
import os
import sys

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


# ----------------------------------------------------------------- Markdown

def md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(document, gate=None):
    rows, columns, grid = build_matrix(document)
    total = totals(document)
    out = ["# xsdt conformance report", ""]
    verdict = "PASSED" if document.get("ok") else "FAILED"
    out.append(f"**{verdict}**: {total['by_state']['ok']} of {total['cells']} cells passed, "
               f"{total['by_state']['failed']} failed, {total['by_state']['finding']} with "
               f"findings (reference implementations), {total['by_state']['missing']} missing.")
    out.append("")
    for problem in document.get("catalog_problems") or []:
        out.append(f"- **CATALOG FAILURE**: {md_escape(problem)}")
    for line in implementation_lines(document):
        out.append(f"- {md_escape(line)}")
    out.append("")
    out.append("Cells: passed/ran lit tests; `+N n/a` tests do not apply to the cell "
               "and are not counted; MISSING: the toolchain or emulator is not installed.")
    out.append("")
    header = ["implementation", "arch", "compiler"] + [
        f"{opt} {link}" for link, opt in map(column_label, columns)]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    for row in rows:
        line = list(row_label(row, grid, columns))
        for column in columns:
            cell = grid.get((row, column))
            main, note = cell_text(cell)
            note = f" ({note})" if note else ""
            if cell_state(cell) == "failed":
                line.append(f"**FAIL** [{main}](#{anchor(cell['key'])}){note}")
            elif cell_state(cell) == "finding":
                line.append(f"findings: [{main}](#{anchor(cell['key'])}){note}")
            elif cell_state(cell) == "ok":
                line.append(f"ok {main}{note}")
            else:
                line.append(main)
        out.append("| " + " | ".join(line) + " |")
    if gate:
        out += [""] + render_markdown_gate(gate)
    consumer_names, consumer_table = consumer_rows(document)
    if consumer_table:
        out += ["", "## Consumers", "",
                "What real tracers read of each cell's probes (`lit-tests/consumers`), "
                "each value against the source's (gdb) or each argument against its spec "
                "(readelf, bcc, perf, bpftrace, stap): passed/ran; limit: the consumer's own "
                "limit (its tests fail as expected there, or readings its known limits "
                "explain); n/a: the consumer does not read this arch; MISSING: not "
                "installed.", ""]
        out.append("| cell | " + " | ".join(consumer_names) + " |")
        out.append("|---|" + "---|" * len(consumer_names))
        for key, row in consumer_table:
            out.append(f"| {key} | " + " | ".join(md_escape(t) for t in row) + " |")
    live_names, live_table = consumer_rows(document, live=True)
    if live_table:
        out += ["", "## Consumers, live", "",
                "Real tracers attached through this machine's kernel (uprobes) while each "
                "program runs natively (`lit-tests/consumers/live-*`): the program must "
                "exit 0 while traced and every value printed must be the source's; "
                "passed/ran; limit: readings the tracer's own limits explain; MISSING: "
                "the tracer is not installed or cannot attach here (not root, no "
                "tracefs); n/a: the kernel does not run the cell's programs.", ""]
        out.append("| cell | " + " | ".join(live_names) + " |")
        out.append("|---|" + "---|" * len(live_names))
        for key, row in live_table:
            out.append(f"| {key} | " + " | ".join(md_escape(t) for t in row) + " |")
    names, catalog = catalog_rows(document)
    if catalog:
        out += ["", "## Known-bug catalog", "",
                "A catalog test fails where the implementation has the bug (HIT).", ""]
        out.append("| test | " + " | ".join(names) + " |")
        out.append("|---|" + "---|" * len(names))
        for test, row in catalog:
            out.append(f"| `{test}` | " + " | ".join(md_escape(t) for _, t, _ in row) + " |")
    out += ["", "## Totals", ""]
    out.append("| outcome | tests |")
    out.append("|---|---|")
    for code, count in total["by_code"]:
        out.append(f"| {code} | {count} |")
    out.append("")
    out.append(f"Value oracle: {total['sites_verified']} sites and "
               f"{total['args_verified']} arguments verified.")
    missing = missing_toolchains(document)
    if missing:
        out += ["", "## Missing toolchains", ""]
        for (implementation, arch, compiler), (tools, packages) in missing.items():
            out.append(f"- {implementation} {arch} {compiler}: {', '.join(tools)} not found; "
                       f"install `{packages}` (toolchains/install-deps.sh)")
    failed = failed_cells(document)
    heading = None
    for key, cell, failures in failed:
        wanted = ("## Findings (reference implementations)" if cell_state(cell) == "finding"
                  else "## Failures")
        if heading != wanted:
            out += ["", wanted, ""]
            heading = wanted
        out.append(f"### <a id=\"{anchor(key)}\"></a>{key}")
        out.append("")
        if cell.get("compiler_version"):
            out.append(f"{cell['compiler']} {cell['compiler_version']}, "
                       f"{cell['opt']} {cell['link']}")
            out.append("")
        for warning in cell.get("lit_warnings", []):
            out.append(f"- lit: {md_escape(warning)}")
        groups = group_failures(failures)
        for failure, names in groups[:MAX_FAILURES_PER_CELL]:
            detail = failure.get("detail") or {}
            who = (f"`{failure['name']}`" if len(names) == 1
                   else f"{len(names)} tests ({names_text(names)})")
            out.append(f"- **{failure['code']}** {who}: "
                       f"{md_escape(detail.get('summary', ''))}")
            findings = detail.get("findings", [])
            if findings:
                out.append("")
                out.append("  | probe | arg | spec | expected | actual |")
                out.append("  |---|---|---|---|---|")
                for finding in findings:
                    out.append("  | " + " | ".join(f"`{md_escape(v)}`" if v else ""
                                                    for v in finding_columns(finding)) + " |")
            lines = [l for l in detail.get("lines", []) if l != detail.get("summary")]
            if lines:
                out.append("")
                out.append("  ```")
                out += [f"  {line}" for line in lines]
                out.append("  ```")
            if findings or lines:
                out.append("")
        if len(groups) > MAX_FAILURES_PER_CELL:
            out.append(f"- ... and {len(groups) - MAX_FAILURES_PER_CELL} more failures "
                       "(all of them are in results.json)")
        out.append("")
    out += render_markdown_time(document)
    out += ["## Run", ""]
    for label, value in run_facts(document):
        out.append(f"- {label}: `{value}`")
    out.append("")
    return "\n".join(out)


CELL_TIME_HEADER = ["cell", "wall s", "setup", "build", "run", "check", "tests",
                    "floor", "x floor", "processes/test",
                    "compiled/cached builds", "ran/replayed runs"]
TEST_TIME_HEADER = ["test", "cell", "elapsed", "build", "run", "check"]


def gate_title(gate):
    return "Toolchain gate: " + ("PASS" if gate["report"]["passed"] else "FAIL")


def render_markdown_gate(gate):
    """The toolchain gate's table (ci/toolchain-gate --report-dir), as lines:
    this matrix is its candidate."""
    parts = gate["report"]
    out = [f"## {gate_title(gate)}", "", f"**{md_escape(parts['verdict'])}**", ""]
    out += [f"- {md_escape(line)}" for line in parts["header"]]
    out += ["", "| change | tests |", "|---|---|"]
    out += [f"| {md_escape(s['title'])} | {s['count']} |" for s in parts["sections"]]
    out.append("")
    for section in parts["sections"]:
        if section["lines"]:
            out += [f"{md_escape(section['title'].split(':')[0])}:", "", "```"]
            out += section["lines"] + ["```", ""]
    out += [f"- {md_escape(line)}" for line in parts["notes"]]
    return out


def render_html_gate(gate):
    e = html.escape
    parts = gate["report"]
    out = [f"<h2>{e(gate_title(gate))}</h2>",
           f"<p><span class=\"verdict {'ok' if parts['passed'] else 'failed'}\">"
           f"{e(parts['verdict'])}</span></p>",
           "<ul>" + "".join(f"<li>{e(line)}</li>" for line in parts["header"]) + "</ul>",
           "<table class=\"plain gate\"><tr><th>change</th><th>tests</th></tr>"]
    for section in parts["sections"]:
        out.append(f"<tr><td>{e(section['title'])}</td><td class=\"num\">"
                   f"{section['count']}</td></tr>")
    out.append("</table>")
    for section in parts["sections"]:
        if section["lines"]:
            out.append(f"<p>{e(section['title'].split(':')[0])}:</p>"
                       f"<pre>{e(chr(10).join(section['lines']))}</pre>")
    if parts["notes"]:
        out.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in parts["notes"])
                   + "</ul>")
    return out


def render_markdown_time(document):
    """The "Where the time goes" section, as lines."""
    out = ["## Where the time goes", "", md_escape(time_summary(document)), ""]
    if not has_phases(document):
        return out
    cells = slowest_cells(document)
    if cells:
        out.append(f"Slowest cells that ran (wall seconds; setup, then build, run and check "
                   f"summed over the cell's tests; the floor is build + run, x floor "
                   f"(setup + tests) over it; programs started per test that ran; "
                   f"up to {MAX_SLOWEST}):")
        out.append("")
        out.append("| " + " | ".join(CELL_TIME_HEADER) + " |")
        out.append("|---|" + "--:|" * (len(CELL_TIME_HEADER) - 1))
        for key, values in cells:
            out.append(f"| {md_escape(key)} | " + " | ".join(values) + " |")
        out.append("")
    tests = slowest_tests(document)
    if tests:
        out.append(f"Slowest tests (seconds; check is the rest of the test's time, "
                   f"up to {MAX_SLOWEST}):")
        out.append("")
        out.append("| " + " | ".join(TEST_TIME_HEADER) + " |")
        out.append("|---|---|" + "--:|" * (len(TEST_TIME_HEADER) - 2))
        for name, cell, values in tests:
            out.append(f"| `{md_escape(name)}` | {md_escape(cell)} | " + " | ".join(values) + " |")
        out.append("")
    return out


def anchor(cell_key):
    return "cell-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in cell_key)


# --------------------------------------------------------------------- HTML

CSS = """
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px;
       color: #1d1d1f; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; font-family: ui-monospace, monospace; }
.verdict { font-weight: 700; padding: 2px 8px; border-radius: 4px; }
.verdict.ok { background: #1e7b34; color: #fff; }
.verdict.failed { background: #b3261e; color: #fff; }
table { border-collapse: collapse; }
table.matrix td, table.matrix th { border: 1px solid #c8c8c8; padding: 4px 8px; }
table.matrix th { background: #f3f3f3; font-weight: 600; }
table.matrix td.label { background: #fafafa; white-space: nowrap; }
table.matrix td.cell { text-align: center; white-space: nowrap; font-size: 13px; }
table.matrix td.cell small { font-weight: 400; opacity: 0.8; }
td.ok { background: #cfeed6; color: #0f5223; }
td.failed { background: #f7c6c2; color: #7a1410; font-weight: 600; }
td.failed a { color: inherit; }
td.finding { background: #fde2b8; color: #6b3d00; }
td.finding a { color: inherit; }
td.missing, td.na { background: #e4e4e4; color: #555; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; border-radius: 3px; }
.legend .ok { background: #cfeed6; } .legend .failed { background: #f7c6c2; }
.legend .grey { background: #e4e4e4; } .legend .finding { background: #fde2b8; }
table.catalog td.cell { text-align: left; white-space: normal; max-width: 520px; }
table.plain td, table.plain th { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }
table.plain th { background: #f6f6f6; }
table.plain td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.plain td.name { font-family: ui-monospace, monospace; }
table.findings { margin: 4px 0 6px 0; font-size: 13px; }
table.findings td { font-family: ui-monospace, monospace; }
.failure { margin: 8px 0 14px 0; padding-left: 10px; border-left: 3px solid #b3261e; }
.code { display: inline-block; font-size: 12px; font-weight: 700; padding: 0 6px;
        border-radius: 3px; background: #b3261e; color: #fff; }
.code.XPASS { background: #8a4b00; }
.name { font-family: ui-monospace, monospace; font-weight: 600; }
pre { background: #f6f6f6; padding: 6px 8px; margin: 4px 0; font-size: 12px;
      white-space: pre-wrap; word-break: break-all; }
.muted { color: #666; }
"""


def render_html(document, gate=None):
    e = html.escape
    rows, columns, grid = build_matrix(document)
    total = totals(document)
    ok = bool(document.get("ok"))
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>xsdt conformance report</title>", f"<style>{CSS}</style></head><body>"]
    out.append("<h1>xsdt conformance report</h1>")
    out.append(f"<p><span class=\"verdict {'ok' if ok else 'failed'}\">"
               f"{'PASSED' if ok else 'FAILED'}</span> "
               f"{total['by_state']['ok']} of {total['cells']} cells passed, "
               f"{total['by_state']['failed']} failed, {total['by_state']['finding']} with "
               f"findings (reference), {total['by_state']['missing']} missing"
               + (f" &middot; {document['wall_seconds']:.0f} s"
                  if document.get("wall_seconds") is not None else "") + "</p>")
    out.append("<p class=\"legend\"><span class=\"ok\">ok: passed/ran</span>"
               "<span class=\"failed\">failed</span>"
               "<span class=\"finding\">findings of a reference implementation</span>"
               "<span class=\"grey\">MISSING (not installed) or n/a</span>"
               "<span class=\"muted\">+N n/a: tests that do not apply to the cell, "
               "not counted</span></p>")

    for problem in document.get("catalog_problems") or []:
        out.append(f"<p class=\"verdict failed\">CATALOG FAILURE: {e(problem)}</p>")
    out.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in implementation_lines(document))
               + "</ul>")
    # The matrix: two header rows (link mode, then opt level).
    out.append("<table class=\"matrix\"><thead><tr>"
               "<th rowspan=\"2\">implementation</th><th rowspan=\"2\">arch</th>"
               "<th rowspan=\"2\">compiler</th>")
    links = []
    for link, _ in columns:
        if not links or links[-1][0] != link:
            links.append([link, 0])
        links[-1][1] += 1
    for link, span in links:
        out.append(f"<th colspan=\"{span}\">{e(link)}</th>")
    out.append("</tr><tr>")
    for column in columns:
        out.append(f"<th>{e(column_label(column)[1])}</th>")
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td class=\"label\">{e(v)}</td>"
                                    for v in row_label(row, grid, columns)))
        for column in columns:
            cell = grid.get((row, column))
            state = cell_state(cell)
            css = {"n/a": "na"}.get(state, state)
            main, note = cell_text(cell)
            text = e(main)
            title = ""
            if state == "missing":
                title = (f" title=\"{e(', '.join(cell.get('missing', [])))} not found; "
                         f"install {e(cell.get('packages', ''))}\"")
            elif state in ("failed", "finding"):
                text = f"<a href=\"#{anchor(cell['key'])}\">{text}</a>"
            elif state == "n/a":
                title = " title=\"this run has no such cell\""
            note = f"<br><small>{e(note)}</small>" if note else ""
            out.append(f"<td class=\"cell {css}\"{title}>{text}{note}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    if gate:
        out += render_html_gate(gate)

    consumer_names, consumer_table = consumer_rows(document)
    if consumer_table:
        out.append("<h2>Consumers</h2><p>What real tracers read of each cell's probes "
                   "(lit-tests/consumers), each value against the source's.</p>"
                   "<table class=\"matrix consumers\"><thead><tr><th>cell</th>" +
                   "".join(f"<th>{e(n)}</th>" for n in consumer_names) +
                   "</tr></thead><tbody>")
        css_of = {"ok": "ok", "FAIL": "failed", "limit": "finding", "MISSING": "missing"}
        for key, row in consumer_table:
            out.append(f"<tr><td class=\"label\">{e(key)}</td>" + "".join(
                f"<td class=\"cell {css_of.get(text.split()[0], 'na')}\">{e(text)}</td>"
                for text in row) + "</tr>")
        out.append("</tbody></table>")
    live_names, live_table = consumer_rows(document, live=True)
    if live_table:
        out.append("<h2>Consumers, live</h2><p>Real tracers attached through this "
                   "machine's kernel while each program runs natively "
                   "(lit-tests/consumers/live-*): the program must exit 0 while traced, "
                   "every value printed must be the source's.</p>"
                   "<table class=\"matrix consumers\"><thead><tr><th>cell</th>" +
                   "".join(f"<th>{e(n)}</th>" for n in live_names) + "</tr></thead><tbody>")
        css_of = {"ok": "ok", "FAIL": "failed", "limit": "finding", "MISSING": "missing"}
        for key, row in live_table:
            out.append(f"<tr><td class=\"label\">{e(key)}</td>" + "".join(
                f"<td class=\"cell {css_of.get(text.split()[0], 'na')}\">{e(text)}</td>"
                for text in row) + "</tr>")
        out.append("</tbody></table>")

    names, catalog = catalog_rows(document)
    if catalog:
        out.append("<h2>Known-bug catalog</h2><p>A catalog test fails where the implementation "
                   "has the bug (HIT).</p><table class=\"matrix catalog\"><thead><tr>"
                   "<th>test</th>" + "".join(f"<th>{e(n)}</th>" for n in names) +
                   "</tr></thead><tbody>")
        for test, row in catalog:
            out.append(f"<tr><td class=\"label\">{e(test)}</td>" + "".join(
                f"<td class=\"cell {css}\">{e(text)}</td>" for _, text, css in row) + "</tr>")
        out.append("</tbody></table>")

    missing = missing_toolchains(document)
    if missing:
        out.append("<h2>Missing toolchains</h2><ul>")
        for (implementation, arch, compiler), (tools, packages) in missing.items():
            out.append(f"<li>{e(implementation)} {e(arch)} {e(compiler)}: "
                       f"<code>{e(', '.join(tools))}</code> not found; install "
                       f"<code>{e(packages)}</code> (toolchains/install-deps.sh)</li>")
        out.append("</ul>")

    out.append("<h2>Totals</h2><table class=\"plain\"><tr><th>outcome</th><th>tests</th></tr>")
    for code, count in total["by_code"]:
        out.append(f"<tr><td>{e(code)}</td><td>{count}</td></tr>")
    out.append("</table>")
    out.append(f"<p>Value oracle: {total['sites_verified']} sites and "
               f"{total['args_verified']} arguments verified.</p>")

    heading = None
    for key, cell, failures in failed_cells(document):
        wanted = ("Findings (reference implementations)" if cell_state(cell) == "finding"
                  else "Failures")
        if heading != wanted:
            out.append(f"<h2>{wanted}</h2>")
            heading = wanted
        version = f" &middot; {e(cell['compiler'])} {e(cell['compiler_version'])}" \
            if cell.get("compiler_version") else ""
        out.append(f"<h3 id=\"{anchor(key)}\">{e(key)}"
                   f"<span class=\"muted\">{version}</span></h3>")
        if cell.get("lit_warnings"):
            out.append("<p class=\"muted\">lit's warnings for this cell:</p><pre>"
                       + e("\n".join(cell["lit_warnings"])) + "</pre>")
        groups = group_failures(failures)
        for failure, names in groups[:MAX_FAILURES_PER_CELL]:
            out.append(render_html_failure(failure, names))
        if len(groups) > MAX_FAILURES_PER_CELL:
            out.append(f"<p>... and {len(groups) - MAX_FAILURES_PER_CELL} more failures "
                       "(all of them are in results.json)</p>")

    out += render_html_time(document)

    out.append("<h2>Run</h2><table class=\"plain\">")
    for label, value in run_facts(document):
        out.append(f"<tr><th>{e(label)}</th><td>{e(str(value))}</td></tr>")
    out.append("</table></body></html>")
    return "\n".join(out) + "\n"


def render_html_time(document):
    """The "Where the time goes" section, as lines."""
    e = html.escape
    out = ["<h2>Where the time goes</h2>", f"<p>{e(time_summary(document))}</p>"]
    if not has_phases(document):
        return out
    cells = slowest_cells(document)
    if cells:
        out.append(f"<p>Slowest cells that ran (wall seconds; setup, then build, run and check "
                   f"summed over the cell's tests; the floor is build + run, x floor "
                   f"(setup + tests) over it; programs started per test that ran; "
                   f"up to {MAX_SLOWEST}):</p>")
        out.append("<table class=\"plain time\"><tr>"
                   + "".join(f"<th>{e(h)}</th>" for h in CELL_TIME_HEADER) + "</tr>")
        for key, values in cells:
            out.append(f"<tr><td class=\"name\">{e(key)}</td>"
                       + "".join(f"<td class=\"num\">{e(v)}</td>" for v in values) + "</tr>")
        out.append("</table>")
    tests = slowest_tests(document)
    if tests:
        out.append(f"<p>Slowest tests (seconds; check is the rest of the test's time, "
                   f"up to {MAX_SLOWEST}):</p>")
        out.append("<table class=\"plain time\"><tr>"
                   + "".join(f"<th>{e(h)}</th>" for h in TEST_TIME_HEADER) + "</tr>")
        for name, cell, values in tests:
            out.append(f"<tr><td class=\"name\">{e(name)}</td><td class=\"name\">{e(cell)}</td>"
                       + "".join(f"<td class=\"num\">{e(v)}</td>" for v in values) + "</tr>")
        out.append("</table>")
    return out


def render_html_failure(failure, names):
    e = html.escape
    detail = failure.get("detail") or {}
    code = failure["code"]
    who = (f"<span class=\"name\">{e(failure['name'])}</span>" if len(names) == 1 else
           f"<span class=\"name\">{len(names)} tests</span> "
           f"<span class=\"muted\">{e(names_text(names))}</span>")
    out = [f"<div class=\"failure\"><span class=\"code {e(code)}\">{e(code)}</span> {who}"
           f"<div>{e(detail.get('summary', ''))}</div>"]
    findings = detail.get("findings", [])
    if findings:
        out.append("<table class=\"plain findings\"><tr><th>probe</th><th>arg</th>"
                   "<th>spec</th><th>expected</th><th>actual</th></tr>")
        for finding in findings:
            out.append("<tr>" + "".join(f"<td>{e(str(v))}</td>"
                                        for v in finding_columns(finding)) + "</tr>")
        out.append("</table>")
    lines = [l for l in detail.get("lines", []) if l != detail.get("summary")]
    if lines:
        out.append("<pre>" + e("\n".join(lines)) + "</pre>")
    out.append("</div>")
    return "".join(out)


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
