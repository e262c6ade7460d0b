# lit configuration of xsdt-dtrace's bad-input corpus (ctest dtrace.bad-input):
# provider files that are missing, unreadable or malformed, each refused by
# -h and by -G with exit 2 and one line on standard error, naming the file
# and the reason, and no output written.
#
# Parameters (lit --param NAME=VALUE; sdt/dtrace/tests/CMakeLists.txt passes
# them):
#   dtrace    the xsdt-dtrace binary under test
#   cc        the C compiler that -G runs ($CC) where it gets that far
#   llvm_bin  the directory holding FileCheck and count
#   work_dir  where this run's Output directories go
import os
import shutil

import lit.formats

config.name = "xsdt-dtrace-bad-input"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(config.test_source_root, "..", "..", "..", ".."))

params = lit_config.params
for required in ("dtrace", "cc", "llvm_bin", "work_dir"):
    if required not in params:
        lit_config.fatal(f"missing --param {required}=...; ctest runs this suite "
                         "(ctest -R dtrace.bad-input)")
config.test_exec_root = params["work_dir"]
os.makedirs(config.test_exec_root, exist_ok=True)

dtrace = params["dtrace"]
if not os.access(dtrace, os.X_OK):
    lit_config.error(f"xsdt-dtrace {dtrace!r} is not an executable; build it first")
llvm_path = os.pathsep.join([params["llvm_bin"], os.environ.get("PATH", os.defpath)])
for tool in ("FileCheck", "count"):
    if not shutil.which(tool, path=llvm_path):
        lit_config.error(f"{tool} not found: install llvm-14-tools "
                         "(or pass --param llvm_bin=DIR)")

config.substitutions += [
    # %expect-exit CODE COMMAND: COMMAND must exit with exactly CODE, so that
    # neither a crash nor exit 1 passes for bad input (xsdt-inspect's).
    ("%expect-exit", f"sh {repo}/sdt/inspect/tests/expect-exit.sh"),
    ("%dtrace", dtrace),
]

# %no-read-override COMMAND: runs COMMAND without the capabilities that let
# root read any file, so that a file of mode 000 is unreadable to it as to
# any user (feature can-deny-read). Without setpriv, root cannot be denied.
if os.geteuid() != 0:
    config.substitutions.append(("%no-read-override", ""))
    config.available_features.add("can-deny-read")
elif shutil.which("setpriv"):
    config.substitutions.append(
        ("%no-read-override", "setpriv --inh-caps=-all --bounding-set=-all"))
    config.available_features.add("can-deny-read")

# lit scrubs the environment: FileCheck and count come from llvm_bin, and
# -G compiles with the build's C compiler where it gets that far.
config.environment["PATH"] = llvm_path
config.environment["CC"] = params["cc"]
