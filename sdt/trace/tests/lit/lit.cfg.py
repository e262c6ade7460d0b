# lit configuration of xsdt-trace's tests: the command and its agent on
# programs built here with the host's C compiler and xsdt's probe headers.
# Each program passes values the test's CHECK lines derive from its source
# (the loop bounds and the arithmetic written there), never from a run.
#
# Parameters (sdt/trace/tests/CMakeLists.txt passes them; ctest -R trace.lit):
#   trace     the built xsdt-trace (its agent beside it)
#   cc        the host's C compiler
#   llvm_bin  the directory holding FileCheck and not
#   arch      the host's arches/ directory (its probe header)
#   runtime   libxsdt.a for the host (programs that link it: attach.test)
import os
import shutil
import sys

import lit.formats

config.name = "xsdt-trace"
# bash: exit statuses are checked with $? (exit() sets xsdt-trace's).
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(config.test_source_root, "..", "..", "..", ".."))

params = lit_config.params
for required in ("trace", "cc", "llvm_bin", "arch", "runtime"):
    if required not in params:
        lit_config.fatal(f"missing --param {required}=...; ctest runs this suite "
                         "(ctest -R trace.lit)")
config.test_exec_root = params.get("work_dir", os.path.join(
    os.path.dirname(params["trace"]), "lit"))
for tool in ("FileCheck", "not"):
    if not os.access(os.path.join(params["llvm_bin"], tool), os.X_OK):
        lit_config.fatal(f"{tool} not found in {params['llvm_bin']} (llvm-14-tools)")
config.environment["PATH"] = os.pathsep.join(
    [params["llvm_bin"], os.environ.get("PATH", "")])
includes = f"-I{repo}/sdt/include -I{repo}/arches/{params['arch']}/include"
config.substitutions += [
    ("%python", sys.executable),
    ("%trace", params["trace"]),
    ("%cc-probes", f"{params['cc']} -O2 -Wall -Wextra -Werror -std=gnu99 {includes}"),
    # A program that links libxsdt: its include directory, the archive last.
    ("%libxsdt", f"{params['runtime']} -lstdc++ -lpthread"),
    ("%runtime-include", f"-I{repo}/sdt/runtime/include"),
]
