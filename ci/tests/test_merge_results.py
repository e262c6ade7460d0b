"""ci/merge-results.py on shards cut from the results.json fixture."""
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from helpers import fixture_path, load_fixture, load_script, write_documents


merge_results = load_script("merge-results.py", "merge_results")

O2 = "alpha.clang-14.O2.pie"
O0 = "alpha.clang-14.O0.pie"
BETA_O2 = "beta.clang-14.O2.pie"


def shard(keys, **top_level):
    """The fixture with only the cells named: what one CI job would write."""
    document = load_fixture()
    document["cells"] = {k: v for k, v in document["cells"].items() if k in keys}
    document.update(top_level)
    return document


class MergeCase(unittest.TestCase):
    """A temporary directory for the shard files and the merged output."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-merge-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_merge(self, *documents):
        """Writes the documents as shard files, runs main(); returns
        (exit code, output, merged document or None)."""
        paths = write_documents(self.tmp, [(f"shard{index}.json", document)
                                           for index, document in enumerate(documents)])
        output = os.path.join(self.tmp, "merged", "results.json")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = merge_results.main(["-o", output] + paths)
        merged = None
        if os.path.exists(output):
            with open(output) as f:
                merged = json.load(f)
        return code, out.getvalue() + err.getvalue(), merged


class Merging(MergeCase):
    def test_two_shards_make_the_whole_run(self):
        first = shard({O2, O0}, wall_seconds=40.0, started_at="2026-11-22T03:05:00+00:00")
        second = shard({BETA_O2}, wall_seconds=2.5, started_at="2026-11-22T03:00:00+00:00")
        second["tools"]["compilers"] = {"clang-14-beta": "Debian clang version 14.0.6"}
        first["tools"]["compilers"] = {"clang-14-alpha": "Debian clang version 14.0.6"}
        code, output, merged = self.run_merge(first, second)
        self.assertEqual(code, 0, output)
        self.assertEqual(merged["cells"], load_fixture()["cells"])
        self.assertEqual(merged["schema"], 2)
        self.assertEqual(merged["generator"], "ci/merge-results.py")
        self.assertEqual((merged["wall_seconds"], merged["wall_seconds_max"]), (42.5, 40.0))
        self.assertEqual(merged["started_at"], "2026-11-22T03:00:00+00:00")
        self.assertEqual(merged["source"], load_fixture()["source"])
        self.assertEqual(merged["tools"]["compilers"],
                         {"clang-14-alpha": "Debian clang version 14.0.6",
                          "clang-14-beta": "Debian clang version 14.0.6"})
        self.assertEqual(merged["tools"]["lit"], "lit 14.0.6dev")
        self.assertEqual([s["cells"] for s in merged["shards"]], [2, 1])
        # The fixture has a failed and a missing cell.
        self.assertFalse(merged["ok"])
        self.assertIn("merged 2 results: 3 cells, 2 not ok", output)

    def test_report_is_written_beside_the_output(self):
        code, output, _ = self.run_merge(shard({O2, O0}), shard({BETA_O2}))
        self.assertEqual(code, 0, output)
        with open(os.path.join(self.tmp, "merged", "report.md")) as f:
            report_md = f.read()
        self.assertIn("| xsdt | beta | clang-14 |", report_md)
        self.assertIn("| xsdt | alpha | clang-14 (14.0.6) |", report_md)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "merged", "report.html")))

    def test_all_cells_ok_is_ok(self):
        code, output, merged = self.run_merge(shard({O2}), shard(set()))
        self.assertEqual(code, 0, output)
        self.assertTrue(merged["ok"])

    def test_the_same_shard_twice_is_kept_once(self):
        code, output, merged = self.run_merge(shard({O2, O0}), shard({O2, O0}), shard({BETA_O2}))
        self.assertEqual(code, 0, output)
        self.assertEqual(sorted(merged["cells"]), sorted([O2, O0, BETA_O2]))

    def test_a_rerun_that_differs_only_in_timings_is_no_conflict(self):
        rerun = shard({O2})
        rerun["cells"][O2]["elapsed"] = 99.0
        rerun["cells"][O2]["tests"][0]["elapsed"] = 9.0
        code, output, merged = self.run_merge(shard({O2}), rerun)
        self.assertEqual(code, 0, output)
        self.assertEqual(merged["cells"][O2], load_fixture()["cells"][O2])

    def lit_shards_of_o0(self):
        """The O0 cell split in two by lit --num-shards 2: each shard ran a
        disjoint half of the tests."""
        first, second = shard({O0}), shard({O0})
        tests = first["cells"][O0]["tests"]
        self.assertGreaterEqual(len(tests), 2)
        for document, part, label in ((first, tests[:1], "1/2"), (second, tests[1:], "2/2")):
            cell = document["cells"][O0]
            cell["tests"] = part
            cell["counts"] = {}
            for test in part:
                cell["counts"][test["code"]] = cell["counts"].get(test["code"], 0) + 1
            cell["lit_shard"] = label
        return first, second

    def test_lit_shards_of_one_cell_are_joined(self):
        first, second = self.lit_shards_of_o0()
        code, output, merged = self.run_merge(first, second)
        self.assertEqual(code, 0, output)
        whole = load_fixture()["cells"][O0]
        joined = merged["cells"][O0]
        self.assertEqual([t["name"] for t in joined["tests"]],
                         sorted(t["name"] for t in whole["tests"]))
        self.assertEqual(sum(joined["counts"].values()), len(whole["tests"]))
        self.assertEqual(joined["lit_shard"], "1/2,2/2")
        # The fixture's O0 cell has a failing test: the joined cell fails too.
        self.assertEqual(joined["status"], "failed")

    def test_lit_shards_that_overlap_are_exit_2(self):
        first, second = self.lit_shards_of_o0()
        second["cells"][O0]["tests"] += first["cells"][O0]["tests"]
        code, output, _ = self.run_merge(first, second)
        self.assertEqual(code, 2)
        self.assertIn("both ran", output)

    def test_tool_versions_that_differ_are_all_listed(self):
        other = shard({BETA_O2})
        other["tools"]["lit"] = "lit 15.0.0"
        code, output, merged = self.run_merge(shard({O2}), other)
        self.assertEqual(code, 0, output)
        self.assertEqual(merged["tools"]["lit"], "lit 14.0.6dev | lit 15.0.0")


class Refusals(MergeCase):
    def test_conflicting_duplicate_cell_is_exit_2(self):
        conflicting = shard({O2})
        conflicting["cells"][O2]["tests"][0]["code"] = "FAIL"
        code, output, merged = self.run_merge(shard({O2, O0}), conflicting)
        self.assertEqual(code, 2)
        self.assertIsNone(merged)
        self.assertIn("merge-results: cell xsdt/alpha/clang-14/-O2/pie is in both "
                      f"{self.tmp}/shard0.json and {self.tmp}/shard1.json with different "
                      "results (.tests[0].code: \"PASS\" vs \"FAIL\")", output)

    def test_same_cell_under_another_key_is_still_the_same_cell(self):
        renamed = shard({O2})
        cell = renamed["cells"].pop(O2)
        cell["status"] = "failed"
        renamed["cells"]["xsdt." + O2] = cell
        code, output, _ = self.run_merge(shard({O2}), renamed)
        self.assertEqual(code, 2)
        self.assertIn("cell xsdt/alpha/clang-14/-O2/pie is in both", output)

    def test_commit_mismatch_is_exit_2(self):
        other = shard({BETA_O2})
        other["source"] = {"commit": "f" * 40, "dirty": False}
        code, output, merged = self.run_merge(shard({O2}), other)
        self.assertEqual(code, 2)
        self.assertIsNone(merged)
        self.assertIn("merge-results: the shards ran from different commits "
                      f"(0123456789abcdef0123456789abcdef01234567: {self.tmp}/shard0.json; "
                      f"{'f' * 40}: {self.tmp}/shard1.json)", output)

    def test_schema_1_is_exit_2(self):
        code, output, _ = self.run_merge(shard({O2}), fixture_path("results-schema1.json"))
        self.assertEqual(code, 2)
        self.assertIn("schema 1 results.json", output)

    def test_differently_described_implementation_is_exit_2(self):
        first, second = shard({O2}), shard({BETA_O2})
        first["implementations"] = {"xsdt": {"role": "subject", "known_bugs": []}}
        second["implementations"] = {"xsdt": {"role": "reference", "known_bugs": []}}
        code, output, _ = self.run_merge(first, second)
        self.assertEqual(code, 2)
        self.assertIn("implementation xsdt is described differently", output)


class KnownBugCatalog(MergeCase):
    """A reference implementation's known bug must be hit somewhere in the
    run: a shard where it was not hit is fine if another shard hit it."""

    def catalog_shards(self, hit_in_second):
        implementations = {"sdt": {"role": "reference", "features": [], "package": "x",
                                   "known_bugs": ["catalog/bug.test clang-*"]}}
        documents = []
        for arch, hit in (("alpha", False), ("beta", hit_in_second)):
            document = shard(set(), implementations=implementations)
            document["cells"] = {f"sdt.{arch}.clang-14.O2.pie": {
                "implementation": "sdt", "role": "reference", "arch": arch,
                "compiler": "clang-14", "opt": "-O2", "link": "pie", "status": "ok",
                "ok": True, "tests": [{"name": "catalog/bug.test",
                                       "code": "FAIL" if hit else "PASS", "elapsed": 0.1}]}}
            documents.append(document)
        return documents

    def test_bug_hit_in_one_shard_is_no_problem(self):
        code, output, merged = self.run_merge(*self.catalog_shards(hit_in_second=True))
        self.assertEqual(code, 0, output)
        self.assertEqual(merged["catalog_problems"], [])
        self.assertEqual(merged["catalog"]["sdt"]["catalog/bug.test"]["hit"],
                         ["sdt.beta.clang-14.O2.pie"])
        self.assertTrue(merged["ok"])

    def test_bug_hit_nowhere_is_a_problem(self):
        code, output, merged = self.run_merge(*self.catalog_shards(hit_in_second=False))
        self.assertEqual(code, 0, output)
        self.assertEqual(len(merged["catalog_problems"]), 1)
        self.assertIn("known bug catalog/bug.test of sdt not reproduced",
                      merged["catalog_problems"][0])
        self.assertFalse(merged["ok"])


if __name__ == "__main__":
    unittest.main()
