"""ci/report.py on small results.json fixtures."""
import contextlib
import io
import os
import re
import tempfile
import unittest
from html import unescape

from helpers import fixture_path, load_fixture

import report


class Matrix(unittest.TestCase):
    def test_rows_and_columns_in_axis_order(self):
        rows, columns, _ = report.build_matrix(load_fixture())
        self.assertEqual(rows, [("xsdt", "alpha", "clang-14"), ("xsdt", "beta", "clang-14")])
        self.assertEqual(columns, [("pie", "-O0"), ("pie", "-O2")])

    def test_cell_texts(self):
        document = load_fixture()
        cells = document["cells"]
        self.assertEqual(report.cell_text(cells["alpha.clang-14.O2.pie"]), ("3/3", "+1 n/a"))
        self.assertEqual(report.cell_text(cells["alpha.clang-14.O0.pie"]),
                         ("1 failed", "2/3 +1 n/a"))
        self.assertEqual(report.cell_text(cells["beta.clang-14.O2.pie"]), ("MISSING", ""))
        self.assertEqual(report.cell_text(None), ("n/a", ""))

    def test_cell_failing_only_its_cell_check(self):
        cell = load_fixture()["cells"]["alpha.clang-14.O2.pie"]
        cell["status"] = "failed"
        cell["cell_failures"] = [{"name": "values", "code": "ZERO", "detail": {}}]
        self.assertEqual(report.cell_text(cell), ("cell check failed", "3/3 +1 n/a"))

    def test_totals(self):
        totals = report.totals(load_fixture())
        self.assertEqual(totals["by_state"], {"ok": 1, "failed": 1, "finding": 0, "missing": 1})
        self.assertEqual(totals["by_code"], [("PASS", 5), ("FAIL", 1), ("UNSUPPORTED", 2)])
        self.assertEqual(totals["args_verified"], 16)


class Html(unittest.TestCase):
    def setUp(self):
        self.html = report.render_html(load_fixture())

    def test_colour_classes_per_state(self):
        self.assertIn('<td class="cell ok">3/3<br><small>+1 n/a</small></td>', self.html)
        self.assertIn('<td class="cell failed"><a href="#cell-alpha-clang-14-O0-pie">1 failed'
                      '</a><br><small>2/3 +1 n/a</small></td>', self.html)
        self.assertRegex(self.html, r'<td class="cell missing" title="qemu-beta not found; '
                                    r'install binutils-beta-linux-gnu qemu-user clang-14">')
        # beta has no -O0 cell in this run.
        self.assertIn('<td class="cell na" title="this run has no such cell">n/a</td>', self.html)

    def test_failure_detail_is_there(self):
        self.assertIn('id="cell-alpha-clang-14-O0-pie"', self.html)
        self.assertIn("<td>corpus:i16</td><td>arg0</td><td>-2@-268(%rbp)</td>"
                      "<td>-1599</td><td>-1600</td>", self.html)
        self.assertIn("int-widths.test:7:8: error: CHECK: expected string not found", self.html)

    def test_missing_package_is_named(self):
        self.assertIn("<code>binutils-beta-linux-gnu qemu-user clang-14</code>", self.html)

    def test_self_contained(self):
        self.assertIn("<style>", self.html)
        self.assertNotIn("<script", self.html)
        self.assertNotRegex(self.html, r'(src|href)="(https?:)?//')
        self.assertNotIn("<link", self.html)

    def test_text_is_escaped(self):
        document = load_fixture()
        test = document["cells"]["alpha.clang-14.O0.pie"]["tests"][3]
        test["detail"]["summary"] = "error: <script>alert(1)</script> & more"
        html = report.render_html(document)
        self.assertNotIn("<script>alert", html)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more", html)

    def test_failure_names_lines_and_attributes_are_escaped(self):
        document = load_fixture()
        cell = document["cells"]["alpha.clang-14.O0.pie"]
        cell["tests"][3]["name"] = "values/<b>&amp.test"
        cell["tests"][3]["detail"]["lines"] = ["want <x> & y"]
        cell["lit_warnings"] = ["lit <warning>"]
        document["cells"]["beta.clang-14.O2.pie"]["packages"] = 'qemu-user "quoted" <b>'
        page = report.render_html(document)
        self.assertIn('<span class="name">values/&lt;b&gt;&amp;amp.test</span>', page)
        self.assertIn("<pre>want &lt;x&gt; &amp; y</pre>", page)
        self.assertIn("<pre>lit &lt;warning&gt;</pre>", page)
        # The quotes do not end the title attribute early.
        title = re.search(r'<td class="cell missing" title="([^"]*)">', page).group(1)
        self.assertEqual(unescape(title), 'qemu-beta not found; install qemu-user "quoted" <b>')

    def test_css_is_the_templates(self):
        with open(os.path.join(os.path.dirname(report.__file__), "templates", "report.css"),
                  encoding="utf-8") as f:
            css = f.read()
        self.assertIn("<style>\n" + css + "</style>", self.html)

    def test_run_facts(self):
        self.assertIn("<tr><th>wall time</th><td>42 s (0.7 min)</td></tr>", self.html)
        self.assertIn("<tr><th>clang-14-beta</th><td>not installed</td></tr>", self.html)

    def test_failures_with_the_same_detail_are_shown_once(self):
        # e.g. libxsdt did not build: every test fails to link the same way.
        document = load_fixture()
        cell = document["cells"]["alpha.clang-14.O0.pie"]
        cell["tests"] = [{"name": f"jump/t{i}.test", "code": "FAIL", "elapsed": 0,
                          "detail": {"summary": "clang: error: no such file: 'libxsdt.a'",
                                     "lines": [], "findings": []}} for i in range(20)]
        html = report.render_html(document)
        self.assertEqual(html.count('<div class="failure">'), 1)
        self.assertIn('<span class="name">20 tests</span> <span class="muted">jump/t0.test, '
                      'jump/t1.test', html)
        self.assertIn("jump/t11.test and 8 more</span>", html)
        md = report.render_markdown(document)
        self.assertIn("- **FAIL** 20 tests (jump/t0.test, jump/t1.test", md)

    def test_failures_per_cell_are_bounded(self):
        document = load_fixture()
        cell = document["cells"]["alpha.clang-14.O0.pie"]
        cell["tests"] = [{"name": f"values/t{i}.test", "code": "FAIL", "elapsed": 0,
                          "detail": {"summary": f"failure {i}"}} for i in range(100)]
        html = report.render_html(document)
        self.assertEqual(len(re.findall(r'<div class="failure">', html)),
                         report.MAX_FAILURES_PER_CELL)
        self.assertIn(f"and {100 - report.MAX_FAILURES_PER_CELL} more failures", html)


class Markdown(unittest.TestCase):
    def test_matrix_and_failures(self):
        md = report.render_markdown(load_fixture())
        self.assertIn("**FAILED**: 1 of 3 cells passed, 1 failed, 0 with findings "
                      "(reference implementations), 1 missing.", md)
        self.assertIn("| implementation | arch | compiler | O0 pie | O2 pie |", md)
        self.assertIn("| xsdt | alpha | clang-14 (14.0.6) | **FAIL** [1 failed]"
                      "(#cell-alpha-clang-14-O0-pie) (2/3 +1 n/a) | ok 3/3 (+1 n/a) |", md)
        self.assertIn("| xsdt | beta | clang-14 | n/a | MISSING |", md)
        self.assertIn("| `corpus:i16` | `arg0` | `-2@-268(%rbp)` | `-1599` | `-1600` |", md)
        self.assertIn("install `binutils-beta-linux-gnu qemu-user clang-14`", md)

    def test_pipes_in_cells_are_escaped(self):
        document = load_fixture()
        finding = document["cells"]["alpha.clang-14.O0.pie"]["tests"][3]["detail"]["findings"][0]
        finding["got"] = "a|b"
        self.assertIn("`a\\|b`", report.render_markdown(document))

    def test_markdown_is_not_html_escaped(self):
        document = load_fixture()
        detail = document["cells"]["alpha.clang-14.O0.pie"]["tests"][3]["detail"]
        detail["summary"] = "got <x> & y | z\nnext"
        detail["lines"] = ["raw <x> & | y"]
        md = report.render_markdown(document)
        self.assertIn("- **FAIL** `values/int-widths.test`: got <x> & y \\| z next\n", md)
        # A code block needs no escaping: its "|" stays.
        self.assertIn("  ```\n  raw <x> & | y\n  ```\n", md)
        self.assertNotIn("&lt;", md)
        self.assertNotIn("&amp;", md)


def with_reference_implementation(document):
    """The fixture plus a sys-sdt cell that fails a catalog test and one that
    passes it, and the catalog summary ci/matrix.py would write."""
    base = document["cells"]["alpha.clang-14.O2.pie"]
    hit = dict(base, implementation="sys-sdt", role="reference", status="failed", opt="-O0",
               tests=[{"name": "catalog/alpha-rip-relative.test", "code": "FAIL",
                       "detail": {"summary": "needs symbol resolution: g(%rip)",
                                  "lines": [], "findings": []}}])
    clean = dict(base, implementation="sys-sdt", role="reference", status="ok",
                 tests=[{"name": "catalog/alpha-rip-relative.test", "code": "PASS"}])
    document["cells"]["sys-sdt.alpha.clang-14.O0.pie"] = hit
    document["cells"]["sys-sdt.alpha.clang-14.O2.pie"] = clean
    document["implementations"] = {"xsdt": {"role": "subject", "features": ["sdt9-api"]},
                                   "sys-sdt": {"role": "reference", "features": []}}
    document["catalog"] = {
        "sys-sdt": {"catalog/alpha-rip-relative.test": {
            "hit": ["sys-sdt.alpha.clang-14.O0.pie"],
            "passed": ["sys-sdt.alpha.clang-14.O2.pie"], "not_applicable": 0}},
        "xsdt": {"catalog/alpha-rip-relative.test": {
            "hit": [], "passed": ["alpha.clang-14.O2.pie"], "not_applicable": 0}}}
    return document


class ReferenceImplementations(unittest.TestCase):
    def test_reference_failures_are_findings_not_failures(self):
        document = with_reference_implementation(load_fixture())
        self.assertEqual(report.cell_state(document["cells"]["sys-sdt.alpha.clang-14.O0.pie"]),
                         "finding")
        self.assertEqual(report.totals(document)["by_state"],
                         {"ok": 2, "failed": 1, "finding": 1, "missing": 1})
        page = report.render_html(document)
        self.assertIn('class="cell finding"', page)
        md = report.render_markdown(document)
        # The subject's failures come first, under their own heading.
        self.assertLess(md.index("## Failures"),
                        md.index("## Findings (reference implementations)"))

    def test_catalog_hits_per_implementation(self):
        document = with_reference_implementation(load_fixture())
        names, rows = report.catalog_rows(document)
        self.assertEqual(names, ["xsdt", "sys-sdt"])
        (test, cells), = rows
        self.assertEqual(test, "catalog/alpha-rip-relative.test")
        self.assertEqual(cells[0], ("xsdt", "not hit (passed 1/1)", "ok"))
        self.assertEqual(cells[1], ("sys-sdt", "HIT in 1/2: alpha.clang-14.O0.pie", "failed"))
        self.assertIn("Known-bug catalog", report.render_html(document))

    def test_catalog_problem_is_the_verdict(self):
        document = with_reference_implementation(load_fixture())
        document["catalog_problems"] = ["known bug catalog/x.test of sys-sdt not reproduced"]
        self.assertIn("CATALOG FAILURE: known bug catalog/x.test", report.render_html(document))
        self.assertIn("**CATALOG FAILURE**", report.render_markdown(document))


def with_phases(document):
    """The fixture's two alpha cells with phase times and per-test build and
    run seconds, as ci/matrix.py writes them, plus a cached gamma cell that
    would be the slowest if it had run now."""
    cells = document["cells"]
    document["wall_seconds"] = 61.0
    o2 = cells["alpha.clang-14.O2.pie"]
    o2.update(elapsed=30.0, cached=False, phases={
        "setup": 4.0, "build": 10.5, "run": 2.0, "check": 3.5, "tests": 16.0,
        "counts": {"build:compiled": 5, "build:cached": 1, "run:ran": 3, "setup:configured": 1}})
    o2["tests"] = [
        {"name": "notes/int-widths.test", "code": "PASS", "elapsed": 6.0, "build": 4.0,
         "run": 0.5},
        {"name": "runtime/dlopen.test", "code": "UNSUPPORTED", "elapsed": 0.0},
        {"name": "specs/lone-globals.test", "code": "PASS", "elapsed": 2.5},
        # build + run exceed elapsed (rounding): check is floored at 0.
        {"name": "values/int-widths.test", "code": "PASS", "elapsed": 7.5, "build": 6.5,
         "run": 1.5}]
    o0 = cells["alpha.clang-14.O0.pie"]
    o0.update(elapsed=50.0, phases={
        "setup": 6.0, "build": 20.0, "run": 4.0, "check": 10.0, "tests": 34.0,
        "counts": {"build:compiled": 8, "run:ran": 4, "run:replayed": 2}})
    o0["tests"][0].update(elapsed=9.0, build=7.0, run=1.0)   # notes/int-widths.test
    o0["tests"][3].update(elapsed=3.3, run=0.3)              # values/int-widths.test (FAIL)
    cached = dict(o2, arch="gamma", toolchain="clang-14-gamma", cached=True, elapsed=90.0,
                  phases={"setup": 9.0, "build": 60.0, "run": 9.0, "check": 9.0, "tests": 80.0,
                          "counts": {"build:compiled": 40, "build:cached": 7, "run:ran": 20,
                                     "run:replayed": 5}},
                  tests=[{"name": "notes/int-widths.test", "code": "PASS", "elapsed": 8.0,
                          "build": 5.0}])
    cells["gamma.clang-14.O2.pie"] = cached
    return document


def table_after(md, caption):
    """The rows of the Markdown table that follows the line starting with caption."""
    lines = md.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(caption))
    rows = []
    for line in lines[start + 4:]:   # caption, blank, header, separator
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


class WhereTheTimeGoes(unittest.TestCase):
    def setUp(self):
        self.document = with_phases(load_fixture())
        self.md = report.render_markdown(self.document)
        self.html = report.render_html(self.document)

    def test_summary_over_the_cells_that_ran(self):
        # O2 + O0; the cached gamma cell and the missing beta one are not counted.
        # setup 4+6, tests 16+34, build 10.5+20, run 2+4, check 3.5+10;
        # compiled 5+8, cached builds 1+0, ran 3+4, replayed 0+2.
        summary = ("2 cells ran (1 cached, not counted) in 61.0 s wall time: setup 10.0 s; "
                   "tests 50.0 s (summed, lit runs them side by side): build 30.5 s, "
                   "run 6.0 s, check 13.5 s; builds: 13 compiled, 1 cached; "
                   "programs: 7 ran, 2 replayed. The floor (the compiles and program runs "
                   "alone) is 36.5 s of 60.0 s in setup and tests: 23.5 s over "
                   "the floor, 1.64x it.")
        self.assertIn("## Where the time goes\n\n" + summary + "\n", self.md)
        self.assertIn("<h2>Where the time goes</h2><p>" + summary + "</p>",
                      self.html.replace("\n", ""))

    def test_slowest_cells_leave_out_cached_ones(self):
        self.assertEqual(table_after(self.md, "Slowest cells"), [
            "| alpha.clang-14.O0.pie | 50.0 | 6.0 | 20.0 | 4.0 | 10.0 | 34.0 | 24.0 | 1.67x |  "
            "| 8/0 | 4/2 |",
            "| alpha.clang-14.O2.pie | 30.0 | 4.0 | 10.5 | 2.0 | 3.5 | 16.0 | 12.5 | 1.60x |  "
            "| 5/1 | 3/0 |"])
        self.assertNotIn(">90.0<", self.html)
        self.assertIn('<tr><td class="name">alpha.clang-14.O0.pie</td><td class="num">50.0</td>'
                      '<td class="num">6.0</td><td class="num">20.0</td><td class="num">4.0</td>'
                      '<td class="num">10.0</td><td class="num">34.0</td><td class="num">24.0</td>'
                      '<td class="num">1.67x</td><td class="num"></td><td class="num">8/0</td>'
                      '<td class="num">4/2</td></tr>', self.html)

    def test_processes_per_test_where_counted(self):
        # O0 counted 170 programs over its tests that ran; O2 could not count.
        cells = self.document["cells"]
        o0 = cells["alpha.clang-14.O0.pie"]
        o0["phases"].update(processes=170, processes_per_test=round(170 / o0["ran"], 1))
        cells["alpha.clang-14.O2.pie"]["phases"]["processes_missing"] = "perf is not installed"
        md = report.render_markdown(self.document)
        self.assertIn(f" Processes: 170 started, {170 / o0['ran']:.1f} per test that ran "
                      "(1 cells); not counted in 1 cells.\n", md)
        self.assertIn(f"| 24.0 | 1.67x | {170 / o0['ran']:.1f} | 8/0 | 4/2 |", md)

    def test_slowest_tests_in_order_with_check_computed(self):
        # check = elapsed - build - run, at least 0; build and run blank when absent.
        self.assertEqual(table_after(self.md, "Slowest tests"), [
            "| `notes/int-widths.test` | alpha.clang-14.O0.pie | 9.0 | 7.0 | 1.0 | 1.0 |",
            "| `notes/int-widths.test` | gamma.clang-14.O2.pie (cached) | 8.0 | 5.0 |  | 3.0 |",
            "| `values/int-widths.test` | alpha.clang-14.O2.pie | 7.5 | 6.5 | 1.5 | 0.0 |",
            "| `notes/int-widths.test` | alpha.clang-14.O2.pie | 6.0 | 4.0 | 0.5 | 1.5 |",
            "| `values/int-widths.test` | alpha.clang-14.O0.pie | 3.3 |  | 0.3 | 3.0 |",
            "| `specs/lone-globals.test` | alpha.clang-14.O2.pie | 2.5 |  |  | 2.5 |",
            "| `specs/lone-globals.test` | alpha.clang-14.O0.pie | 0.1 |  |  | 0.1 |",
            "| `runtime/dlopen.test` | alpha.clang-14.O0.pie | 0.0 |  |  | 0.0 |",
            "| `runtime/dlopen.test` | alpha.clang-14.O2.pie | 0.0 |  |  | 0.0 |"])
        self.assertIn('<tr><td class="name">values/int-widths.test</td>'
                      '<td class="name">alpha.clang-14.O0.pie</td><td class="num">3.3</td>'
                      '<td class="num"></td><td class="num">0.3</td><td class="num">3.0</td></tr>',
                      self.html)

    def test_at_most_ten_slowest(self):
        cell = self.document["cells"]["alpha.clang-14.O2.pie"]
        cell["tests"] = [{"name": f"notes/t{i:02}.test", "code": "PASS", "elapsed": 100.0 + i}
                         for i in range(15)]
        rows = table_after(report.render_markdown(self.document), "Slowest tests")
        self.assertEqual(len(rows), 10)
        self.assertTrue(rows[0].startswith("| `notes/t14.test` | alpha.clang-14.O2.pie | 114.0 |"))
        self.assertTrue(rows[9].startswith("| `notes/t05.test` | alpha.clang-14.O2.pie | 105.0 |"))

    def test_names_are_escaped(self):
        test = self.document["cells"]["alpha.clang-14.O0.pie"]["tests"][0]
        test["name"] = "notes/<a>&b|c.test"
        md = report.render_markdown(self.document)
        self.assertIn("| `notes/<a>&b\\|c.test` | alpha.clang-14.O0.pie | 9.0 |", md)
        page = report.render_html(self.document)
        self.assertIn('<tr><td class="name">notes/&lt;a&gt;&amp;b|c.test</td>', page)
        self.assertNotIn("<a>&b", page)

    def test_results_without_phases(self):
        # The fixture as written before phases existed: cells have "elapsed" only.
        document = load_fixture()
        md = report.render_markdown(document)
        section = md[md.index("## Where the time goes"):md.index("## Run")]
        self.assertEqual(section.strip().splitlines()[2:], [
            "No phase times in this results.json (written before ci/matrix.py recorded them): "
            "re-run the matrix to see where the time goes."])
        page = report.render_html(document)
        self.assertIn("<h2>Where the time goes</h2>\n<p>No phase times in this results.json",
                      page)
        self.assertNotIn("Slowest", page)

    def test_every_cell_cached(self):
        for cell in self.document["cells"].values():
            if cell["status"] != "missing":
                cell["cached"] = True
        md = report.render_markdown(self.document)
        self.assertIn("0 cells ran (3 cached, not counted) in 61.0 s wall time: setup 0.0 s; ", md)
        self.assertIn("builds: 0 compiled, 0 cached; programs: 0 ran, 0 replayed.", md)
        self.assertNotIn("Slowest cells", md)
        # The tests' times are still there, from the runs that produced the cells.
        self.assertIn("| `notes/int-widths.test` | alpha.clang-14.O0.pie (cached) | 9.0 |", md)


class CommandLine(unittest.TestCase):
    def test_writes_both_files(self):
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
            code = report.main([fixture_path("results-clang-14.json"), "--out-dir", tmp])
            self.assertEqual(code, 0)
            self.assertEqual(sorted(os.listdir(tmp)), ["report.html", "report.md"])

    def test_schema_1_is_refused(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = report.main([fixture_path("results-schema1.json")])
        self.assertEqual(code, 2)
        self.assertIn("schema 1", err.getvalue())


def with_consumers(document):
    """The fixture with a consumer summary (ci/matrix.py) on two cells."""
    cells = document["cells"]
    cells["alpha.clang-14.O2.pie"]["consumers"] = {
        "gdb": {"status": "ok", "passed": 15, "failed": 0, "limit": 0, "not_applicable": 0}}
    cells["alpha.clang-14.O0.pie"]["consumers"] = {
        "gdb": {"status": "missing", "missing": "not installed (apt-get install gdb-multiarch)",
                "passed": 0, "failed": 0, "limit": 0, "not_applicable": 15}}
    return document


class GateTable(unittest.TestCase):
    def test_a_file_that_is_not_the_gates_json_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "gate.json")
            with open(path, "w") as f:
                f.write('{"regressions": []}')
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                code = report.main([fixture_path("results-clang-14.json"), "--out-dir", tmp,
                                    "--gate", path])
        self.assertEqual(code, 2)
        self.assertIn("not ci/toolchain-gate --json output", err.getvalue())

    def test_no_gate_section_without_a_gate(self):
        self.assertNotIn("Toolchain gate", report.render_markdown(load_fixture()))
        self.assertNotIn("Toolchain gate", report.render_html(load_fixture()))

    def test_gate_lines_are_escaped_for_each_format(self):
        gate = {"report": {
            "passed": False, "verdict": "gate: FAIL: 1 regression",
            "header": ["baseline <a>|b"], "notes": ["note & <c>"],
            "sections": [{"title": "REGRESSIONS: passed, now fail", "count": 1,
                          "lines": ["  xsdt alpha O2.pie  t<1>|.test: PASS -> FAIL"]}]}}
        md = report.render_markdown(load_fixture(), gate)
        self.assertIn("- baseline <a>\\|b\n", md)
        # The changed tests are a code block: nothing to escape there.
        self.assertIn("REGRESSIONS:\n\n```\n  xsdt alpha O2.pie  t<1>|.test: PASS -> FAIL\n```\n",
                      md)
        page = report.render_html(load_fixture(), gate)
        self.assertIn("<li>baseline &lt;a&gt;|b</li>", page)
        self.assertIn("<p>REGRESSIONS:</p><pre>  xsdt alpha O2.pie  t&lt;1&gt;|.test: "
                      "PASS -&gt; FAIL</pre>", page)
        self.assertIn("<li>note &amp; &lt;c&gt;</li>", page)


class Consumers(unittest.TestCase):
    def test_table_per_cell_and_consumer(self):
        names, rows = report.consumer_rows(with_consumers(load_fixture()))
        self.assertEqual(names, ["gdb"])
        self.assertEqual(dict(rows), {
            "alpha.clang-14.O2.pie": ["ok 15/15"],
            "alpha.clang-14.O0.pie": ["MISSING (not installed (apt-get install gdb-multiarch))"]})

    def test_failed_and_limit_texts(self):
        self.assertEqual(report.consumer_text(
            {"status": "failed", "passed": 3, "failed": 2, "limit": 0}), "FAIL 3/5")
        self.assertEqual(report.consumer_text(
            {"status": "limit", "passed": 0, "failed": 0, "limit": 15}),
            "limit (15 expected failures)")
        self.assertEqual(report.consumer_text(
            {"status": "limit", "passed": 4, "failed": 0, "limit": 0, "known_limits": 6}),
            "limit (6 readings at its known limits), 4/4")
        self.assertEqual(report.consumer_text(
            {"status": "n/a", "not_applicable_reason": "host arch only"}),
            "n/a (host arch only)")

    def test_both_reports_have_the_table(self):
        document = with_consumers(load_fixture())
        self.assertIn("## Consumers", report.render_markdown(document))
        html = report.render_html(document)
        self.assertIn("<h2>Consumers</h2>", html)
        self.assertIn("MISSING (not installed", html)

    def test_no_table_without_summaries(self):
        self.assertNotIn("## Consumers", report.render_markdown(load_fixture()))

    def test_consumer_texts_are_escaped(self):
        document = with_consumers(load_fixture())
        document["cells"]["alpha.clang-14.O0.pie"]["consumers"]["gdb"]["missing"] = "gdb <8 | old"
        self.assertIn("| alpha.clang-14.O0.pie | MISSING (gdb <8 \\| old) |",
                      report.render_markdown(document))
        self.assertIn('<td class="cell missing">MISSING (gdb &lt;8 | old)</td>',
                      report.render_html(document))


if __name__ == "__main__":
    unittest.main()
