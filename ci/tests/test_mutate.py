"""ci/mutate's generated list on a made-up tree (nothing is run)."""
import os
import tempfile
import unittest

from helpers import load_script

mutate = load_script("mutate", "mutate")


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class LineMutations(unittest.TestCase):
    def test_each_operator_and_constant_once(self):
        self.assertEqual(mutate.line_mutations("  if (a == b && n < 4) return true;"), [
            ("  if (a != b && n < 4) return true;", "== -> !="),
            ("  if (a == b && n <= 4) return true;", "< -> <="),
            ("  if (a == b || n < 4) return true;", "&& -> ||"),
            ("  if (a == b && n < 4) return false;", "true -> false"),
            ("  if (a == b && n < 5) return true;", "4 -> 5")])

    def test_comments_strings_and_directives_are_left_alone(self):
        self.assertEqual(mutate.line_mutations("// a == b"), [])
        self.assertEqual(mutate.line_mutations("#define N 4"), [])
        self.assertEqual(mutate.line_mutations('  f("a == b", 4);'), [])
        self.assertEqual(mutate.line_mutations("  x = y;  // 4 == 4"),
                         [("  ;", "statement dropped")])

    def test_swapped_operands_and_arguments(self):
        self.assertEqual(mutate.line_mutations("  return end - start;"), [
            ("  return end + start;", "- -> +"),
            ("  return start - end;", "operands of - swapped: start, end")])
        self.assertIn(("  copy(src, dst);", "arguments swapped: src, dst"),
                      mutate.line_mutations("  copy(dst, src);"))

    def test_a_statement_of_its_own_is_dropped_never_a_declaration_or_return(self):
        for statement in ("  x = y;", "  n += 4;", "  count++;",
                          "  flush_icache(a, n);", "  t.push_back(x);"):
            self.assertIn(("  ;", "statement dropped"), mutate.line_mutations(statement),
                          statement)
        for kept in ("  int x = 4;", "  return f(x);", "  const auto v = g();",
                     "  std::size_t n = 0;", "  if (a) f(b);", "  f(a,", "  } else {"):
            self.assertNotIn(("  ;", "statement dropped"),
                             [(r.strip() and "  ;", c) for r, c in mutate.line_mutations(kept)],
                             kept)
        # The end of a statement that began on the line before.
        self.assertEqual(mutate.line_mutations("      reg.full_name;", "  return a &&"), [])
        self.assertIn(("  ;", "statement dropped"), mutate.line_mutations("  x = y;", "  if (a)"))

    def test_names_holding_true_or_digits_are_not_changed(self):
        self.assertEqual(mutate.line_mutations("  untrue_x = r12;"),
                         [("  ;", "statement dropped")])


class Generated(unittest.TestCase):
    def tree(self, root):
        for arch in ("alpha", "beta"):
            write(root, f"arches/{arch}/arch.json", "{}")
        write(root, "arches/alpha/descriptor.cpp", "int f(int a) {\n  return a + 1;\n}\n")
        write(root, "sdt/runtime/src/patcher.cpp",
              "bool g(int a) {\n  return a == 2;\n}\nbool h(int a) {\n  return a == 2;\n}\n")

    def test_sampled_from_unique_lines_with_the_arch_of_their_file(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            mutants, candidates = mutate.generated_mutants(root, 100, seed=1)
        # descriptor.cpp: "+ -> -" and "1 -> 2"; patcher.cpp's lines occur
        # twice, so none of them is a candidate.
        self.assertEqual(candidates, 2)
        self.assertEqual(sorted(m["why"] for m in mutants.values()),
                         ["generated: line 2: + -> -", "generated: line 2: 1 -> 2"])
        for m in mutants.values():
            self.assertEqual(m["arches"], ["alpha"])
            self.assertEqual(m["group"], "generated")
            self.assertEqual(m["find"], "  return a + 1;")

    def test_the_same_seed_gives_the_same_sample(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            write(root, "sdt/argspec/argeval.cpp", "int e(int s) {\n  if (s == 4) return 1;\n}\n")
            first, _ = mutate.generated_mutants(root, 2, seed=7)
            second, _ = mutate.generated_mutants(root, 2, seed=7)
        self.assertEqual(first, second)
        self.assertEqual(len(first), 2)

    def test_a_small_sample_has_a_mutant_of_every_file(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            write(root, "sdt/argspec/argeval.cpp",
                  "int e(int s) {\n  if (s == 4 && s < 9 && s > 1) return 1;\n}\n")
            for seed in range(10):
                mutants, candidates = mutate.generated_mutants(root, 2, seed=seed)
                self.assertEqual(candidates, 2 + 9)
                self.assertEqual(sorted(m["file"] for m in mutants.values()),
                                 ["arches/alpha/descriptor.cpp", "sdt/argspec/argeval.cpp"],
                                 f"seed {seed}")

    def test_an_equivalent_one_is_marked_with_its_reason(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            equivalent = {("arches/alpha/descriptor.cpp", "  return a + 1;",
                           "  return a + 2;"): "made up"}
            mutants, _ = mutate.generated_mutants(root, 100, seed=1, equivalent=equivalent)
        marked = {m["replace"]: m.get("equivalent") for m in mutants.values()}
        self.assertEqual(marked, {"  return a + 2;": "made up", "  return a - 1;": None})

    def test_an_equivalent_entry_that_went_stale_is_a_problem(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            file = "arches/alpha/descriptor.cpp"
            self.assertEqual(mutate.check_equivalent({(file, "  return a + 1;",
                                                       "  return a - 1;"): "x"}, root), [])
            problems = mutate.check_equivalent({
                (file, "  return a + 7;", "  return a - 7;"): "line gone",
                (file, "  return a + 1;", "  return a * 1;"): "not a generated change",
                ("sdt/runtime/src/patcher.cpp", "  return a == 2;", "  return a != 2;"): "twice",
                ("arches/beta/descriptor.cpp", "x", "y"): "no file"}, root)
        self.assertEqual(len(problems), 4, problems)
        self.assertIn("occurs 0 times", problems[0])
        self.assertIn("is not a generated change", problems[1])
        self.assertIn("occurs 2 times", problems[2])
        self.assertIn("no file arches/beta/descriptor.cpp", problems[3])

    def test_unit_tests_are_the_generic_ones_and_the_arch_own(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            write(root, "arches/alpha/tests/jump_test.cpp", "")
            self.assertEqual(mutate.unit_tests(root, "alpha"),
                             list(mutate.GENERIC_UNIT_TESTS) + ["xsdt_arch_alpha_test"])
            self.assertEqual(mutate.unit_tests(root, "beta"), list(mutate.GENERIC_UNIT_TESTS))

    def test_a_runtime_source_meets_the_runtime_unit_tests(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            write(root, "sdt/runtime/tests/patcher_test.cpp", "")
            write(root, "sdt/runtime/tests/consumer_buffer_test.cpp", "")
            self.assertEqual(mutate.unit_tests_of(root, "sdt/runtime/src/consumer_buffer.h",
                                                  "alpha"),
                             ["xsdt_consumer_buffer_test", "xsdt_patcher_test"])
            self.assertEqual(mutate.unit_tests_of(root, "sdt/argspec/argeval.cpp", "beta"),
                             list(mutate.GENERIC_UNIT_TESTS))
            # A generic host tool source meets every port's own tests too.
            write(root, "arches/alpha/tests/argeval_test.cpp", "")
            self.assertEqual(mutate.unit_tests_of(root, "sdt/argspec/argeval.cpp", "beta"),
                             list(mutate.GENERIC_UNIT_TESTS) + ["xsdt_arch_alpha_test"])
            self.assertEqual(mutate.unit_tests_of(root, "arches/beta/descriptor.cpp", "beta"),
                             list(mutate.GENERIC_UNIT_TESTS))
            self.assertEqual(mutate.unit_tests_of(root, "sdt/include/xsdt/usdt.h", "alpha"), [])

    def test_a_unit_test_that_fails_or_spins_kills(self):
        with tempfile.TemporaryDirectory() as build:
            scripts = {"xsdt_pass_test": "exit 0",
                       "xsdt_fail_test": "echo '[  FAILED  ] Suite.Case'; exit 1",
                       "xsdt_spin_test": "sleep 30"}
            for name, body in scripts.items():
                write(build, f"sub/{name}", f"#!/bin/sh\n{body}\n")
                os.chmod(os.path.join(build, "sub", name), 0o755)
            limit, mutate.UNIT_TEST_LIMIT = mutate.UNIT_TEST_LIMIT, 1
            try:
                failures = mutate.run_unit_tests(build, [*scripts, "xsdt_absent_test"])
            finally:
                mutate.UNIT_TEST_LIMIT = limit
            self.assertEqual(failures, [("xsdt_fail_test", "Suite.Case"),
                                        ("xsdt_spin_test", "spun past the 1 s limit"),
                                        ("xsdt_absent_test", "not built")])

    def test_host_tool_sources(self):
        self.assertTrue(mutate.is_host_tool_source("sdt/argspec/argeval.cpp"))
        self.assertTrue(mutate.is_host_tool_source("arches/alpha/descriptor.cpp"))
        self.assertFalse(mutate.is_host_tool_source("arches/alpha/runtime/machdep.cpp"))
        self.assertFalse(mutate.is_host_tool_source("sdt/runtime/src/patcher.cpp"))


class HandWrittenList(unittest.TestCase):
    def tree(self, root):
        write(root, "arches/alpha/arch.json", "{}")
        write(root, "arches/alpha/include/xsdt/arch/usdt.h",
              '#define XSDT_ARCH_SITE_NOP "nop"      \\\n  "nop"\n')
        write(root, "arches/shared/shared.cpp", "int kTrapPcOffset = 1;\n")
        write(root, "sdt/include/xsdt/usdt.h", "#define A 1\n")
        write(root, "ci/mutants.toml", """
[generic-a]
file = "sdt/include/xsdt/usdt.h"
find = "#define A 1"
replace = "#define A 2"
arches = ["alpha"]
group = "backend"
checks = "sites/"
why = "w"
""")
        write(root, "arches/alpha/mutants.toml", """
[alpha-nop]
file = "include/xsdt/arch/usdt.h"
find = '#define XSDT_ARCH_SITE_NOP "nop" \\'
replace = '#define XSDT_ARCH_SITE_NOP "" \\'
group = "backend"
checks = "sites/"
why = "w"
""")
        write(root, "arches/shared/mutants.toml", """
[shared-pc]
file = "shared.cpp"
find = "kTrapPcOffset = 1;"
replace = "kTrapPcOffset = 0;"
arches = ["alpha"]
group = "runtime"
checks = "runtime/"
why = "w"
""")

    def test_each_arch_directory_has_its_own_list(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            files = mutate.list_files(root)
            self.assertEqual([os.path.relpath(f, root) for f in files],
                             ["ci/mutants.toml", "arches/alpha/mutants.toml",
                              "arches/shared/mutants.toml"])
            mutants = mutate.load(files, [], root)
            self.assertEqual(mutants["alpha-nop"]["file"], "arches/alpha/include/xsdt/arch/usdt.h")
            self.assertEqual(mutants["alpha-nop"]["arches"], ["alpha"])
            self.assertEqual(mutants["shared-pc"]["file"], "arches/shared/shared.cpp")
            self.assertEqual(mutate.check_list(mutants, root), [])

    def test_a_shared_directory_must_name_its_arches(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            path = os.path.join(root, "arches/shared/mutants.toml")
            with open(path) as f:
                text = f.read()
            write(root, "arches/shared/mutants.toml", text.replace('arches = ["alpha"]\n', ""))
            with self.assertRaisesRegex(SystemExit, "shared-pc: missing arches"):
                mutate.load(mutate.list_files(root), [], root)

    def test_an_id_in_two_lists_is_refused(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root)
            with open(os.path.join(root, "arches/alpha/mutants.toml")) as f:
                text = f.read()
            write(root, "arches/alpha/mutants.toml", text.replace("[alpha-nop]", "[generic-a]"))
            with self.assertRaisesRegex(SystemExit, "generic-a is also in another list"):
                mutate.load(mutate.list_files(root), [], root)

    def test_white_space_runs_match_each_other(self):
        m = {"find": '  ".ascii \\"%x[a" #n "]\\"\\n"  \\', "replace": "X", "group": "backend"}
        realigned = 'a \\\n    ".ascii \\"%x[a" #n "]\\"\\n"      \\\n'
        self.assertEqual(mutate.occurrences(realigned, m), 1)
        self.assertEqual(mutate.apply_mutant(realigned, m), "a \\\nX\n")
        self.assertEqual(mutate.occurrences('".ascii \\"%w[a" #n', m), 0)
        self.assertEqual(mutate.occurrences(realigned + realigned, m), 2)

    def test_a_generated_line_matches_exactly(self):
        m = {"find": "  n = 1;", "replace": "  ;", "group": "generated"}
        self.assertEqual(mutate.occurrences("  n  =  1;\n", m), 0)
        self.assertEqual(mutate.apply_mutant("x\n  n = 1;\n", m), "x\n  ;\n")

    def test_the_list_moved_into_arch_directories_is_whole(self):
        ## The real list: every mutant names its file, and each port's own
        ## mutants are in its directory.
        mutants = mutate.load(mutate.list_files(mutate.REPO), [])
        self.assertEqual(mutate.check_list(mutants, mutate.REPO), [])
        generic = mutate.load([os.path.join(mutate.REPO, "ci", "mutants.toml")], [])
        self.assertFalse([n for n, m in generic.items() if m["file"].startswith("arches/")])


if __name__ == "__main__":
    unittest.main()
