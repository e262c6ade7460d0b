"""ci/arch-names on a small git repository made up here.

The repository has one arch, arches/toyarch/ (alias toy-64, sharing
arches/toyshare), and files outside arches/ that name it in code, in
comments, in documentation and in a file marked xsdt-arch-specific.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from helpers import CI_DIR

ARCH_NAMES = os.path.join(CI_DIR, "arch-names")

FILES = {
    "arches/toyarch/arch.json": json.dumps({"aliases": ["toy-64"], "shares": ["toyshare"]}),
    "arches/toyarch/descriptor.cpp": "int toyarch;\n",
    # Two code lines name it (the arch, then its alias), a comment does not count.
    "sdt/generic.cpp": ("// toyarch is mentioned in a comment only here\n"
                        "int a = 1; /* toyarch */\n"
                        "const char *name = \"toyarch\";\n"
                        "if (arch == \"toy-64\") {}\n"
                        "int toyarchitecture = 0;  // a longer word: no match\n"),
    # Python: a # comment does not count, a string does.
    "ci/tool.py": "# toyshare\nshares = ['toyshare']\n",
    # Documentation is not code.
    "docs/port.md": "toyarch everywhere\n",
    # A test about one arch by nature.
    "lit-tests/toy.test": ("## xsdt-arch-specific: the toyarch grammar.\n"
                           "RUN: tool --arch toyarch\n"),
    # The marker must open a comment line to count.
    "sdt/fake-marker.cpp": ("const char *m = \"xsdt-arch-specific: no\";\n"
                            "const char *n = \"toyarch\";\n"),
}


class ArchNames(unittest.TestCase):
    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="arch-names-test-")
        self.repo = self.temp.name
        for path, text in FILES.items():
            full = os.path.join(self.repo, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        subprocess.run(["git", "init", "-q", self.repo], check=True)
        subprocess.run(["git", "-C", self.repo, "add", "-A"], check=True)

    def tearDown(self):
        self.temp.cleanup()

    def run_tool(self, *args):
        return subprocess.run([sys.executable, ARCH_NAMES, "--repo", self.repo, *args],
                              capture_output=True, text=True, timeout=60)

    def test_lists_code_lines_outside_arches(self):
        result = self.run_tool("--list")
        self.assertEqual(result.returncode, 0)
        listed = [line.split(": ", 1)[0] for line in result.stdout.splitlines()
                  if not line.startswith("arch-names:")]
        self.assertEqual(sorted(listed), sorted([
            "ci/tool.py:2", "sdt/generic.cpp:3", "sdt/generic.cpp:4",
            "sdt/fake-marker.cpp:2", "lit-tests/toy.test:2"]))
        self.assertIn("lit-tests/toy.test:2: RUN: tool --arch toyarch  [xsdt-arch-specific]",
                      result.stdout)
        self.assertIn("4 code lines in 3 files outside arches/ name an arch", result.stdout)
        self.assertIn("1 more in 1 files marked", result.stdout)

    def test_check_fails_while_a_line_names_an_arch(self):
        self.assertEqual(self.run_tool("--check").returncode, 1)
        for path in ("sdt/generic.cpp", "ci/tool.py", "sdt/fake-marker.cpp"):
            os.remove(os.path.join(self.repo, path))
        subprocess.run(["git", "-C", self.repo, "add", "-A"], check=True)
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("0 code lines in 0 files", result.stdout)

    def test_names_replace_the_arch_list(self):
        result = self.run_tool("--names", "generic")
        self.assertIn("0 code lines in 0 files", result.stdout)
        self.assertIn("(generic)", result.stdout)


if __name__ == "__main__":
    unittest.main()
