"""ci/failure_detail.py on lit outputs captured from real failing runs."""
import json
import unittest

from helpers import read_fixture_text

import failure_detail
from failure_detail import extract_detail


class RealOutputs(unittest.TestCase):
    def test_oracle_mismatch_from_the_filecheck_dump(self):
        detail = extract_detail("FAIL", read_fixture_text("lit-output-oracle-mismatch.txt"))
        self.assertEqual(detail["findings"], [{
            "kind": "value mismatch", "probe": "corpus:i16", "arg": 0, "spec": "-2@48(%rsp)",
            "expected": "-1599", "got": "-1600"}])
        self.assertEqual(detail["summary"],
                         "corpus:i16 arg0 spec '-2@48(%rsp)': expected -1599, got -1600")
        self.assertIn("pattern: CHECK: oracle: 8 sites, 8 args verified, 0 mismatches",
                      detail["lines"])
        self.assertEqual(detail["exit_code"], 1)

    def test_spec_violations_of_xsdt_inspect(self):
        detail = extract_detail("FAIL", read_fixture_text("lit-output-spec-violation.txt"))
        self.assertEqual(len(detail["findings"]), 4)
        self.assertEqual(detail["findings"][0], {
            "kind": "spec", "probe": "corpus:lone_bss_int", "arg": 0,
            "spec": "-4@lone_bss_int(%rip)",
            "problem": "needs symbol resolution: lone_bss_int(%rip)"})
        self.assertTrue(detail["summary"].endswith("(+3 more)"))

    def test_compiler_error_without_the_script_lines(self):
        detail = extract_detail("FAIL", read_fixture_text("lit-output-compile-error.txt"))
        self.assertEqual(detail["summary"], "zz-compile-error.c:2:45: error: "
                         "‘undeclared_variable’ undeclared (first use in this function)")
        # -Werror on the RUN line is not an error line.
        self.assertFalse(any("Werror" in line for line in detail["lines"]))

    def test_filecheck_pattern_and_closest_input(self):
        detail = extract_detail("FAIL", read_fixture_text("lit-output-filecheck.txt"))
        self.assertEqual(detail["lines"][0],
                         "int-widths.c:27:15: error: NOTES-DAG: expected string not found in input")
        self.assertTrue(detail["lines"][1].startswith("pattern:  * NOTES-DAG: note provider="
                                                      "corpus name=i8"))
        self.assertTrue(any(line.startswith("closest input: note provider=corpus name=i8")
                            for line in detail["lines"]))
        # Not the dump's "error: no match found" annotations.
        self.assertFalse(any("no match found" in line for line in detail["lines"]))


class Bounds(unittest.TestCase):
    def test_many_mismatches_and_long_lines_are_cut(self):
        output = "\n".join(
            f"oracle: MISMATCH corpus:p{i} arg{i % 12} spec '8@%rax': expected {i} got 0 in cell"
            for i in range(50))
        output += "\n" + "\n".join(f"x.c:{i}:1: error: " + "y" * 1000 for i in range(50))
        detail = extract_detail("FAIL", output)
        self.assertEqual(len(detail["findings"]), failure_detail.MAX_FINDINGS)
        self.assertEqual(len(detail["lines"]), failure_detail.MAX_LINES)
        self.assertTrue(all(len(line) <= failure_detail.MAX_LINE_CHARS
                            for line in detail["lines"]))
        self.assertGreater(detail["truncated"], 0)
        self.assertLess(len(json.dumps(detail)), 4000)


class Fallbacks(unittest.TestCase):
    def test_unrecognised_output_keeps_the_last_lines(self):
        output = ("Script:\n--\n: 'RUN: at line 1'; ./prog\n--\nExit Code: 139\n\n"
                  "Command Output (stdout):\n--\nstarting\nstep 2\n--\n")
        detail = extract_detail("FAIL", output)
        self.assertEqual(detail["lines"], ["starting", "step 2"])
        self.assertEqual(detail["exit_code"], 139)

    def test_xpass_says_what_to_do(self):
        detail = extract_detail("XPASS", "")
        self.assertIn("marked XFAIL", detail["summary"])

    def test_no_output_at_all(self):
        self.assertEqual(extract_detail("UNRESOLVED", "")["summary"], "UNRESOLVED without output")


if __name__ == "__main__":
    unittest.main()
