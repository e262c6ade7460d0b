"""ci/report.py on small results.json fixtures."""
import contextlib
import io
import os
import re
import tempfile
import unittest

from helpers import fixture_path, load_fixture

import report


class Matrix(unittest.TestCase):
    def test_rows_and_columns_in_axis_order(self):
        rows, columns, _ = report.build_matrix(load_fixture())
        self.assertEqual(rows, [("xsdt", "x86_64", "clang-14"), ("xsdt", "riscv64", "clang-14")])
        self.assertEqual(columns, [("pie", "-O0"), ("pie", "-O2")])

    def test_cell_texts(self):
        document = load_fixture()
        cells = document["cells"]
        self.assertEqual(report.cell_text(cells["x86_64.clang-14.O2.pie"]), ("3/3", "+1 n/a"))
        self.assertEqual(report.cell_text(cells["x86_64.clang-14.O0.pie"]),
                         ("1 failed", "2/3 +1 n/a"))
        self.assertEqual(report.cell_text(cells["riscv64.clang-14.O2.pie"]), ("MISSING", ""))
        self.assertEqual(report.cell_text(None), ("n/a", ""))

    def test_cell_failing_only_its_cell_check(self):
        cell = load_fixture()["cells"]["x86_64.clang-14.O2.pie"]
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
        self.assertIn('<td class="cell failed"><a href="#cell-x86_64-clang-14-O0-pie">1 failed'
                      '</a><br><small>2/3 +1 n/a</small></td>', self.html)
        self.assertRegex(self.html, r'<td class="cell missing" title="qemu-riscv64 not found; '
                                    r'install binutils-riscv64-linux-gnu qemu-user clang-14">')
        # riscv64 has no -O0 cell in this run.
        self.assertIn('<td class="cell na" title="this run has no such cell">n/a</td>', self.html)

    def test_failure_detail_is_there(self):
        self.assertIn('id="cell-x86_64-clang-14-O0-pie"', self.html)
        self.assertIn("<td>corpus:i16</td><td>arg0</td><td>-2@-268(%rbp)</td>"
                      "<td>-1599</td><td>-1600</td>", self.html)
        self.assertIn("int-widths.test:7:8: error: CHECK: expected string not found", self.html)

    def test_missing_package_is_named(self):
        self.assertIn("<code>binutils-riscv64-linux-gnu qemu-user clang-14</code>", self.html)

    def test_self_contained(self):
        self.assertIn("<style>", self.html)
        self.assertNotIn("<script", self.html)
        self.assertNotRegex(self.html, r'(src|href)="(https?:)?//')
        self.assertNotIn("<link", self.html)

    def test_text_is_escaped(self):
        document = load_fixture()
        test = document["cells"]["x86_64.clang-14.O0.pie"]["tests"][3]
        test["detail"]["summary"] = "error: <script>alert(1)</script> & more"
        html = report.render_html(document)
        self.assertNotIn("<script>alert", html)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more", html)

    def test_run_facts(self):
        self.assertIn("<tr><th>wall time</th><td>42 s (0.7 min)</td></tr>", self.html)
        self.assertIn("<tr><th>clang-14-riscv64</th><td>not installed</td></tr>", self.html)

    def test_failures_with_the_same_detail_are_shown_once(self):
        # e.g. libxsdt did not build: every test fails to link the same way.
        document = load_fixture()
        cell = document["cells"]["x86_64.clang-14.O0.pie"]
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
        cell = document["cells"]["x86_64.clang-14.O0.pie"]
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
        self.assertIn("| xsdt | x86_64 | clang-14 (14.0.6) | **FAIL** [1 failed]"
                      "(#cell-x86_64-clang-14-O0-pie) (2/3 +1 n/a) | ok 3/3 (+1 n/a) |", md)
        self.assertIn("| xsdt | riscv64 | clang-14 | n/a | MISSING |", md)
        self.assertIn("| `corpus:i16` | `arg0` | `-2@-268(%rbp)` | `-1599` | `-1600` |", md)
        self.assertIn("install `binutils-riscv64-linux-gnu qemu-user clang-14`", md)

    def test_pipes_in_cells_are_escaped(self):
        document = load_fixture()
        finding = document["cells"]["x86_64.clang-14.O0.pie"]["tests"][3]["detail"]["findings"][0]
        finding["got"] = "a|b"
        self.assertIn("`a\\|b`", report.render_markdown(document))


def with_reference_implementation(document):
    """The fixture plus a sys-sdt cell that fails a catalog test and one that
    passes it, and the catalog summary ci/matrix.py would write."""
    base = document["cells"]["x86_64.clang-14.O2.pie"]
    hit = dict(base, implementation="sys-sdt", role="reference", status="failed", opt="-O0",
               tests=[{"name": "catalog/x86_64-rip-relative.test", "code": "FAIL",
                       "detail": {"summary": "needs symbol resolution: g(%rip)",
                                  "lines": [], "findings": []}}])
    clean = dict(base, implementation="sys-sdt", role="reference", status="ok",
                 tests=[{"name": "catalog/x86_64-rip-relative.test", "code": "PASS"}])
    document["cells"]["sys-sdt.x86_64.clang-14.O0.pie"] = hit
    document["cells"]["sys-sdt.x86_64.clang-14.O2.pie"] = clean
    document["implementations"] = {"xsdt": {"role": "subject", "features": ["sdt9-api"]},
                                   "sys-sdt": {"role": "reference", "features": []}}
    document["catalog"] = {
        "sys-sdt": {"catalog/x86_64-rip-relative.test": {
            "hit": ["sys-sdt.x86_64.clang-14.O0.pie"],
            "passed": ["sys-sdt.x86_64.clang-14.O2.pie"], "not_applicable": 0}},
        "xsdt": {"catalog/x86_64-rip-relative.test": {
            "hit": [], "passed": ["x86_64.clang-14.O2.pie"], "not_applicable": 0}}}
    return document


class ReferenceImplementations(unittest.TestCase):
    def test_reference_failures_are_findings_not_failures(self):
        document = with_reference_implementation(load_fixture())
        self.assertEqual(report.cell_state(document["cells"]["sys-sdt.x86_64.clang-14.O0.pie"]),
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
        self.assertEqual(test, "catalog/x86_64-rip-relative.test")
        self.assertEqual(cells[0], ("xsdt", "not hit (passed 1/1)", "ok"))
        self.assertEqual(cells[1], ("sys-sdt", "HIT in 1/2: x86_64.clang-14.O0.pie", "failed"))
        self.assertIn("Known-bug catalog", report.render_html(document))

    def test_catalog_problem_is_the_verdict(self):
        document = with_reference_implementation(load_fixture())
        document["catalog_problems"] = ["known bug catalog/x.test of sys-sdt not reproduced"]
        self.assertIn("CATALOG FAILURE: known bug catalog/x.test", report.render_html(document))
        self.assertIn("**CATALOG FAILURE**", report.render_markdown(document))


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


if __name__ == "__main__":
    unittest.main()
