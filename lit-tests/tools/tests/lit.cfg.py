# lit configuration of the tests of the conformance suite's native tools
# (lit-tests/tools: build-cache, run-once, notes-table, build-runtime.py).
# Their header comments are the specification these tests check.
#
# Parameters (lit --param NAME=VALUE; lit-tests/tools/CMakeLists.txt passes
# them, ctest -R lit-tools):
#   tools     the directory holding the built build-cache, run-once and
#             notes-table
#   llvm_bin  the directory holding FileCheck, not, count and split-file
#   work_dir  where the tests' Output directories go (default: TOOLS/lit)
#
# Layout: one directory per tool, one file per case. Each build-cache and
# run-once test works in its own empty directory (rm -rf %t, mkdir, cd):
# the stand-in compiler and program of Inputs/ append one line to a file of
# their working directory each time they really run (./compiles, ./runs),
# so that `count N` says how many times the tool ran them. notes-table
# reads readelf-shaped text: hand-trimmed readelf output in Inputs/, or
# small malformed inputs inside the test itself (split-file).
#
# This is a suite of its own, not part of the conformance suite:
# lit-tests/lit.cfg.py excludes lit-tests/tools, so that a cell's lit run
# does not load it.
import os
import shutil
import sys

import lit.formats

config.name = "lit-tools"
# lit's own shell: with -v, a failing test shows each command it ran with
# its exit status and output.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(config.test_source_root, "..", "..", ".."))

params = lit_config.params
for required in ("tools", "llvm_bin"):
    if required not in params:
        lit_config.fatal(f"missing --param {required}=...; "
                         "ctest runs this suite (ctest -R lit-tools)")
tools = params["tools"]
config.test_exec_root = params.get("work_dir", os.path.join(tools, "lit"))
os.makedirs(config.test_exec_root, exist_ok=True)

# Every tool the tests run, found now: a missing one is an error that stops
# the run (lit exits 2), never a test skipped or passed.
for tool in ("build-cache", "run-once", "notes-table"):
    if not os.access(os.path.join(tools, tool), os.X_OK):
        lit_config.error(f"{tool} is not in {tools}; build it first "
                         f"(cmake --build BUILD_DIR --target {tool})")
llvm_path = os.pathsep.join([params["llvm_bin"], os.environ.get("PATH", os.defpath)])
for tool in ("FileCheck", "not", "count", "split-file"):
    if not shutil.which(tool, path=llvm_path):
        lit_config.error(f"{tool} not found: install llvm-14-tools "
                         "(or pass --param llvm_bin=DIR)")
# Exact exit statuses: both tools exit 125 for their own errors and pass the
# program's status on otherwise; `not` would accept either, and a crash too.
expect_exit = os.path.join(repo, "sdt", "inspect", "tests", "expect-exit.sh")
if not os.path.exists(expect_exit):
    lit_config.error(f"{expect_exit} is missing")

inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions += [
    ("%build-cache", os.path.join(tools, "build-cache")),
    ("%run-once", os.path.join(tools, "run-once")),
    ("%notes-table", os.path.join(tools, "notes-table")),
    # libxsdt's per-cell build (a script, run from the source tree).
    ("%build-runtime", f"{sys.executable} {repo}/lit-tests/tools/build-runtime.py"),
    ("%expect-exit", f"sh {expect_exit}"),
    # The stand-ins of Inputs/, whose header comments say what they do.
    ("%fake-cc", f"sh {inputs}/fake-cc.sh"),
    ("%prog", f"sh {inputs}/prog.sh"),
    ("%inputs", inputs),
    # The phase log's fields are separated by tabs: FileCheck -DTAB='%{tab}'
    # lets a pattern say [[TAB]] (with --strict-whitespace).
    ("%{tab}", "\t"),
]

# lit scrubs the environment: FileCheck, not and count come from llvm_bin.
config.environment["PATH"] = llvm_path
