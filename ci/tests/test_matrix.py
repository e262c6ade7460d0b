"""ci/matrix.py's parts (cell_plan, cell_cache, cell_run, cell_phases,
known_bugs): the cells a preset plans, the known-bug check, the cache key."""
import argparse
import json
import os
import re
import tempfile
import unittest
import unittest.mock

import helpers  # noqa: F401  (puts ci/ on sys.path)
import cell_cache
import cell_phases
import cell_plan
import cell_run
import ci_slice
import known_bugs

XSDT = {"name": "xsdt", "role": "subject", "features": [], "headers": {}, "known_bugs": []}
SYS_SDT = {"name": "sys-sdt", "role": "reference", "features": [], "headers": {},
           "known_bugs": ["catalog/beta-clang-crash.test clang-14",
                          "catalog/gamma-lo12.test gcc-*"]}


def toolchain(compiler, arch="alpha"):
    return {"name": f"{compiler}-{arch}", "compiler": compiler, "arch": arch,
            "triple": f"{arch}-linux-gnu", "cc": "cc", "cxx": "c++", "target_flag": "",
            "emulator": "", "packages": ""}


def plan(preset, impls=(XSDT,), compilers=("gcc-12", "clang-14"), opt=None, link=None):
    args = argparse.Namespace(preset=preset, opt=opt, link=link,
                              slice_compilers=["gcc-12", "clang-14"])
    toolchains = [(f"/{c}.json", toolchain(c)) for c in compilers]
    return [(i["name"], t["compiler"], o, l) for i, _, t, o, l in
            cell_plan.plan(list(impls), toolchains, args)]


class Plan(unittest.TestCase):
    def test_default_is_five_opt_levels_pie(self):
        cells = plan("default", impls=(XSDT, SYS_SDT))
        self.assertEqual(len(cells), 2 * 2 * 5)
        self.assertEqual({l for *_, l in cells}, {"pie"})
        self.assertEqual(sorted({o for _, _, o, _ in cells}), cell_plan.OPTS)

    def test_full_adds_oz_for_clang_only_and_every_link_mode(self):
        cells = plan("full")
        gcc = [c for c in cells if c[1] == "gcc-12"]
        clang = [c for c in cells if c[1] == "clang-14"]
        self.assertEqual(len(gcc), 5 * 4)
        self.assertEqual(len(clang), 6 * 4)
        self.assertNotIn("-Oz", {o for _, _, o, _ in gcc})
        self.assertEqual({l for *_, l in cells}, set(cell_plan.LINKS))

    def test_ctest_deals_the_opts_and_links_among_an_archs_compilers(self):
        cells = plan("ctest", impls=(XSDT, SYS_SDT))
        xsdt = [c for c in cells if c[0] == "xsdt"]
        # Each compiler runs -O2 PIE, one of them one more opt level (one
        # of the four on this arch, turning with the arch) and one of them
        # one other link mode (-O2; the first of them on the first arch).
        self.assertEqual(len([c for c in xsdt if c[2:] == ("-O2", "pie")]), 2)
        others = [c[2:] for c in xsdt if c[2:] != ("-O2", "pie")]
        self.assertEqual(sorted(others), [("-O0", "pie"), ("-O2", "nopie")])
        # A reference: -O2 PIE by the compiler whose turn the arch is.
        self.assertEqual([c for c in cells if c[0] == "sys-sdt"],
                         [("sys-sdt", "gcc-12", "-O2", "pie")])
        # A compiler outside the slice's pair runs every cell of the slice.
        alone = plan("ctest", compilers=("clang-19",))
        self.assertEqual(len(alone), 8)

    def test_ctest_cells_run_their_share_and_other_presets_everything(self):
        args = argparse.Namespace(preset="ctest", filter=None, runtime_compiler=None,
                                  slice_compilers=["gcc-12", "clang-14"])
        real = toolchain("clang-14", arch="beta")
        share = cell_plan.cell_lit_filter(XSDT, real, "-O3", "pie", args)
        self.assertTrue(re.search(share, "xsdt :: values/globals.test"))
        self.assertFalse(re.search(share, "xsdt :: compat/kinds.test"))
        args.filter = "catalog/"
        both = cell_plan.cell_lit_filter(XSDT, real, "-O3", "pie", args)
        self.assertFalse(re.search(both, "xsdt :: values/globals.test"))
        self.assertTrue(re.search(both, "xsdt :: catalog/gamma-lo12.test"))
        # A compiler outside the slice's pair runs every test of its cells.
        outside = cell_plan.cell_lit_filter(XSDT, toolchain("clang-19", arch="beta"), "-O3",
                                         "pie", args)
        self.assertEqual(outside, "catalog/")
        args.preset = "full"
        self.assertEqual(cell_plan.cell_lit_filter(XSDT, real, "-O3", "pie", args), "catalog/")

    def test_ctest_builds_the_runtime_once_per_arch(self):
        args = argparse.Namespace(preset="ctest", runtime_compiler=None,
                                  slice_compilers=["gcc-12", "clang-14"])
        arches = sorted({arch for arch, _ in ci_slice.arch_variants(cell_plan.REPO)})
        builders = {arch: {cell_plan.runtime_compiler(toolchain(c, arch=arch), args)
                           for c in ("gcc-12", "clang-14")}
                    for arch in arches}
        self.assertTrue(all(len(b) == 1 for b in builders.values()), builders)
        # Turning with the arch, so that each compiler builds it somewhere.
        self.assertEqual(set().union(*builders.values()), {"gcc-12", "clang-14"})
        self.assertIsNone(cell_plan.runtime_compiler(toolchain("clang-19", arch=arches[0]), args))
        args.runtime_compiler = "clang-14"
        self.assertEqual(cell_plan.runtime_compiler(toolchain("clang-19"), args), "clang-14")
        # The gate's candidate, in any preset, links the runtime its arch's
        # slice cells built.
        args.preset, args.runtime_compiler = "default", "slice"
        for arch in arches:
            self.assertEqual({cell_plan.runtime_compiler(toolchain("clang-19", arch=arch), args)},
                             builders[arch])
        args.runtime_compiler = None
        self.assertIsNone(cell_plan.runtime_compiler(toolchain("gcc-12", arch=arches[0]), args))

    def test_the_runtime_toolchain_is_the_file_beside_the_cells(self):
        args = argparse.Namespace(preset="default", runtime_compiler="clang-14",
                                  slice_compilers=[], work_dir="/nonexistent")
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("gcc-12-v-alpha", "clang-14-v-alpha"):
                with open(os.path.join(tmp, f"{name}.json"), "w") as f:
                    f.write("{}")
            variant = dict(toolchain("gcc-12-v"), variant="v")
            self.assertEqual(cell_plan.runtime_toolchain_path(
                os.path.join(tmp, "gcc-12-v-alpha.json"), variant, args),
                os.path.join(tmp, "clang-14-v-alpha.json"))
            own = dict(toolchain("clang-14-v"), variant="v")
            self.assertIsNone(cell_plan.runtime_toolchain_path(
                os.path.join(tmp, "clang-14-v-alpha.json"), own, args))

    def test_opt_and_link_replace_the_preset_axes(self):
        cells = plan("default", opt=["-O2", "-Oz"], link=["static"])
        self.assertEqual(cells, [("xsdt", "gcc-12", "-O2", "static"),
                                 ("xsdt", "clang-14", "-O2", "static"),
                                 ("xsdt", "clang-14", "-Oz", "static")])


def cell(impl, compiler, code, test="catalog/gamma-lo12.test", arch="gamma"):
    return {"implementation": impl, "compiler": compiler, "arch": arch,
            "tests": [{"name": test, "code": code}]}


class KnownBugCheck(unittest.TestCase):
    def test_hits_and_passes_are_listed_per_implementation(self):
        cells = {"sys-sdt.a.gcc-12.O0.pie": cell("sys-sdt", "gcc-12", "PASS"),
                 "sys-sdt.a.gcc-12.O2.pie": cell("sys-sdt", "gcc-12", "FAIL"),
                 "xsdt.a.gcc-12.O2.pie": cell("xsdt", "gcc-12", "PASS")}
        catalog, problems = known_bugs.catalog_summary(cells, [XSDT, SYS_SDT])
        self.assertEqual(problems, [])
        self.assertEqual(catalog["sys-sdt"]["catalog/gamma-lo12.test"]["hit"],
                         ["sys-sdt.a.gcc-12.O2.pie"])
        self.assertEqual(catalog["xsdt"]["catalog/gamma-lo12.test"]["passed"],
                         ["xsdt.a.gcc-12.O2.pie"])

    def test_a_known_bug_that_no_cell_hits_fails_the_run(self):
        cells = {"sys-sdt.a.gcc-12.O2.pie": cell("sys-sdt", "gcc-12", "PASS")}
        _, problems = known_bugs.catalog_summary(cells, [SYS_SDT])
        self.assertEqual(len(problems), 1)
        self.assertIn("known bug catalog/gamma-lo12.test of sys-sdt not reproduced", problems[0])

    def test_only_matching_compilers_are_held_to_a_known_bug(self):
        # clang-19 fixed the crash: passing there is not a problem.
        cells = {"k": cell("sys-sdt", "clang-19", "PASS", "catalog/beta-clang-crash.test",
                           "beta")}
        self.assertEqual(known_bugs.catalog_summary(cells, [SYS_SDT])[1], [])
        cells["k"]["compiler"] = "clang-14"
        self.assertEqual(len(known_bugs.catalog_summary(cells, [SYS_SDT])[1]), 1)

    def test_a_known_bug_outside_the_catalog_is_listed_and_judged(self):
        generator = dict(SYS_SDT, known_bugs=["dtrace/void-parameters.test"])
        cells = {"k": cell("sys-sdt", "gcc-12", "FAIL", "dtrace/void-parameters.test"),
                 "x": cell("xsdt", "gcc-12", "FAIL", "dtrace/arg-counts.test")}
        catalog, problems = known_bugs.catalog_summary(cells, [XSDT, generator])
        self.assertEqual(problems, [])
        self.assertEqual(catalog["sys-sdt"]["dtrace/void-parameters.test"]["hit"], ["k"])
        # A failing test that no adapter names stays out of the catalog.
        self.assertNotIn("xsdt", catalog)
        cells["k"]["tests"][0]["code"] = "PASS"
        self.assertEqual(len(known_bugs.catalog_summary(cells, [generator])[1]), 1)

    def test_a_known_bug_whose_test_did_not_run_is_not_judged(self):
        cells = {"k": cell("sys-sdt", "gcc-12", "UNSUPPORTED")}
        self.assertEqual(known_bugs.catalog_summary(cells, [SYS_SDT])[1], [])


class CacheKey(unittest.TestCase):
    def key(self, repo_file_text, opt="-O2", tool_text="run-once", soak=False,
            max_failures=None, preset="default", link="pie"):
        with tempfile.TemporaryDirectory() as tmp:
            inspect = os.path.join(tmp, "inspect")
            with open(inspect, "w") as f:
                f.write(repo_file_text)
            for tool in cell_cache.LIT_TOOLS:
                with open(os.path.join(tmp, tool), "w") as f:
                    f.write(tool_text)
            cell_cache._tree_digests.clear()
            args = argparse.Namespace(inspect=inspect, dtrace=inspect, lit=inspect,
                                      llvm_bin=tmp, tools=tmp,
                                      preset=preset,
                                      filter=None, num_shards=None, run_shard=None,
                                      slice_compilers=["gcc-12", "clang-14"],
                                      runtime_compiler=None,
                                      soak=soak, run_limit=None,
                                      max_failures=max_failures,
                                      max_processes_per_test=None)
            return cell_cache.cell_cache_key(XSDT, toolchain("gcc-12"), opt, link, args)

    def test_key_changes_with_an_input_and_an_option(self):
        self.assertEqual(self.key("a"), self.key("a"))
        self.assertNotEqual(self.key("a"), self.key("b"))
        self.assertNotEqual(self.key("a"), self.key("a", opt="-O3"))
        self.assertNotEqual(self.key("a"), self.key("a", tool_text="rebuilt"))
        # A soak run has tests that a run without --soak leaves out.
        self.assertNotEqual(self.key("a"), self.key("a", soak=True))
        # A cell stopped at its first failure ran fewer tests.
        self.assertNotEqual(self.key("a"), self.key("a", max_failures=1))
        # The ctest preset's cell runs its share of the tests, the full
        # preset's every test.
        self.assertNotEqual(self.key("a", preset="full", link="static"),
                            self.key("a", preset="ctest", link="static"))


class Parallelism(unittest.TestCase):
    def test_cells_side_by_side_first_then_lit_workers(self):
        self.assertEqual(cell_plan.parallelism(80, 2), (2, 1))
        self.assertEqual(cell_plan.parallelism(1, 2), (1, 2))
        self.assertEqual(cell_plan.parallelism(3, 8), (3, 2))
        self.assertEqual(cell_plan.parallelism(0, 2), (1, 2))

    def test_explicit_choices_win(self):
        self.assertEqual(cell_plan.parallelism(80, 2, parallel_cells=1), (1, 2))
        self.assertEqual(cell_plan.parallelism(80, 2, jobs=4), (2, 4))


class RunOrder(unittest.TestCase):
    def test_side_by_side_cells_belong_to_different_toolchains(self):
        gcc, clang = toolchain("gcc-12"), toolchain("clang-14")
        cells = [(XSDT, path, tc, opt, "pie") for path, tc in (("gcc.json", gcc),
                                                                ("clang.json", clang))
                 for opt in ("-O0", "-O1", "-O2")]
        order = cell_plan.run_order(cells)
        self.assertEqual(sorted(order, key=str), sorted(cells, key=str))
        self.assertEqual([(c[1], c[3]) for c in order],
                         [("gcc.json", "-O0"), ("clang.json", "-O0"),
                          ("gcc.json", "-O1"), ("clang.json", "-O1"),
                          ("gcc.json", "-O2"), ("clang.json", "-O2")])

    def test_implementations_keep_their_order(self):
        reference = dict(XSDT, name="sys-sdt", role="reference")
        tc = toolchain("gcc-12")
        cells = [(reference, "a.json", tc, "-O0", "pie"), (XSDT, "a.json", tc, "-O2", "pie")]
        self.assertEqual([c[0]["name"] for c in cell_plan.run_order(cells)],
                         ["sys-sdt", "xsdt"])


class CellSources(unittest.TestCase):
    def test_an_arch_reads_the_directories_it_shares(self):
        with tempfile.TemporaryDirectory() as repo:
            for arch, shares in (("first", ["common"]), ("second", []), ("third", [])):
                os.makedirs(os.path.join(repo, "arches", arch))
                with open(os.path.join(repo, "arches", arch, "arch.json"), "w") as f:
                    json.dump({"triple": f"{arch}-linux-gnu", "shares": shares}, f)
            os.makedirs(os.path.join(repo, "arches", "common"))
            saved = cell_cache.REPO
            cell_cache.REPO = repo
            try:
                first = cell_cache.cell_sources("first")
                second = cell_cache.cell_sources("second")
                unknown = cell_cache.cell_sources("nosuch")
            finally:
                cell_cache.REPO = saved
        self.assertEqual(first[-2:], ["arches/first", "arches/common"])
        self.assertEqual(second[-1], "arches/second")
        self.assertNotIn("arches/common", second)
        self.assertFalse(any("third" in d for d in first + second))
        self.assertEqual(unknown[-1], "arches/nosuch")

    def test_a_missing_arch_json_makes_the_cell_missing(self):
        args = argparse.Namespace(llvm_bin="/nonexistent", lit="/nonexistent",
                                  inspect="/nonexistent", tools="/nonexistent")
        missing = cell_run.missing_tools(XSDT, toolchain("gcc-12", arch="nosuch"), args)
        self.assertEqual(len(missing), 1)
        self.assertRegex(missing[0], r"^arch nosuch: .*arches/nosuch/arch.json: cannot read")


class Phases(unittest.TestCase):
    def test_build_and_run_go_to_the_test_that_owns_the_path(self):
        with tempfile.TemporaryDirectory() as cell:
            with open(os.path.join(cell, "phases.log"), "w") as f:
                f.write(f"setup\t4.0\tconfigured\tc\n"
                        f"build\t1.5\tcompiled\t{cell}/notes/Output/a.test.tmp\n"
                        f"build\t0.5\tcached\t{cell}/values/Output/a.test.tmp\n"
                        f"run\t2.0\tran\tqemu-x -L /usr/x {cell}/values/Output/a.test.tmp 3\n"
                        f"run\t0.25\tran\t/elsewhere/prog\n"
                        "garbage line\n")
            tests = [{"name": "notes/a.test", "elapsed": 3.0},
                     {"name": "values/a.test", "elapsed": 4.0}]
            phases = cell_phases.cell_phases(cell, tests)
        self.assertEqual((phases["setup"], phases["build"], phases["run"]), (4.0, 2.0, 2.2))
        # check: the tests' 7 s minus the 4.25 s of builds and runs
        self.assertEqual((phases["tests"], phases["check"]), (7.0, 2.8))
        self.assertEqual(phases["counts"], {"setup:configured": 1, "build:compiled": 1,
                                            "build:cached": 1, "run:ran": 2})
        self.assertEqual(tests[0], {"name": "notes/a.test", "elapsed": 3.0, "build": 1.5})
        self.assertEqual(tests[1], {"name": "values/a.test", "elapsed": 4.0, "build": 0.5,
                                    "run": 2.0})

    def test_a_cell_without_a_log_has_zero_phases(self):
        with tempfile.TemporaryDirectory() as cell:
            phases = cell_phases.cell_phases(cell, [{"name": "x.test", "elapsed": 1.0}])
        self.assertEqual((phases["build"], phases["run"], phases["check"]), (0.0, 0.0, 1.0))


class ProcessCount(unittest.TestCase):
    def write(self, tmp, text):
        path = os.path.join(tmp, "count")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_the_count_is_read_from_perf_stat_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = self.write(tmp, "# started on Sat\n\n1814,,sched:sched_process_exec,"
                                   "41000000,100.00,,\n")
            counter = cell_phases.ProcessCounter("perf", None)
            self.assertEqual(cell_phases.process_phases(counter, path, 271),
                             {"processes": 1814, "processes_per_test": 6.7})

    def test_a_count_perf_did_not_write_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = self.write(tmp, "<not counted>,,sched:sched_process_exec,0,0.00,,\n")
            phases = cell_phases.process_phases(cell_phases.ProcessCounter("perf", None), path, 10)
        self.assertIn("processes_missing", phases)
        self.assertNotIn("processes", phases)

    def test_above_the_bound_fails_the_cell(self):
        failures = cell_phases.process_bound_failures(
            {"processes": 2000, "processes_per_test": 7.4}, 7.0)
        self.assertEqual([f["code"] for f in failures], ["PROCESSES"])
        self.assertIn("7.4 processes started per test (2000 in all), bound 7",
                      failures[0]["detail"]["summary"])
        self.assertEqual(cell_phases.process_bound_failures(
            {"processes": 1814, "processes_per_test": 7.0}, 7.0), [])

    def test_a_bound_that_cannot_be_checked_fails_as_missing(self):
        failures = cell_phases.process_bound_failures({"processes_missing": "no perf"}, 7.0)
        self.assertEqual([f["code"] for f in failures], ["PROCESSES"])
        self.assertTrue(failures[0]["detail"]["summary"].startswith("MISSING: "))
        # Without a bound, nothing is judged.
        self.assertEqual(cell_phases.process_bound_failures({"processes_missing": "no perf"},
                                                       None), [])



class ConsumerSummary(unittest.TestCase):
    """cell_run.consumer_summary: a consumer's tests in one cell, summed."""

    def summary(self, codes, missing=None, unsupported=None, known_limits=0):
        tests = [{"name": f"consumers/gdb-p{i}.test", "code": c} for i, c in enumerate(codes)]
        if known_limits:
            tests[0]["known_limits"] = known_limits
        tests.append({"name": "values/p.test", "code": "FAIL"})  # not a consumer's
        with unittest.mock.patch.object(cell_run.consumers, "missing", lambda c, e: missing), \
                unittest.mock.patch.object(cell_run.consumers, "unsupported",
                                           lambda c, e: unsupported):
            return cell_run.consumer_summary(tests, emulated=False, arch="toyarch")["gdb"]

    def test_all_passed(self):
        self.assertEqual(self.summary(["PASS", "PASS", "UNSUPPORTED"])["status"], "ok")

    def test_a_failure_fails(self):
        entry = self.summary(["PASS", "FAIL"])
        self.assertEqual((entry["status"], entry["passed"], entry["failed"]), ("failed", 1, 1))

    def test_expected_failures_are_the_consumers_limit(self):
        self.assertEqual(self.summary(["XFAIL", "XFAIL"])["status"], "limit")
        self.assertEqual(self.summary(["XFAIL", "XPASS"])["status"], "failed")

    def test_missing_is_never_a_pass(self):
        entry = self.summary(["UNSUPPORTED"], missing="not installed")
        self.assertEqual((entry["status"], entry["missing"]), ("missing", "not installed"))

    def test_known_limits_in_passing_tests_are_not_ok(self):
        entry = self.summary(["PASS", "PASS"], known_limits=6)
        self.assertEqual((entry["status"], entry["known_limits"]), ("limit", 6))

    def test_an_arch_the_consumer_does_not_read_is_not_applicable(self):
        entry = self.summary(["UNSUPPORTED"], unsupported="host arch only")
        self.assertEqual((entry["status"], entry["not_applicable_reason"]),
                         ("n/a", "host arch only"))

    def test_the_limit_count_comes_from_check_py_summary_line(self):
        line = ("bpftrace: 17 probes listed, 17 sites, 28 arguments specified, 22 read as "
                "the spec says (22 of them without a location to compare), 6 at bpftrace's "
                "known limits, 0 findings")
        self.assertEqual(cell_run.KNOWN_LIMITS_LINE.findall(line), ["6"])


class ConsumerPrograms(unittest.TestCase):
    """A test over several programs (consumers/*-corpus.test) counts each."""

    OUTPUT = ("perf: aggregates: 5 probes listed, 5 sites, 9 arguments specified, 9 read as "
              "the spec says (0 of them without a location to compare), 0 at perf's known "
              "limits, 0 findings\n"
              "perf: constants: 17 probes listed, 17 sites, 28 arguments specified, 3 read as "
              "the spec says (0 of them without a location to compare), 23 at perf's known "
              "limits, 2 findings\n"
              "perf: cxx-features: 0 probes listed, not built, 1 findings\n"
              "perf: 3 programs, 22 probes listed, ..., 23 at perf's known limits, 3 findings\n")

    def test_each_program_line_is_judged(self):
        # lit echoes the test's CHECK lines: they are not the consumer's.
        output = self.OUTPUT + ("CHECK: perf: wide-values: {{[1-9][0-9]*}} probes listed, "
                                "..., 0 findings\nCHECK: gdb: 17 probes listed, 17 hits, "
                                "28 arguments passed, ..., 0 findings\n")
        judged = {n: (limits, found) for n, limits, found in
                  cell_run.program_lines("perf", output)}
        self.assertEqual(judged, {"aggregates": ("0", "0"), "constants": ("23", "2"),
                                  "cxx-features": ("", "1")})

    def test_the_summary_counts_programs_not_tests(self):
        tests = [{"name": "consumers/perf-corpus.test", "code": "FAIL",
                  "programs": {"passed": 1, "failed": 2}},
                 {"name": "consumers/perf-sys-sdt-compat.test", "code": "PASS"}]
        with unittest.mock.patch.object(cell_run.consumers, "missing", lambda c, e: None), \
                unittest.mock.patch.object(cell_run.consumers, "unsupported", lambda c, e: None):
            entry = cell_run.consumer_summary(tests, emulated=False, arch="toyarch")["perf"]
        self.assertEqual((entry["passed"], entry["failed"], entry["status"]), (2, 2, "failed"))


if __name__ == "__main__":
    unittest.main()
