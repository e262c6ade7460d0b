"""ci/port-status on deliberately incomplete arches (fixtures/arches/).

Each fixture is an arches/<name>/ directory of a port in progress, for the
machine the tests run on: the test writes the host's triple (gcc
-dumpmachine) into a copy of its arch.json, so that the host's gcc-12 is
the port's toolchain and no emulator is needed.

  halfport   arch.json and a backend header whose site is the assembler's
             one `nop`, where arch.json expects an 8-byte NOP on an 8-byte
             boundary; no descriptor, no runtime
  noheader   arch.json alone
  badheader  a backend header that cannot print an argument
  badfield   an arch.json without "data_model" and with a short trap

The report must name every item, say which are missing and why, and never
crash; the status is 1 for an incomplete port, 2 for no arch at all.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import CI_DIR, fixture_path, load_script

PORT_STATUS = os.path.join(CI_DIR, "port-status")
ITEMS = ["data file", "toolchain", "backend header", "notes", "sites", "descriptor", "specs",
         "runtime", "values", "trap mode", "jump mode", "icache flush", "consumers"]


def host_triple():
    return subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True,
                          check=True).stdout.strip()


class PortStatusOnFixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.mkdtemp(prefix="port-status-test-")
        cls.arches = os.path.join(cls.temp, "arches")
        shutil.copytree(fixture_path("arches"), cls.arches)
        triple = host_triple()
        for name in os.listdir(cls.arches):
            path = os.path.join(cls.arches, name, "arch.json")
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace("HOST-TRIPLE", triple))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.temp)

    def report(self, arch):
        """(exit status, {item: (status, rest of the line)}, whole output)."""
        result = subprocess.run(
            [sys.executable, PORT_STATUS, arch, "--arches-dir", self.arches, "--work-dir",
             os.path.join(self.temp, "work", arch), "--build-dir",
             os.path.join(self.temp, "no-build")],
            capture_output=True, text=True, timeout=600)
        self.assertNotIn("Traceback", result.stderr)
        items = {}
        for line in result.stdout.splitlines():
            match = re.match(r"^  (\S+(?: \S+)?)\s{2,}(ok|FAIL|missing|not checked|skipped)\s*(.*)$",
                             line)
            if match:
                items[match.group(1)] = (match.group(2), match.group(3))
        return result.returncode, items, result.stdout

    def assertItem(self, items, item, status, *phrases):
        self.assertIn(item, items)
        self.assertEqual(items[item][0], status, f"{item}: {items[item]}")
        for phrase in phrases:
            self.assertIn(phrase, items[item][1], f"{item}: {items[item]}")

    def test_half_port_says_what_is_missing_item_by_item(self):
        code, items, out = self.report("halfport")
        self.assertEqual(code, 1, out)
        self.assertEqual(list(items), ITEMS, out)
        self.assertItem(items, "data file", "ok")
        self.assertItem(items, "toolchain", "ok")
        self.assertItem(items, "backend header", "ok")
        self.assertItem(items, "notes", "ok", "4 probes")
        # The site holds the assembler's nop, not arch.json's 8 bytes.
        self.assertItem(items, "sites", "FAIL", "port:", "expected arch.json expect.site_nop",
                        "0f 0b 0f 0b 0f 0b 0f 0b")
        self.assertItem(items, "descriptor", "missing", "halfport/descriptor.cpp",
                        "docs/porting.md, step 6")
        self.assertItem(items, "specs", "not checked", "needs descriptor")
        self.assertItem(items, "runtime", "missing", "halfport/runtime/machdep.cpp")
        for item in ("values", "trap mode", "jump mode", "icache flush", "consumers"):
            self.assertItem(items, item, "not checked", "descriptor", "runtime")
        self.assertIn("port-status: 4 of 13 items ok; first to fix: sites", out)

    def test_data_file_alone_stops_at_the_backend_header(self):
        code, items, out = self.report("noheader")
        self.assertEqual(code, 1, out)
        self.assertItem(items, "toolchain", "ok")
        self.assertItem(items, "backend header", "missing",
                        "noheader/include/xsdt/arch/usdt.h", "docs/porting.md, step 3")
        self.assertItem(items, "notes", "not checked", "needs backend header")
        self.assertItem(items, "sites", "not checked", "needs notes")

    def test_header_that_does_not_compile_gives_the_compiler_error(self):
        code, items, out = self.report("badheader")
        self.assertEqual(code, 1, out)
        self.assertItem(items, "backend header", "FAIL", "compiling a probe program", "error")
        self.assertItem(items, "notes", "not checked", "needs backend header")

    def test_damaged_data_file_names_each_bad_field(self):
        code, items, out = self.report("badfield")
        self.assertEqual(code, 1, out)
        self.assertItem(items, "data file", "FAIL", "data_model",
                        "expect.site_trap is not as long as expect.site_nop")
        self.assertItem(items, "toolchain", "not checked", "needs data file")
        self.assertItem(items, "descriptor", "not checked", "needs data file")

    def test_unknown_arch_is_a_usage_error(self):
        result = subprocess.run([sys.executable, PORT_STATUS, "nosuch", "--arches-dir",
                                 self.arches], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no arch directory", result.stderr)
        self.assertIn("halfport", result.stderr)
        self.assertEqual(result.stdout, "")


class FilingSuiteResults(unittest.TestCase):
    """How the suite's tests become items: file_suite_results on a
    results.json written here."""

    def setUp(self):
        self.port_status = load_script("port-status", "port_status")
        self.temp = tempfile.TemporaryDirectory(prefix="port-status-results-")

    def tearDown(self):
        self.temp.cleanup()

    def file(self, cells):
        path = os.path.join(self.temp.name, "results.json")
        with open(path, "w") as f:
            json.dump({"schema": 2, "cells": cells}, f)
        report = self.port_status.Report()
        self.port_status.file_suite_results(report, "toy", "gcc-12", path)
        return report.items

    def test_tests_are_filed_by_directory_and_a_failure_wins(self):
        items = self.file({"xsdt.toy.gcc-12.O2.pie": {"status": "failed", "tests": [
            {"name": "values/a.test", "code": "PASS"},
            {"name": "values/b.test", "code": "PASS"},
            {"name": "jump/patch-bytes.test", "code": "FAIL",
             "detail": {"summary": "site 0x10 holds cc, not the NOP"}},
            {"name": "jump/batching.test", "code": "FAIL"},
            {"name": "jump/cache-flush.test", "code": "PASS"},
            {"name": "jump/consumer.test", "code": "UNSUPPORTED"},
            {"name": "runtime/site-bytes.test", "code": "PASS"},
            {"name": "catalog/some-bug.test", "code": "FAIL"},
        ]}, "xsdt.toy.gcc-12.O0.pie": {"tests": [{"name": "trap/x.test", "code": "FAIL"}]}})
        self.assertEqual(items["values"], ("ok", "2 suite tests pass", ""))
        self.assertEqual(items["jump mode"], ("FAIL", "site 0x10 holds cc, not the NOP "
                                              "(and 1 more)", "jump/patch-bytes.test"))
        self.assertEqual(items["icache flush"][0], "ok")
        self.assertEqual(items["trap mode"][0], "ok")
        # Nothing ran for consumers: not checked, and not a pass.
        self.assertEqual(items["consumers"][0], "not checked")
        self.assertIn("every one of its 1 suite tests is unsupported", items["consumers"][1])
        self.assertNotIn("catalog", str(items))

    def test_the_cells_of_a_slice_are_filed_together(self):
        paths = []
        for name, cells in (("gcc.json", {"xsdt.toy.gcc-12.O2.nopie": {"tests": [
                                {"name": "jump/batching.test", "code": "PASS"}]},
                                "xsdt.other.gcc-12.O2.pie": {"tests": [
                                    {"name": "values/a.test", "code": "FAIL"}]}}),
                            ("clang.json", {"xsdt.toy.clang-14.O2.pie": {"tests": [
                                {"name": "values/a.test", "code": "PASS"},
                                {"name": "runtime/site-bytes.test", "code": "FAIL"}]}})):
            paths.append(os.path.join(self.temp.name, name))
            with open(paths[-1], "w") as f:
                json.dump({"schema": 2, "cells": cells}, f)
        report = self.port_status.Report()
        self.port_status.file_suite_results(report, "toy", "gcc-12", paths, every_cell=True)
        self.assertEqual(report.items["jump mode"][0], "ok")
        self.assertEqual(report.items["values"], ("ok", "1 suite tests pass", ""))
        self.assertEqual(report.items["trap mode"][:3:2], ("FAIL", "runtime/site-bytes.test"))

    def test_a_missing_cell_is_missing(self):
        items = self.file({"xsdt.toy.gcc-12.O2.pie": {
            "status": "missing", "missing": ["toy-linux-gnu-gcc-12"], "tests": []}})
        for item in ("values", "trap mode", "jump mode", "icache flush", "consumers"):
            self.assertEqual(items[item][0], "missing")
            self.assertIn("toy-linux-gnu-gcc-12", items[item][1])

    def test_a_results_file_without_the_cell_fails_every_suite_item(self):
        items = self.file({"xsdt.other.gcc-12.O2.pie": {"tests": []}})
        self.assertEqual(items["values"][0], "FAIL")
        self.assertIn("no cell xsdt.toy.gcc-12.O2.pie", items["values"][1])


if __name__ == "__main__":
    unittest.main()
