# lit configuration for one conformance cell:
# implementation x target x compiler x opt x link.
# Parameters (lit --param NAME=VALUE):
#   toolchain  toolchain JSON (ci/toolchains.py, or conformance/CMakeLists.txt
#              from toolchains/*.cmake)
#   impl       an SDT implementation of conformance/impls/list (default xsdt)
#   opt        -O0 -O1 -O2 -O3 -Os -Oz         (default -O2)
#   link       pie | nopie | static | shared   (default pie)
#   inspect    path of the host xsdt-inspect tool
#   llvm_bin   directory holding FileCheck, not and count
#   work_dir   where the cell's binaries and the build cache go
import json
import os
import shutil
import sys

import lit.formats

config.name = "xsdt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(config.test_source_root)

params = lit_config.params
for required in ("toolchain", "inspect", "llvm_bin", "work_dir"):
    if required not in params:
        lit_config.fatal(f"missing --param {required}=...; run the suite through ci/matrix.py")

with open(params["toolchain"]) as f:
    toolchain = json.load(f)
sys.path.insert(0, os.path.join(repo, "conformance", "impls"))
import implementations  # noqa: E402

opt = params.get("opt", "-O2")
link = params.get("link", "pie")
arch = toolchain["arch"]
compiler = toolchain["compiler"]
try:
    impl = implementations.load(params.get("impl", "xsdt"))
except implementations.ImplementationError as error:
    lit_config.fatal(str(error))
cell = f"{impl['name']}.{arch}.{compiler}.{opt.lstrip('-')}.{link}"
config.test_exec_root = os.path.join(params["work_dir"], cell)

# "shared": every program of a test is linked as a shared library (position
# independent code, probes in a DSO with its own load bias) that a per-cell
# launcher dlopens and calls main of; %run runs it through the launcher.
link_flags = {
    "pie": "-fPIE -pie",
    "nopie": "-fno-pie -no-pie",
    "static": "-static",
    "shared": "-fPIC -shared",
}
if link not in link_flags:
    lit_config.fatal(f"unknown link mode {link!r}; expected one of {sorted(link_flags)}")
if opt not in ("-O0", "-O1", "-O2", "-O3", "-Os", "-Oz"):
    lit_config.fatal(f"unknown opt level {opt!r}")

# The implementation's adapter comes first on every compile: it defines
# IMPL_PROBE, the corpus' probe macro (conformance/oracle/oracle.h).
try:
    impl_include = implementations.header_dir(
        impl, os.path.join(config.test_exec_root, "impl-include"))
except implementations.ImplementationError as error:
    lit_config.fatal(str(error))
includes = f"-I{repo}/sdt/include -I{repo}/arches/{arch}/include"
if impl_include:
    # -isystem: it is an installed header, as in real use (no -Wpedantic
    # diagnostics from inside its macros).
    includes += f" -isystem {impl_include}"
includes += f" -include {impl['adapter']}"
target_flag = toolchain["target_flag"]
cc = f"{toolchain['cc']} {target_flag}".strip()
cxx = f"{toolchain['cxx']} {target_flag}".strip()
cflags = f"{opt} {link_flags[link]} -Wall -Wextra -Werror {includes}"
objdump = shutil.which(f"{toolchain['triple']}-objdump") or "objdump"
build = (f"python3 {config.test_source_root}/tools/build-cached.py "
         f"--cache {os.path.join(params['work_dir'], 'cache')} "
         f"--deps {repo}/sdt/include --deps {repo}/arches/{arch}/include "
         f"--deps {repo}/conformance/impls "
         + (f"--deps {impl_include} " if impl_include else "") + "--")

config.substitutions += [
    ("%build", build),
    ("%cxxflags", cflags),
    ("%cflags", cflags),
    ("%cxx", cxx),
    ("%cc", cc),
    ("%readelf", "readelf"),
    ("%objdump", objdump),
    ("%inspect", params["inspect"]),
    ("%corpus", os.path.join(repo, "conformance", "corpus")),
    ("%cell", cell),
    ("%notes-table", f"python3 {config.test_source_root}/tools/notes-table.py"),
]

# libxsdt (the in-process probe runtime, the tracer side of every run-time
# check): built once per toolchain and code model at configuration time,
# cached by content under the work dir. It is always -O2: the cell's opt
# level is for the probes under test, not for the tracer. %xsdt-rt are the
# link arguments for a C program built with %cc in any link mode (the
# runtime is C++, hence libstdc++); %xsdt-rt-cflags puts <xsdt/runtime.h>
# on the include path.
import subprocess  # noqa: E402

rt_pic = {"pie": ["-fPIE"], "nopie": ["-fno-pie"], "static": [], "shared": ["-fPIC"]}[link]
rt_ar = shutil.which(f"{toolchain['triple']}-ar") or "ar"
rt_command = ["python3", os.path.join(config.test_source_root, "tools", "build-runtime.py"),
              "--repo", repo, "--arch", arch,
              "--cache", os.path.join(params["work_dir"], "cache", "runtime"),
              "--cxx", cxx, "--ar", rt_ar] + [f"--flag={f}" for f in ["-O2"] + rt_pic]
rt_result = subprocess.run(rt_command, capture_output=True, text=True)
if rt_result.returncode == 0:
    rt_archive = rt_result.stdout.strip().splitlines()[-1]
else:
    # Keep the other checks of the cell running; the runtime tests then fail
    # at link time, and this names the reason.
    lit_config.warning("building libxsdt failed:\n" + rt_result.stderr)
    rt_archive = os.path.join(params["work_dir"], "libxsdt-build-failed.a")
config.substitutions += [
    ("%xsdt-rt-cflags", f"-I{repo}/sdt/runtime/include"),
    ("%arch", arch),
    ("%xsdt-rt", f"{rt_archive} -lstdc++ -lm -lpthread"),
]

# The shared-library cell's launcher: dlopens the program (a DSO) and calls
# its main. Built once per toolchain, cached by content like the programs.
run = toolchain["emulator"]
if link == "shared":
    launcher = os.path.join(config.test_exec_root, "xsdt-launch")
    os.makedirs(config.test_exec_root, exist_ok=True)
    launch_result = subprocess.run(
        build.split() + cc.split() +
        ["-O2", "-fPIE", "-pie", "-Wall", "-Wextra", "-Werror",
         os.path.join(config.test_source_root, "tools", "launch-shared.c"),
         "-ldl", "-o", launcher], capture_output=True, text=True)
    if launch_result.returncode != 0:
        lit_config.fatal("building the shared-library launcher failed:\n" +
                         launch_result.stdout + launch_result.stderr)
    run = f"{run} {launcher}".strip()
config.substitutions.insert(0, ("%run", run))

config.available_features.update({
    f"arch-{arch}",
    f"compiler-{compiler.split('-')[0]}",
    f"opt{opt}",
    f"link-{link}",
    f"impl-{impl['name']}",
    f"impl-role-{impl['role']}",
    *impl["features"],
    f"target={toolchain['triple']}",
    "ilp32" if arch == "i386" else "lp64",
    "emulated" if toolchain["emulator"] else "native",
})

# lit scrubs the environment: FileCheck and friends come from llvm_bin.
config.environment["PATH"] = os.pathsep.join(
    [params["llvm_bin"], os.environ.get("PATH", "")])
