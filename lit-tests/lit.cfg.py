# lit configuration for one conformance cell: target x compiler x opt x link.
# Parameters (lit --param NAME=VALUE):
#   toolchain  JSON written by conformance/CMakeLists.txt from toolchains/*.cmake
#   opt        -O0 -O1 -O2 -O3 -Os            (default -O2)
#   link       pie | nopie | static           (default pie)
#   inspect    path of the host xsdt-inspect tool
#   llvm_bin   directory holding FileCheck, not and count
#   work_dir   where the cell's binaries and the build cache go
import json
import os
import shutil

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
opt = params.get("opt", "-O2")
link = params.get("link", "pie")
arch = toolchain["arch"]
compiler = toolchain["compiler"]
cell = f"{arch}.{compiler}.{opt.lstrip('-')}.{link}"
config.test_exec_root = os.path.join(params["work_dir"], cell)

link_flags = {
    "pie": "-fPIE -pie",
    "nopie": "-fno-pie -no-pie",
    "static": "-static",
}
if link not in link_flags:
    lit_config.fatal(f"unknown link mode {link!r}; expected one of {sorted(link_flags)}")

includes = f"-I{repo}/sdt/include -I{repo}/arches/{arch}/include"
target_flag = toolchain["target_flag"]
cc = f"{toolchain['cc']} {target_flag}".strip()
cxx = f"{toolchain['cxx']} {target_flag}".strip()
cflags = f"{opt} {link_flags[link]} -Wall -Wextra -Werror {includes}"
objdump = shutil.which(f"{toolchain['triple']}-objdump") or "objdump"
build = (f"python3 {config.test_source_root}/tools/build-cached.py "
         f"--cache {os.path.join(params['work_dir'], 'cache')} "
         f"--deps {repo}/sdt/include --deps {repo}/arches/{arch}/include --")

config.substitutions += [
    ("%build", build),
    ("%cxxflags", cflags),
    ("%cflags", cflags),
    ("%cxx", cxx),
    ("%cc", cc),
    ("%run", toolchain["emulator"]),
    ("%readelf", "readelf"),
    ("%objdump", objdump),
    ("%inspect", params["inspect"]),
    ("%corpus", os.path.join(repo, "conformance", "corpus")),
    ("%cell", cell),
    ("%notes-table", f"python3 {config.test_source_root}/tools/notes-table.py"),
]

# libxsdt (the in-process probe runtime) for this cell: built once per lit
# run at configuration time, cached by content under the cell's work dir.
# %xsdt-rt are the link arguments for a C program built with %cc in any
# link mode (the runtime is C++, hence libstdc++); %xsdt-rt-cflags puts
# <xsdt/runtime.h> on the include path.
import subprocess  # noqa: E402

rt_pic = {"pie": ["-fPIE"], "nopie": ["-fno-pie"], "static": []}[link]
rt_ar = shutil.which(f"{toolchain['triple']}-ar") or "ar"
rt_command = ["python3", os.path.join(config.test_source_root, "tools", "build-runtime.py"),
              "--repo", repo, "--arch", arch,
              "--cache", os.path.join(params["work_dir"], "cache", "runtime"),
              "--cxx", cxx, "--ar", rt_ar] + [f"--flag={f}" for f in [opt] + rt_pic]
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

config.available_features.update({
    f"arch-{arch}",
    f"compiler-{compiler.split('-')[0]}",
    f"opt{opt}",
    f"link-{link}",
    f"target={toolchain['triple']}",
    "ilp32" if arch == "i386" else "lp64",
    "emulated" if toolchain["emulator"] else "native",
})

# lit scrubs the environment: FileCheck and friends come from llvm_bin.
config.environment["PATH"] = os.pathsep.join(
    [params["llvm_bin"], os.environ.get("PATH", "")])
