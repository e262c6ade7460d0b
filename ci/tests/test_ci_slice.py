"""ci/ci_slice.py: CI's slice runs every test of a made-up suite, each
shared test exactly once per arch variant and only where its directives let
it run, the compiler's checks in every cell."""
import os
import re
import tempfile
import unittest

import helpers  # noqa: F401  (puts ci/ on sys.path)
import ci_slice

SUITE = {
    "catalog/cost.test": "",
    "values/globals.test": "",
    "compat/kinds.test": "",
    "sdt-api/forms.test": "",
    "dtrace/enabled.test": "",
    "dtrace/errors/missing-paren.test": "",
    "notes/layout.test": "",
    "notes/bias.test": "# UNSUPPORTED: link-static, link-shared\n",
    "runtime/discover.test": "",
    "runtime/dlopen.test": "# REQUIRES: opt-O2, link-pie\n",
    "faults/leaks.test": "# REQUIRES: native, lsan\n# UNSUPPORTED: link-shared\n",
    "jump/frame.test": "# REQUIRES: impl-xsdt, compiler-gcc, opt-O2, link-pie\n",
    "jump/flush.test": "# UNSUPPORTED: compiler-clang && sys-sdt-clang-crash\n",
    "consumers/gdb.test": "# XFAIL: gdb-no-solib-events && link-shared\n",
    "consumers/live.test": "# REQUIRES: native, opt-O0 || opt-O2, link-pie || link-shared\n",
    "consumers/not-clang-static.test": "# UNSUPPORTED: compiler-clang && link-static\n",
    "tools/tests/own.test": "",
}
SHARED = sorted(t for t in SUITE if t.split("/")[0] in
                ("compat", "dtrace", "notes", "runtime", "faults", "jump", "consumers"))
FAMILIES = ["gcc", "clang"]


class Slice(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.suite = self.tmp.name
        for path, text in SUITE.items():
            full = os.path.join(self.suite, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write("## a made-up test\n" + text)

    def tearDown(self):
        self.tmp.cleanup()

    def selected(self, role, opt, link, index, turn, families=FAMILIES, known_bugs=()):
        regex = ci_slice.cell_filter(self.suite, role, opt, link, index, families, turn,
                                     known_bugs)
        if regex is None:
            return sorted(SUITE)
        return sorted(t for t in SUITE if re.search(regex, f"xsdt :: {t}"))

    def runs(self, role, turn, families=FAMILIES, known_bugs=()):
        """{test: [(compiler, opt, link), ...]} over every cell of one arch."""
        where = {}
        for index, _ in enumerate(families):
            for opt, link in ci_slice.cells(role, index, len(families), turn):
                for test in self.selected(role, opt, link, index, turn, families,
                                          known_bugs):
                    where.setdefault(test, []).append((index, opt, link))
        return where

    def test_each_compiler_runs_O2_pie_one_runs_one_more_opt_one_more_link(self):
        every = [("-O2", "pie"), ("-O0", "pie"), ("-O1", "pie"), ("-O3", "pie"),
                 ("-Os", "pie"), ("-O2", "nopie"), ("-O2", "static"), ("-O2", "shared")]
        self.assertEqual(ci_slice.cells("subject"), every)
        links = [("-O2", l) for l in ("nopie", "static", "shared")]
        for turn in range(8):
            gcc = ci_slice.cells("subject", 0, 2, turn)
            clang = ci_slice.cells("subject", 1, 2, turn)
            self.assertEqual(gcc[0], ("-O2", "pie"))
            self.assertEqual(clang[0], ("-O2", "pie"))
            others = [c for c in gcc[1:] + clang[1:] if c[0] != "-O2"]
            self.assertEqual(len(others), 1, (turn, gcc, clang))
            self.assertEqual(others[0][1], "pie")
            dealt = [c for c in gcc[1:] + clang[1:] if c[0] == "-O2"]
            self.assertEqual(len(dealt), 1, (turn, gcc, clang))
        # Over eight arches each compiler meets every opt level, and over
        # six every link mode.
        for index in (0, 1):
            met = {c for turn in range(8) for c in ci_slice.cells("subject", index, 2, turn)}
            self.assertEqual(met, set(every))
        # One compiler: it runs the one link mode of every arch.
        self.assertEqual(ci_slice.cells("subject", 0, 1, 3)[2:], [links[(3 + 1) % 3]])
        self.assertEqual(ci_slice.cells("reference", 1, 2, 1), [("-O2", "pie")])

    def test_shared_tests_are_the_directories_not_run_everywhere(self):
        self.assertEqual(list(ci_slice.shared_tests(self.suite)), SHARED)

    def test_the_instances_of_a_template_are_shared_tests_dealt_by_their_directives(self):
        consumers = os.path.join(self.suite, "consumers")
        with open(os.path.join(consumers, "instances.toml"), "w") as f:
            f.write('[live]\ntest = "live-@tracer@.test"\n'
                    'instances = [{tracer = "one"}, {tracer = "two"}, {tracer = "three"}]\n')
        with open(os.path.join(consumers, "live.test.in"), "w") as f:
            f.write("## made up\n# REQUIRES: link-pie || link-shared\nRUN: %consumer @tracer@\n")
        shared = ci_slice.shared_tests(self.suite)
        made = ["consumers/live-one.test", "consumers/live-three.test", "consumers/live-two.test"]
        self.assertEqual(list(shared), sorted(SHARED + made))
        self.assertIn("RUN: %consumer two", shared["consumers/live-two.test"])
        for turn in range(8):
            placed = []
            for index, _ in enumerate(FAMILIES):
                for opt, link in ci_slice.cells("subject", index, len(FAMILIES), turn):
                    regex = ci_slice.cell_filter(self.suite, "subject", opt, link, index,
                                                 FAMILIES, turn)
                    placed += [(test, link) for test in made
                               if re.search(regex, f"xsdt :: {test}")]
            self.assertEqual(sorted(t for t, _ in placed), made, turn)
            self.assertTrue(all(link in ("pie", "shared") for _, link in placed), placed)

    def test_compiler_checks_run_in_every_cell_and_sdt_api_per_compiler(self):
        for turn in range(8):
            where = self.runs("subject", turn)
            for test in ("catalog/cost.test", "values/globals.test"):
                # Both O2 PIE cells, the one other opt level, the one link.
                self.assertEqual(len(where[test]), 2 + 1 + 1, test)
            self.assertEqual(where["sdt-api/forms.test"], [(0, "-O2", "pie"), (1, "-O2", "pie")])

    def test_each_shared_test_runs_once_per_arch_where_its_directives_allow(self):
        for turn in range(8):
            where = self.runs("subject", turn)
            for test in SHARED:
                self.assertEqual(len(where[test]), 1, (turn, test, where.get(test)))
                index, opt, link = where[test][0]
                self.assertEqual(opt, "-O2")
                if test.startswith(("dtrace/", "compat/")):
                    self.assertEqual(link, "pie", test)
            self.assertNotIn(where["notes/bias.test"][0][2], ("static", "shared"))
            self.assertEqual(where["runtime/dlopen.test"][0][2], "pie")
            self.assertIn(where["consumers/live.test"][0][2], ("pie", "shared"))
            self.assertNotEqual(where["consumers/not-clang-static.test"][0][::2], (1, "static"))
            self.assertNotEqual(where["faults/leaks.test"][0][2], "shared")
            self.assertEqual(where["jump/frame.test"][0][:3:2], (0, "pie"))
            self.assertNotIn("tools/tests/own.test", where)

    def test_over_the_arches_a_shared_test_meets_every_slot(self):
        # One link cell an arch: the link slot comes every third arch, each
        # time another (compiler, mode), all six over 18 arches.
        slots = {self.runs("subject", turn)["runtime/discover.test"][0][::2]
                 for turn in range(18)}
        self.assertEqual(slots, {(c, l) for c in (0, 1) for l in ci_slice.LINKS})

    def test_over_the_arches_every_compiler_meets_every_link_mode(self):
        for index in (0, 1):
            met = {c for turn in range(6) for c in ci_slice.cells("subject", index, 2, turn)
                   if c[1] != "pie"}
            self.assertEqual(met, {("-O2", l) for l in ("nopie", "static", "shared")}, index)
        compilers = {self.runs("subject", turn)["dtrace/enabled.test"][0][0]
                     for turn in range(2)}
        self.assertEqual(compilers, {0, 1})

    def test_a_reference_runs_its_catalog_and_known_bugs_in_one_compilers_O2_pie_cell(self):
        known = ["dtrace/enabled.test", "catalog/cost.test gcc-*"]
        for turn in range(4):
            where = self.runs("reference", turn, known_bugs=known)
            for test in ["catalog/cost.test", "dtrace/enabled.test"]:
                self.assertEqual(where[test], [(turn % 2, "-O2", "pie")], (turn, test))
            # Its other failures would be findings, not CI's: the main job
            # runs them.
            self.assertEqual(sorted(where), ["catalog/cost.test", "dtrace/enabled.test"])
            # A test whose name another one's begins with is not taken along.
            self.assertNotIn("dtrace/errors/missing-paren.test", where)
        # A compiler outside the slice runs it too.
        self.assertEqual(ci_slice.cells("reference"), [("-O2", "pie")])

    def test_a_compiler_outside_the_slice_runs_everything(self):
        self.assertIsNone(ci_slice.cell_filter(self.suite, "subject", "-O0", "pie", None,
                                               FAMILIES, 0))

    def test_one_compiler_takes_every_shared_test(self):
        where = self.runs("subject", 5, families=["clang"])
        for test in SHARED:
            self.assertEqual(len(where[test]), 1, test)
        self.assertNotIn(where["notes/bias.test"][0][2], ("static", "shared"))

    def test_only_items_of_the_axes_are_read(self):
        allowed = ci_slice.slot_allowed
        self.assertTrue(allowed("REQUIRES: link-pie || link-shared", "gcc", "shared"))
        self.assertFalse(allowed("REQUIRES: link-pie || link-shared", "gcc", "static"))
        self.assertFalse(allowed("UNSUPPORTED: !(compiler-gcc)", "clang", "pie"))
        self.assertTrue(allowed("UNSUPPORTED: compiler-clang && sys-sdt-clang-crash",
                                "clang", "pie"))
        self.assertFalse(allowed("REQUIRES: opt-O0, native", "gcc", "pie"))
        self.assertTrue(allowed("REQUIRES: consumer-gdb || link-static", "gcc", "pie"))

    def test_filters_and(self):
        both = ci_slice.and_filters("values/", r":: (?:catalog|values)/")
        self.assertTrue(re.search(both, "xsdt :: values/globals.test"))
        self.assertFalse(re.search(both, "xsdt :: catalog/cost.test"))
        self.assertFalse(re.search(both, "xsdt :: run/values/x.test"))
        self.assertEqual(ci_slice.and_filters(None, "a"), "a")
        self.assertIsNone(ci_slice.and_filters(None, None))


if __name__ == "__main__":
    unittest.main()
