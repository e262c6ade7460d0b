"""ci/toolchain-gate on small results.json fixtures (no toolchain is run)."""
import contextlib
import io
import json
import os
import tempfile
import unittest

from helpers import as_compiler, find_test, fixture_path, load_fixture, load_gate, write_documents

gate = load_gate()

O2 = "alpha.clang-14.O2.pie"
O0 = "alpha.clang-14.O0.pie"


def run_gate(baseline, candidate, *extra):
    """Writes both documents to files, runs main(); returns (exit code, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_documents(tmp, [("baseline.json", baseline),
                                      ("candidate.json", candidate)])
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = gate.main(paths + list(extra))
        return code, out.getvalue() + err.getvalue()


class SameResults(unittest.TestCase):
    def test_identical_results_pass_the_gate(self):
        code, output = run_gate(load_fixture(), load_fixture())
        self.assertEqual(code, 0, output)
        self.assertIn("gate: PASS", output)
        self.assertIn("REGRESSIONS: passed in the baseline; fail, vanished or lost their "
                      "cell in the candidate: 0", output)

    def test_known_failure_on_both_sides_is_not_a_regression(self):
        comparison = gate.compare(load_fixture(), load_fixture())
        self.assertEqual([e["test"] for e in comparison["still_failing"]],
                         ["values/int-widths.test"])
        self.assertTrue(gate.gate_passes(comparison))


class Regressions(unittest.TestCase):
    def test_pass_to_fail_is_a_regression_with_its_detail(self):
        baseline = load_fixture()
        candidate = load_fixture()
        test = find_test(candidate, O2, "values/int-widths.test")
        test["code"] = "FAIL"
        test["detail"] = {"summary": "corpus:i8 arg0 spec '-1@%dil': expected -6, got 250",
                          "lines": [], "findings": []}
        code, output = run_gate(baseline, candidate)
        self.assertEqual(code, 1)
        self.assertIn("xsdt alpha O2.pie  values/int-widths.test: PASS -> FAIL: "
                      "corpus:i8 arg0 spec '-1@%dil': expected -6, got 250", output)
        self.assertIn("gate: FAIL: 1 regression", output)

    def test_passing_test_missing_from_candidate_is_a_regression(self):
        # The doctored-baseline case: the candidate lost a test that passed.
        candidate = load_fixture()
        cell = candidate["cells"][O2]
        cell["tests"] = [t for t in cell["tests"] if t["name"] != "specs/lone-globals.test"]
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 1)
        self.assertIn("specs/lone-globals.test: PASS -> absent: not in the candidate's "
                      "results", output)

    def test_candidate_cell_missing_is_one_line_naming_the_package(self):
        candidate = load_fixture()
        cell = candidate["cells"][O2]
        cell.update(status="missing", missing=["clang-14"], packages="clang-14", tests=[])
        comparison = gate.compare(load_fixture(), candidate)
        self.assertEqual(len(comparison["regressions"]), 3)  # the three PASS tests
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 1)
        self.assertIn("xsdt alpha O2.pie: 3 tests: the candidate's cell is MISSING: "
                      "clang-14 not found; install clang-14", output)

    def test_many_tests_failing_the_same_way_are_one_line(self):
        # e.g. libxsdt did not build: every test of the cell fails to link.
        baseline = load_fixture()
        candidate = load_fixture()
        for document in (baseline, candidate):
            document["cells"][O2]["tests"] += [
                {"name": f"jump/t{i}.test", "code": "PASS", "elapsed": 0} for i in range(5)]
        for test in candidate["cells"][O2]["tests"]:
            if test["name"].startswith("jump/"):
                test.update(code="FAIL", detail={"summary": "ld: cannot find libxsdt.a"})
        candidate["cells"][O2]["lit_warnings"] = ["lit.cfg.py:87: warning: building libxsdt "
                                                  "failed:", "x.h:1:2: error: deprecated"]
        code, output = run_gate(baseline, candidate)
        self.assertEqual(code, 1)
        self.assertIn("xsdt alpha O2.pie: 5 tests: PASS -> FAIL: ld: cannot find libxsdt.a "
                      "(e.g. jump/t0.test, jump/t1.test, jump/t2.test)", output)
        self.assertIn("lit's warnings in the candidate's failing cells (xsdt alpha O2.pie):\n"
                      "  lit.cfg.py:87: warning: building libxsdt failed:\n"
                      "  x.h:1:2: error: deprecated", output)

    def test_pass_to_not_applicable_is_a_regression(self):
        candidate = load_fixture()
        find_test(candidate, O2, "notes/int-widths.test")["code"] = "UNSUPPORTED"
        comparison = gate.compare(load_fixture(), candidate)
        self.assertEqual([(e["test"], e["candidate"]) for e in comparison["regressions"]],
                         [("notes/int-widths.test", "UNSUPPORTED")])

    def test_a_cell_failure_of_the_candidate_fails_the_gate(self):
        # The oracle's rule: a cell that verified 0 arguments fails.
        candidate = load_fixture()
        candidate["cells"][O2]["cell_failures"] = [{"name": "values", "code": "ZERO", "detail": {
            "summary": "the value oracle verified 0 arguments in this cell"}}]
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 1)
        self.assertIn("[cell] values: absent -> ZERO: the value oracle verified 0 arguments",
                      output)
        self.assertIn("1 new failing test", output)


class Fixes(unittest.TestCase):
    def test_fail_to_pass_is_a_fix_and_passes_the_gate(self):
        candidate = load_fixture()
        find_test(candidate, O0, "values/int-widths.test")["code"] = "PASS"
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 0, output)
        self.assertIn("FIXES: failed in the baseline, pass in the candidate: 1", output)
        self.assertIn("O0.pie  values/int-widths.test: FAIL -> PASS", output)

    def test_doctored_baseline_failure_shows_as_fix_with_a_note(self):
        # A test flipped to FAIL in a baseline that ran the same compiler:
        # the gate names it as a fix and says a toolchain cannot explain it.
        baseline = load_fixture()
        find_test(baseline, O2, "notes/int-widths.test")["code"] = "FAIL"
        code, output = run_gate(baseline, load_fixture())
        self.assertEqual(code, 0, output)
        self.assertIn("O2.pie  notes/int-widths.test: FAIL -> PASS", output)
        self.assertIn("note: baseline and candidate ran the same compilers "
                      "(clang-14 14.0.6)", output)


class UnexpectedPasses(unittest.TestCase):
    def test_xpass_fails_the_gate_even_if_the_baseline_had_it(self):
        baseline = load_fixture()
        candidate = load_fixture()
        for document in (baseline, candidate):
            find_test(document, O2, "specs/lone-globals.test")["code"] = "XPASS"
        code, output = run_gate(baseline, candidate)
        self.assertEqual(code, 1)
        self.assertIn("UNEXPECTED PASSES: XPASS in the candidate", output)
        self.assertIn("specs/lone-globals.test: XPASS -> XPASS", output)
        self.assertIn("gate: FAIL: 1 unexpected pass", output)


class NewAndVanished(unittest.TestCase):
    def test_new_passing_test_is_listed_and_passes(self):
        candidate = load_fixture()
        candidate["cells"][O2]["tests"].append(
            {"name": "jump/patch-bytes.test", "code": "PASS", "elapsed": 0.1})
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 0, output)
        self.assertIn("jump/patch-bytes.test: absent -> PASS", output)

    def test_new_failing_test_fails_the_gate(self):
        candidate = load_fixture()
        candidate["cells"][O2]["tests"].append(
            {"name": "jump/patch-bytes.test", "code": "FAIL", "elapsed": 0.1,
             "detail": {"summary": "ld: cannot find -lxsdt"}})
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 1)
        self.assertIn("NEW FAILING TESTS: not in the baseline, failing in the candidate: 1",
                      output)

    def test_vanished_failing_test_is_listed_but_passes(self):
        candidate = load_fixture()
        cell = candidate["cells"][O0]
        cell["tests"] = [t for t in cell["tests"] if t["name"] != "values/int-widths.test"]
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 0, output)
        self.assertIn("VANISHED TESTS: in the baseline (not passing there), not in the "
                      "candidate: 1", output)


class Matching(unittest.TestCase):
    def test_compiler_versions_are_ignored(self):
        candidate = as_compiler(load_fixture(), "clang-19", "19.1.7")
        comparison = gate.compare(load_fixture(), candidate)
        self.assertFalse(comparison["compiler_family_in_key"])
        self.assertEqual(comparison["regressions"], [])
        self.assertEqual(comparison["cut_from_baseline"]["cells"], 0)
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 0, output)
        self.assertNotIn("same compilers", output)

    def test_a_wider_baseline_is_cut_to_the_candidates_slots(self):
        # A stored whole matrix (gcc and clang, -O0 and -O2) against one new
        # compiler at -O2: the gcc cells and the -O0 cell are not compared,
        # and said in one line; a failure in the candidate's slot still is.
        baseline = load_fixture()
        baseline["cells"].update(as_compiler(load_fixture(), "gcc-12", "12.2.0")["cells"])
        candidate = as_compiler(load_fixture(), "clang-19", "19.1.7")
        del candidate["cells"][O0.replace("clang-14", "clang-19")]
        find_test(candidate, O2.replace("clang-14", "clang-19"),
                  "values/int-widths.test")["code"] = "FAIL"
        comparison = gate.compare(baseline, candidate)
        self.assertEqual(comparison["cut_from_baseline"]["cells"], 4)
        self.assertEqual([(e["slot"][1], e["test"]) for e in comparison["regressions"]],
                         [("alpha", "values/int-widths.test")])
        code, output = run_gate(baseline, candidate)
        self.assertIn("gate: FAIL: 1 regression", output)
        self.assertIn("not compared: 4 baseline cells", output)
        self.assertIn("clang-14 1 (1 arches; O0; pie); gcc-12 3 (2 arches; O0,O2; pie)", output)
        self.assertNotIn("no cell", output)

    def test_a_baseline_of_every_test_is_cut_to_the_candidates_filter(self):
        # The conformance tests' cells (every test) against a candidate that
        # ran a slice (--filter 'specs/|values/'): the tests outside the
        # slice are not compared, and counted in one line; a regression
        # inside it still fails the gate.
        candidate = as_compiler(load_fixture(), "clang-19", "19.1.7")
        candidate["options"]["filter"] = "specs/|values/"
        for cell in candidate["cells"].values():
            cell["tests"] = [t for t in cell["tests"]
                             if t["name"].startswith(("specs/", "values/"))]
        comparison = gate.compare(load_fixture(), candidate)
        self.assertEqual(comparison["regressions"], [])
        self.assertEqual(comparison["cut_by_filter"], {"filter": "specs/|values/", "tests": 4})
        code, output = run_gate(load_fixture(), candidate)
        self.assertEqual(code, 0, output)
        self.assertIn("not compared: 4 baseline tests outside the candidate's lit --filter "
                      "'specs/|values/'", output)
        find_test(candidate, O2.replace("clang-14", "clang-19"),
                  "specs/lone-globals.test")["code"] = "FAIL"
        code, output = run_gate(load_fixture(), candidate)
        self.assertIn("gate: FAIL: 1 regression", output)

    def test_an_arch_variant_is_a_slot_of_its_own(self):
        # armhf's ARM state (clang-14-marm) beside its Thumb cells: a failure
        # of the variant's candidate cell must meet the variant's baseline,
        # not vanish behind the base cell of the same arch and family.
        def with_variant(compiler, version):
            document = as_compiler(load_fixture(), compiler, version)
            document["cells"].update(
                as_compiler(load_fixture(), f"{compiler}-marm", version)["cells"])
            return document
        baseline = with_variant("clang-14", "14.0.6")
        candidate = with_variant("clang-19", "19.1.7")
        find_test(candidate, "alpha.clang-19-marm.O2.pie",
                  "values/int-widths.test")["code"] = "FAIL"
        comparison = gate.compare(baseline, candidate)
        self.assertEqual([(e["slot"][1], e["test"]) for e in comparison["regressions"]],
                         [("alpha (marm)", "values/int-widths.test")])
        self.assertEqual(comparison["cut_from_baseline"]["cells"], 0)

    def test_two_compilers_in_one_slot_are_told_apart_by_family(self):
        document = load_fixture()
        gcc = as_compiler(load_fixture(), "gcc-12", "12.2.0")
        document["cells"].update(gcc["cells"])
        find_test(document, "alpha.gcc-12.O2.pie", "values/int-widths.test")["code"] = "FAIL"
        comparison = gate.compare(load_fixture(), document)
        self.assertTrue(comparison["compiler_family_in_key"])
        # The clang cells match each other; the gcc cells are new.
        self.assertEqual(comparison["regressions"], [])
        self.assertIn("xsdt alpha O2.pie (gcc-12 12.2.0)", comparison["cells_only_in_candidate"])


class Inputs(unittest.TestCase):
    def test_schema_1_file_is_refused_with_a_reason(self):
        code, output = run_gate(fixture_path("results-schema1.json"), load_fixture())
        self.assertEqual(code, 2)
        self.assertIn("schema 1 results.json", output)
        self.assertIn("re-run ci/matrix.py", output)

    def test_unreadable_file(self):
        code, output = run_gate("/nonexistent/results.json", load_fixture())
        self.assertEqual(code, 2)
        self.assertIn("cannot read", output)

    def test_json_output(self):
        candidate = load_fixture()
        find_test(candidate, O2, "values/int-widths.test")["code"] = "FAIL"
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gate.json")
            code, _ = run_gate(load_fixture(), candidate, "--json", out)
            with open(out) as f:
                written = json.load(f)
        self.assertEqual(code, 1)
        self.assertEqual(written["gate"], "fail")
        self.assertEqual(written["regressions"][0]["test"], "values/int-widths.test")

    def test_report_dir_puts_the_gate_table_beside_the_candidates_matrix(self):
        candidate = load_fixture()
        find_test(candidate, O2, "values/int-widths.test")["code"] = "FAIL"
        with tempfile.TemporaryDirectory() as tmp:
            code, _ = run_gate(load_fixture(), candidate, "--report-dir", tmp)
            with open(os.path.join(tmp, "report.md")) as f:
                markdown = f.read()
            with open(os.path.join(tmp, "report.html")) as f:
                html = f.read()
        self.assertEqual(code, 1)
        # After the matrix, before the failures: the gate's verdict, its
        # table of counts and the regression itself.
        self.assertLess(markdown.index("| xsdt | alpha"), markdown.index("## Toolchain gate: FAIL"))
        self.assertIn("**gate: FAIL: 1 regression: the candidate may not replace the "
                      "baseline**", markdown)
        self.assertIn("| REGRESSIONS: passed in the baseline; fail, vanished or lost their "
                      "cell in the candidate | 1 |", markdown)
        self.assertIn("| FIXES: failed in the baseline, pass in the candidate | 0 |", markdown)
        self.assertIn("xsdt alpha O2.pie  values/int-widths.test: PASS -> FAIL", markdown)
        self.assertIn("<h2>Toolchain gate: FAIL</h2>", html)
        self.assertIn("<td class=\"num\">1</td>", html)

    def test_report_of_a_passing_gate(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, _ = run_gate(load_fixture(), load_fixture(), "--report-dir", tmp)
            with open(os.path.join(tmp, "report.md")) as f:
                markdown = f.read()
        self.assertEqual(code, 0)
        self.assertIn("## Toolchain gate: PASS", markdown)
        self.assertNotIn("REGRESSIONS:\n", markdown)

    def test_unknown_toolchain_is_reported_before_any_run(self):
        ran = []
        originals = gate.run_matrix, gate.discover_toolchains
        gate.run_matrix = lambda side, toolchains, args: ran.append(side)
        gate.discover_toolchains = lambda args: [
            {"name": "clang-14-alpha", "compiler": "clang-14", "arch": "alpha"}]
        try:
            with tempfile.TemporaryDirectory() as build:
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    code = gate.main(["--build-dir", build,
                                      "--baseline-toolchain", "clang-14",
                                      "--candidate-toolchain", "clang-19"])
        finally:
            gate.run_matrix, gate.discover_toolchains = originals
        self.assertEqual(code, 2)
        self.assertEqual(ran, [])
        self.assertIn("no toolchain 'clang-19' is installed", err.getvalue())
        self.assertIn("found: clang-14, clang-14-alpha", err.getvalue())

    def test_toolchain_names_become_matrix_arguments(self):
        found = [{"name": "clang-19-alpha", "compiler": "clang-19", "arch": "alpha"},
                 {"name": "clang-19-beta", "compiler": "clang-19", "arch": "beta"}]
        self.assertEqual(gate.resolve_toolchain("clang-19", found), ["--compiler", "clang-19"])
        self.assertEqual(gate.resolve_toolchain("clang-19-beta", found),
                         ["--compiler", "clang-19", "--arch", "beta"])

    def test_reuse_takes_the_baselines_cells_from_results_of_this_tree(self):
        # The ctest gate reuses the clang-14 conformance tests' cells (every
        # test, every opt) and runs only the candidate.
        code, ran, output = self.run_with_reuse(load_fixture())
        self.assertEqual(ran, ["candidate"])
        self.assertEqual(code, 0, output)
        self.assertIn("toolchain-gate: baseline: 2 cells reused from 1 results.json", output)
        self.assertIn("not compared: 2 baseline tests outside the candidate's lit --filter "
                      "'specs/|values/'", output)

    def test_reuse_of_another_tree_or_of_too_few_cells_runs_the_baseline(self):
        other_commit = load_fixture()
        other_commit["source"]["commit"] = "f" * 40
        code, ran, output = self.run_with_reuse(other_commit)
        self.assertEqual(ran, ["baseline", "candidate"])
        self.assertIn(f"ran from {'f' * 40}, not 0123456789abcdef", output)
        lacking = load_fixture()
        del lacking["cells"]["beta.clang-14.O2.pie"]
        code, ran, output = self.run_with_reuse(lacking)
        self.assertEqual(ran, ["baseline", "candidate"])
        self.assertIn("the --reuse files lack 1 of its 2 cells (xsdt.beta.clang-14.-O2.pie)",
                      output)

    def run_with_reuse(self, reused):
        """main() with --reuse of `reused` (a document of this tree's commit
        unless it says otherwise); the matrix runs are recorded, the
        candidate's is the fixture as clang-19 at --filter 'specs/|values/'."""
        import matrix
        ran = []
        with tempfile.TemporaryDirectory() as tmp:
            candidate = as_compiler(load_fixture(), "clang-19", "19.1.7")
            candidate["options"]["filter"] = "specs/|values/"
            del candidate["cells"]["alpha.clang-19.O0.pie"]  # it ran -O2 only
            for cell in candidate["cells"].values():
                cell["tests"] = [t for t in cell["tests"]
                                 if t["name"].startswith(("specs/", "values/"))]
            reuse, candidate_path, baseline_path = write_documents(
                tmp, [("reuse.json", reused), ("candidate.json", candidate),
                      ("baseline.json", load_fixture())])

            def run_matrix(side, toolchains, args):
                ran.append(side)
                return candidate_path if side == "candidate" else baseline_path
            originals = (gate.run_matrix, gate.discover_toolchains, matrix.source_state)
            gate.run_matrix = run_matrix
            gate.discover_toolchains = lambda args: [
                {"name": f"{compiler}-{arch}", "compiler": compiler, "arch": arch}
                for compiler in ("clang-14", "clang-19") for arch in ("alpha", "beta")]
            matrix.source_state = lambda: dict(load_fixture()["source"])
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                    code = gate.main(["--build-dir", tmp, "--reuse", reuse,
                                      "--baseline-toolchain", "clang-14",
                                      "--candidate-toolchain", "clang-19", "--impl", "xsdt",
                                      "--opt=-O2", "--link", "pie",
                                      "--filter", "specs/|values/"])
            finally:
                gate.run_matrix, gate.discover_toolchains, matrix.source_state = originals
        return code, ran, out.getvalue()

    def test_a_side_given_twice_is_a_usage_error(self):
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            gate.main([fixture_path("results-clang-14.json"),
                       fixture_path("results-clang-14.json"),
                       "--baseline-toolchain", "clang-14-alpha"])


if __name__ == "__main__":
    unittest.main()
