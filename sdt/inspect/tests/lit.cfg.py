# lit configuration of xsdt-inspect's command-line tests.
#
# Parameters (lit --param NAME=VALUE; sdt/inspect/CMakeLists.txt passes
# them, one ctest test per lit run):
#   inspect   the xsdt-inspect binary under test
#   arch      an arch of arches/<arch>/arch.json: the target that the
#             tests' ELF inputs are compiled for
#   llvm_bin  the directory holding FileCheck and count
#   work_dir  where this run's Output directories go
#   version   the project version (CMake's PROJECT_VERSION) that
#             xsdt-inspect --version prints
#
# Layout: the suite runs once per arch. The inspector reads the ELF files of
# every arch, and ctest inspect.<arch> runs per-arch/ with --param
# arch=<arch>: those tests compile their inputs with that arch's gcc
# (%cc-gcc) and clang (%cc-clang) at test time. A per-arch test is written
# once and reads the same for every arch: what differs between arches comes
# from the arch's data file, arches/<arch>/arch.json (ci/arch_facts.py), as
# substitutions (%expect-site-nop, the bytes the porter wrote down from the
# architecture manual) and lit features (its traits: REQUIRES:
# jump-reach-1mib), never from an arch name. A new arch brings its own ctest
# inspect.<arch> and runs every per-arch test with its own facts.
# The tests whose subject is not the arch (the command line, parse-arg,
# listing, relocatable objects, damaged files, malformed SDT records) are in
# arch-independent/ and run once (ctest inspect.arch-independent): their ELF
# inputs must be compiled for some arch, and CMake picks the host's. The
# tests of one arch's grammar through the command line (parse-arg --arch
# <arch>) live with the arch, in arches/<arch>/tests/inspect, and run in the
# same ctest as arches/<arch>/<name>.test (arches/lit.local.cfg).
#
# Exit codes are exact: 0 ok, 1 violations, 2 usage errors or unreadable
# input. A RUN line fails on any other status than 0, and %expect-exit CODE
# (expect-exit.sh) demands CODE, so that a crash cannot pass for a failure.
import os
import shutil
import sys

import lit.formats

config.name = "xsdt-inspect"
# lit's own shell: with -v, a failing test shows each command it ran with
# its exit status and output.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(config.test_source_root, "..", "..", ".."))

params = lit_config.params
for required in ("inspect", "arch", "llvm_bin", "work_dir", "version"):
    if required not in params:
        lit_config.fatal(f"missing --param {required}=...; "
                         "ctest runs this suite (ctest -L inspect)")
config.test_exec_root = params["work_dir"]
os.makedirs(config.test_exec_root, exist_ok=True)

# The arch's facts (imported without writing a ci/__pycache__ into the
# source tree).
sys.path.insert(0, os.path.join(repo, "ci"))
sys.dont_write_bytecode = True
import arch_facts  # noqa: E402
import toolchains  # noqa: E402

arch = params["arch"]
if arch not in toolchains.arch_names(repo):
    known = toolchains.arch_names(repo)
    lit_config.fatal(f"unknown arch {arch!r}; arches/ has {', '.join(known)}")
try:
    facts = arch_facts.load(repo, arch)
    described = toolchains.parse_arch(facts.path)
    # The inspector runs natively: the traits of an emulated run do not apply.
    features = facts.features(emulated=False)
    expect = facts.all_expect_bytes()
    jump_nop_head = facts.jump_nop_head()
except (arch_facts.ArchFactsError, ValueError) as error:
    lit_config.fatal(str(error))
triple = described["triple"]
# The arch that runs natively (no emulator) builds with the host's gcc.
packages = " ".join((["gcc"] if not described["emulator"] else []) + described["packages"])

# Every tool the tests run, found now: a missing one is an error that stops
# the run (lit exits 2), never a test skipped or passed. The compilers come
# from PATH, FileCheck and count from llvm_bin first.
host_path = os.environ.get("PATH", os.defpath)
llvm_path = os.pathsep.join([params["llvm_bin"], host_path])


def require(names, package, path=host_path):
    for name in names:
        found = shutil.which(name, path=path)
        if found:
            return found
    lit_config.error(f"{names[0]} not found on PATH: install {package}")
    return names[0]


inspect = params["inspect"]
if not os.access(inspect, os.X_OK):
    lit_config.error(f"xsdt-inspect {inspect!r} is not an executable; build it first")
gcc = require([f"{triple}-gcc"], packages)
clang = require(["clang", "clang-14"], f"clang ({packages} for the target's libraries)")
objcopy = require([f"{triple}-objcopy"], packages)
for tool in ("FileCheck", "count"):
    require([tool], "llvm-14-tools (or pass --param llvm_bin=DIR)", llvm_path)

# sys/sdt.h (systemtap-sdt-dev), alone in a private include directory.
sys_sdt_include = arch_facts.sys_sdt_include(config.test_exec_root)
if sys_sdt_include is None:
    lit_config.error("sys/sdt.h not found under /usr/include: install systemtap-sdt-dev")
    sys_sdt_include = os.path.join(config.test_exec_root, "sys-sdt-include")

config.substitutions += [
    ("%expect-exit", f"sh {config.test_source_root}/expect-exit.sh"),
    ("%inspect", inspect),
    ("%inputs", os.path.join(config.test_source_root, "Inputs")),
    # The compilers of the run's arch, with the flags of the project's
    # headers (<xsdt/usdt.h>, <xsdt/sdt.h>) and of the reference sys/sdt.h.
    # With the flags every compiler of the arch needs (arch.json "cflags").
    ("%cc-gcc", " ".join([gcc] + described["cflags"])),
    ("%cc-clang", " ".join([clang, f"--target={triple}"] + described["cflags"])),
    ("%xsdt-cflags", f"-I{repo}/sdt/include -I{repo}/arches/{arch}/include"),
    ("%sys-sdt-cflags", f"-I{sys_sdt_include}"),
    ("%objcopy", objcopy),
    ("%python", sys.executable),
    # %damage IN OUT FIELD=VALUE...: a copy of an ELF file with header fields
    # changed by name (Inputs/damage_elf.py), for the damaged-*.test cases.
    ("%damage", f"{sys.executable} {config.test_source_root}/Inputs/damage_elf.py"),
    ("%arch", arch),
    ("%version", params["version"]),
    # The arch's expected bytes (FileCheck -DNOP=%expect-site-nop) and the
    # number of bytes in a site (%expect-site-size) and in sys/sdt.h's.
    ("%expect-site-nop", arch_facts.shell_quote(expect["site_nop"])),
    # What a disabled SDT(9) jump site starts with: the whole site NOP, or
    # the head of one that names its target (s390x's brcl 0,target).
    ("%expect-jump-nop-head", arch_facts.shell_quote(jump_nop_head)),
    ("%expect-site-size", str(arch_facts.byte_count(expect["site_nop"]))),
    ("%expect-sys-sdt-size", str(arch_facts.byte_count(expect["sys_sdt_site"]))),
]
config.available_features.update(features)

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

# lit scrubs the environment: FileCheck and count come from llvm_bin.
config.environment["PATH"] = llvm_path
