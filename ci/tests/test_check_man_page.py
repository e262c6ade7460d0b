"""ci/check-man-page on a made-up tool and man pages: it passes a page that
documents every option of the help and fails one that misses an option,
documents it only in the synopsis, or makes groff warn."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from helpers import CI_DIR, load_script

CHECK = os.path.join(CI_DIR, "check-man-page")

# The help of a made-up tool in CLI11's layout (one command's), with a
# wrapped description that starts with an option and a word with a dash.
HELP = textwrap.dedent("""\
    Usage: toy run FILE [--fast] [--level=N]
           toy [COMMAND] --help | --version

    Runs FILE, in utf-8 too.

    Options:
      -h,--help             print this help and exit
      --fast                go fast; see
                            --level=N for how fast
      --level N             how fast
    """)

PAGE = textwrap.dedent("""\
    .TH TOY 1 2026-01-01 "toy 1" "toy Manual"
    .SH NAME
    toy \\- a made-up tool
    .SH SYNOPSIS
    .B toy run
    .I file
    .RB [ \\-\\-fast ]
    .RB [ \\-\\-level=\\c
    .IR n ]
    .SH DESCRIPTION
    Runs a file.
    .SH OPTIONS
    .TP
    .BR \\-h ", " \\-\\-help
    Prints the help.
    .TP
    .B \\-\\-version
    Prints the version.
    .TP
    .B \\-\\-fast
    Goes fast.
    .TP
    .BI \\-\\-level= n
    How fast.
    .SH EXIT STATUS
    0 on success.
    """)


class CheckManPage(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tool = os.path.join(self.dir.name, "toy")
        with open(self.tool, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    f"sys.stdout.write('toy 1\\n' if '--version' in sys.argv "
                    f"else {HELP!r})\n")
        os.chmod(self.tool, 0o755)

    def tearDown(self):
        self.dir.cleanup()

    def check(self, page_text):
        page = os.path.join(self.dir.name, "toy.1")
        with open(page, "w") as f:
            f.write(page_text)
        return subprocess.run([sys.executable, CHECK, "--page", page, "--tool", self.tool,
                               "--help-args=--help"], capture_output=True, text=True)

    def test_a_page_that_documents_every_option_passes(self):
        result = self.check(PAGE)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("the 5 options of the help are documented", result.stdout)

    def test_a_missing_option_fails(self):
        page = PAGE.replace(".TP\n.B \\-\\-fast\nGoes fast.\n", "")
        result = self.check(page)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("--fast (in `toy --help`) is not documented", result.stdout)

    def test_an_option_in_the_synopsis_only_fails(self):
        page = PAGE.replace(".TP\n.BI \\-\\-level= n\nHow fast.\n", "")
        self.assertIn("\\-\\-level", page)
        result = self.check(page)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("--level (in `toy --help`) is not documented", result.stdout)

    def test_a_page_of_another_version_fails(self):
        result = self.check(PAGE.replace('"toy 1"', '"toy 0.9"'))
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn(".TH names version 0.9, `toy --version` prints 1", result.stdout)

    def test_a_groff_warning_fails(self):
        result = self.check(PAGE.replace("Runs a file.\n", "Runs a file.\n.XYZZY\n"))
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("groff:", result.stdout)

    def test_help_options_reads_the_synopsis_and_the_option_column(self):
        module = load_script("check-man-page", "check_man_page")
        self.assertEqual(module.help_options(HELP, "toy"),
                         ["--fast", "--level", "--help", "--version", "-h"])
        dtrace_style = ("usage: toy [--help] (-h | -G) -s FILE.d\n\n"
                        "  -I DIR, -D NAME[=VALUE], -U NAME\n"
                        "               for the preprocessor\n"
                        "  -x OPT, -64, -fpic   ignored\n")
        self.assertEqual(module.help_options(dtrace_style, "toy"),
                         ["--help", "-h", "-G", "-s", "-I", "-D", "-U", "-x", "-64", "-fpic"])


if __name__ == "__main__":
    unittest.main()
