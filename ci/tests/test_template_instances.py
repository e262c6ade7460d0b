"""lit-tests/tools/template_instances.py: the consumer tests made from
templates, on a made-up directory and on the real one."""
import os
import tempfile
import unittest

import helpers  # noqa: F401  (puts ci/ on sys.path)
import ci_slice  # noqa: F401  (puts lit-tests/tools on sys.path)
import template_instances

REPO = os.path.dirname(helpers.CI_DIR)
CONSUMERS = os.path.join(REPO, "lit-tests", "consumers")


class Instances(unittest.TestCase):
    def directory(self, instances, template="## a @thing@\nRUN: %consumer @thing@\n"):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        with open(os.path.join(tmp.name, "instances.toml"), "w") as f:
            f.write(instances)
        with open(os.path.join(tmp.name, "t.test.in"), "w") as f:
            f.write(template)
        return tmp.name

    def test_each_instance_is_the_template_with_its_values(self):
        d = self.directory('[t]\ntest = "x-@thing@.test"\n'
                           'instances = [{thing = "a"}, {thing = "b", requires = "f"}]\n')
        self.assertEqual(template_instances.generated_tests(d), {
            "x-a.test": "## a a\nRUN: %consumer a\n",
            "x-b.test": "## a b\nRUN: %consumer b\nREQUIRES: f\n"})

    def test_a_placeholder_without_a_value_is_an_error(self):
        d = self.directory('[t]\ntest = "x-@thing@.test"\ninstances = [{thing = "a"}]\n',
                           "RUN: %consumer @thing@ @count@\n")
        with self.assertRaisesRegex(template_instances.TemplateError,
                                    r"x-a.test: no value for @count@"):
            template_instances.generated_tests(d)

    def test_two_instances_of_one_name_and_a_missing_template_are_errors(self):
        d = self.directory('[t]\ntest = "x.test"\ninstances = [{thing = "a"}, {thing = "b"}]\n')
        with self.assertRaisesRegex(template_instances.TemplateError, "two instances make x.test"):
            template_instances.generated_tests(d)
        d = self.directory('[u]\ntest = "x.test"\ninstances = [{thing = "a"}]\n')
        with self.assertRaisesRegex(template_instances.TemplateError, "no template u.test.in"):
            template_instances.generated_tests(d)

    def test_no_instances_file_no_tests(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(template_instances.generated_tests(d), {})

    def test_the_consumer_tests(self):
        ## Every consumer that reads the files over the corpus and on
        ## sys-sdt-compat, gdb on fourteen programs, three live tracers;
        ## no instance shadows a hand-written test, every script checks.
        tests = template_instances.generated_tests(CONSUMERS)
        self.assertEqual(len(tests), 27)
        for consumer in ("bcc", "bpftrace", "perf", "readelf", "stap"):
            self.assertIn(f"REQUIRES: consumer-{consumer}\n", tests[f"{consumer}-corpus.test"])
            self.assertIn(f"{consumer}-sys-sdt-compat.test", tests)
        self.assertIn("%build-corpus frame-pointer -o %t", tests["gdb-frame-pointer-keep.test"])
        self.assertIn("hits, 120 arguments passed", tests["gdb-register-pressure.test"])
        self.assertIn("REQUIRES: xsdt-probe-api", tests["gdb-sys-sdt-compat.test"])
        for name, script in tests.items():
            self.assertFalse(os.path.exists(os.path.join(CONSUMERS, name)), name)
            self.assertIn("| FileCheck %s", script, name)
            self.assertIn("CHECK: ", script, name)


if __name__ == "__main__":
    unittest.main()
