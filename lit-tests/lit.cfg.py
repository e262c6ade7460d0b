# lit configuration for one conformance cell:
# implementation x target x compiler x opt x link.
# Parameters (lit --param NAME=VALUE):
#   toolchain  toolchain JSON (ci/toolchains.py, or conformance/CMakeLists.txt
#              from toolchains/<family>.cmake); its arch names the data file
#              arches/<arch>/arch.json that gives the cell its traits and
#              expected bytes
#   impl       an SDT implementation of conformance/impls/list (default xsdt)
#   opt        -O0 -O1 -O2 -O3 -Os -Oz         (default -O2)
#   link       pie | nopie | static | shared   (default pie)
#   inspect    path of the host xsdt-inspect tool
#   dtrace     path of the host xsdt-dtrace tool (the generator of xsdt)
#   tools      directory of the lit suite's native tools (lit-tests/tools)
#   llvm_bin   directory holding FileCheck, not and count
#   work_dir   where the cell's binaries and the build cache go
#   soak       1: the soak tests run too (lit feature soak; ctest -L soak)
#   run_limit  seconds a test program may run before it is killed (none)
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib

import lit.formats

config.name = "xsdt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
# lit-tests/tools holds the suite's native tools and, in tools/tests, a lit
# suite of their own (ctest lit-tools): lit would load it as a nested suite
# of every cell.
config.excludes = ["tools"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(config.test_source_root)
tools_source = os.path.join(config.test_source_root, "tools")
sys.path.insert(0, tools_source)

params = lit_config.params
for required in ("toolchain", "inspect", "tools", "llvm_bin", "work_dir"):
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

# The arch's data file (docs/porting.md, ci/arch_facts.py): its traits are
# lit features, its "expect" facts the tests' own copy of the ISA's bytes,
# kept apart from libxsdt's tables so that the tests check the library and do
# not echo it.
sys.path.insert(0, os.path.join(repo, "ci"))
sys.dont_write_bytecode = True
import arch_facts  # noqa: E402

# A toolchain of an arch's variant (arch.json "variants", armhf's ARM state)
# reads the variant's facts.
variant = toolchain.get("variant") or ""
try:
    facts = arch_facts.load(repo, arch, variant)
    traits = facts.traits(emulated=bool(toolchain["emulator"]))
    features = traits + facts.derived_features()
    expect = facts.all_expect_bytes()
    foreign_error = facts.fact("expect", "foreign_error")
    flush_syscall = facts.fact("expect", "icache_flush_syscall", kind=int, default=-1)
    flush_syscall_flags = facts.fact("expect", "icache_flush_syscall_flags", kind=int,
                                     default=0)
    flush_syscall_range = facts.fact("expect", "icache_flush_syscall_range", default="end")
    if flush_syscall_range not in ("end", "length"):
        raise arch_facts.ArchFactsError(
            f"{facts.path}: \"expect.icache_flush_syscall_range\" must be \"end\" or "
            f"\"length\": {flush_syscall_range!r}")
    trap_signal = facts.trap_signal()
    trap_race_signal = facts.trap_race_signal() or "0"
    stack_pointer_spec = facts.stack_pointer_spec()
    jump_nop_cflags = facts.jump_nop_cflags()
    jump_nop_head, jump_trap_head = facts.jump_nop_head(), facts.jump_trap_head()
    jump_bytes = {key: facts.jump_bytes(key) for key in arch_facts.JUMP_BYTES}
    declared_model = facts.fact("data_model")
    declared_char_signed = facts.fact("char_signed", kind=bool)
    # What libxsdt is built with beyond the cell's flags; the value oracle,
    # linked with it, takes them too (where its atomics are libxsdt's).
    runtime_cflags = " ".join(facts.fact("runtime_cflags", kind=list, default=[]))
    fp_constraint = facts.fact("expect", "fp_register_constraint", default="")
    host_loader = facts.fact("host_loader", kind=dict, default={})
    narrow_vector_cpu = facts.fact("emulator_narrow_vector_cpu", default="")
except arch_facts.ArchFactsError as error:
    lit_config.fatal(f"toolchain {params['toolchain']}: {error}")
arch_json = facts.path
if variant:
    # The tools that read the data file (check-jumps.py) get the variant's
    # facts as a file of their own.
    os.makedirs(os.path.join(params["work_dir"], "arch-facts"), exist_ok=True)
    arch_json = os.path.join(params["work_dir"], "arch-facts", f"{arch}-{variant}.json")
    fresh = f"{arch_json}.{os.getpid()}"
    with open(fresh, "w") as f:
        json.dump(facts.data, f, indent=1)
    os.replace(fresh, arch_json)
config.test_exec_root = os.path.join(params["work_dir"], cell)
tools = params["tools"]

# The cell's phase log (lit-tests/tools/phase_log.h): the build and run
# tools append what each compile and program run cost, and the set-up below
# its own time; ci/matrix.py sums them into the cell's phases. One lit run
# per cell: the log starts empty, and so does the memo of program runs
# (lit-tests/tools/run-once.cpp), so that every lit run runs its programs.
setup_started = time.monotonic()
os.makedirs(config.test_exec_root, exist_ok=True)
phase_log = os.path.join(config.test_exec_root, "phases.log")
open(phase_log, "w").close()
run_memo = os.path.join(config.test_exec_root, "runs")
shutil.rmtree(run_memo, ignore_errors=True)

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

# %build COMMAND -o OUT compiles once per cell (lit-tests/tools/build-cache):
# the key covers the command, the files it names and the headers under the
# --deps directories. The tests' own Inputs directories join the key in
# their lit.local.cfg.
cache_tool = (f"{tools}/build-cache --cache {os.path.join(params['work_dir'], 'cache')} "
              f"--log {phase_log}")
arch_deps = f"--deps {repo}/sdt/include --deps {repo}/arches/{arch}/include"
build_tool = (f"{cache_tool} {arch_deps} --deps {repo}/conformance/impls "
              f"--deps {repo}/conformance/corpus --deps {repo}/conformance/oracle"
              + (f" --deps {impl_include}" if impl_include else ""))
build = f"{build_tool} --"

# %dtrace: the implementation's `dtrace -h/-G` build step (its adapter's
# generator: xsdt-dtrace, or SystemTap's dtrace for sys/sdt.h), called as a
# project's build calls it. -G compiles its object with $CC $CFLAGS, as
# SystemTap's script does: the cell's compiler and opt level, the headers
# the generated C file may include, and nothing from the test's -Werror.
generator = implementations.generator_path(impl, params.get("dtrace"))
if generator:
    if not os.path.exists(generator):
        lit_config.warning(f"{impl['name']}'s dtrace generator {generator} is missing: "
                           "the lit-tests/dtrace tests fail")
    generator_cflags = (f"{opt} -I{repo}/sdt/include -I{repo}/arches/{arch}/include"
                        + (f" -isystem {impl_include}" if impl_include else ""))
    dtrace = (f"env CC={arch_facts.shell_quote(cc)} "
              f"CFLAGS={arch_facts.shell_quote(generator_cflags)} {generator}")
    # %dtrace-cflags: a program that includes a generated header, as its
    # project builds it: the generator's headers, without the adapter (which
    # would include <sys/sdt.h> before the header defines
    # _SDT_HAS_SEMAPHORES).
    dtrace_cflags = (f"{opt} {link_flags[link]} -Wall -Wextra -Werror "
                     f"{generator_cflags.removeprefix(opt).strip()}")
    config.available_features.add("dtrace-generator")
else:
    dtrace = dtrace_cflags = "false"

# The arch's expected bytes and traits. Quoted for the shell: FileCheck
# -DNOP=%expect-site-nop. %expect-cflags gives a test program the same
# bytes (-DEXPECT_SITE_NOP=0x0f,0x1f,...) and a TRAIT_<NAME> macro per trait,
# %trait-prefixes a FileCheck prefix per trait (COHERENT-ICACHE, ...; use
# --allow-unused-prefixes). First in the list: lit applies substitutions in
# order.
expect_cflags = [f"-DEXPECT_{key.upper()}={arch_facts.c_initializer(expect[key])}"
                 for key in ("site_nop", "site_trap", "site_foreign")]
# The SDT(9) jump site's bytes (-DEXPECT_JUMP_SITE=...): the USDT site's,
# unless the arch's differ (arch.json expect.jump_site).
expect_cflags += [f"-DEXPECT_{key.upper()}={arch_facts.c_initializer(jump_bytes[key])}"
                  for key in arch_facts.JUMP_BYTES]
if flush_syscall >= 0:
    expect_cflags.append(f"-DEXPECT_ICACHE_FLUSH_SYSCALL={flush_syscall}")
    # How it names its range and every thread: (start, end, 0) by default.
    expect_cflags.append(f"-DEXPECT_ICACHE_FLUSH_SYSCALL_FLAGS={flush_syscall_flags}")
    if flush_syscall_range == "length":
        expect_cflags.append("-DEXPECT_ICACHE_FLUSH_SYSCALL_BY_LENGTH")
# The signal a trap raises: SIGTRAP unless arch.json says otherwise
# (s390x: SIGILL).
expect_cflags.append(f"-DEXPECT_TRAP_SIGNAL={trap_signal}")
# The second signal a trap may raise (SIGILL where another thread
# removed the trap before the kernel read it), 0 where there is none.
expect_cflags.append(f"-DEXPECT_TRAP_RACE_SIGNAL={trap_race_signal}")
# The stack pointer as a spec names it (8@%rsp, 4@sp, 8@$sp): a token
# sequence for STAP_PROBE_ASM's written text, quoted for the shell.
expect_cflags.append(shlex.quote(f"-DEXPECT_STACK_POINTER_SPEC={stack_pointer_spec}"))
expect_cflags += jump_nop_cflags
# The asm constraint of a floating-point register, where the arch gives one:
# -DEXPECT_FP_CONSTRAINT(v)='"+x"(v)', for tests that hold values there.
if fp_constraint:
    expect_cflags.append(shlex.quote(f'-DEXPECT_FP_CONSTRAINT(v)="+{fp_constraint}"(v)'))
expect_cflags += [f"-DTRAIT_{trait.upper().replace('-', '_')}" for trait in traits]
# %sys-sdt-cflags: SystemTap's <sys/sdt.h> (systemtap-sdt-dev), for tests
# that build sys/sdt.h sites whatever the implementation under test.
sys_sdt_include = arch_facts.sys_sdt_include(config.test_exec_root)
if sys_sdt_include is None:
    lit_config.warning("sys/sdt.h not found under /usr/include (install systemtap-sdt-dev): "
                       "the tests of sys/sdt.h sites fail to compile")
    sys_sdt_include = os.path.join(config.test_exec_root, "sys-sdt-include")
shell_quote = arch_facts.shell_quote

config.substitutions[0:0] = [
    ("%sys-sdt-cflags", f"-I{sys_sdt_include}"),
    ("%expect-site-nop", shell_quote(expect["site_nop"])),
    ("%expect-site-trap", shell_quote(expect["site_trap"])),
    ("%expect-jump-nop-head", shell_quote(jump_nop_head)),
    ("%expect-jump-trap-head", shell_quote(jump_trap_head)),
    ("%expect-site-foreign", shell_quote(expect["site_foreign"])),
    ("%expect-foreign-error", shell_quote(foreign_error)),
    ("%expect-sys-sdt-site", shell_quote(expect["sys_sdt_site"])),
    ("%expect-sys-sdt-trap", shell_quote(expect["sys_sdt_trap"])),
    ("%expect-cflags", " ".join(expect_cflags)),
    # The link flags of a program that watches the runtime's icache flushes:
    # syscall(3) and the library calls the compilers' builtin makes.
    ("%wrap-flushes", "-Wl,--wrap=syscall,--wrap=__clear_cache,"
     "--wrap=__riscv_flush_icache,--wrap=_flush_cache"),
    ("%trait-prefixes", ",".join(t.upper() for t in traits) or "NO-TRAITS"),
    ("%arch-json", arch_json),
]

config.substitutions += [
    ("%build", build),
    ("%cxxflags", cflags),
    ("%cflags", cflags),
    ("%cxx", cxx),
    ("%cc", cc),
    ("%readelf", "readelf"),
    ("%objdump", objdump),
    # The cell's emulator command, quoted ('' natively): for tools that run
    # a program natively where the kernel can (conformance/consumers/live.py).
    ("%emulator", shell_quote(toolchain["emulator"])),
    ("%inspect", params["inspect"]),
    ("%dtrace-cflags", dtrace_cflags),
    ("%dtrace", dtrace),
    ("%corpus", os.path.join(repo, "conformance", "corpus")),
    ("%cell", cell),
    ("%notes-table", os.path.join(tools, "notes-table")),
    ("%python", sys.executable),
]

# The tracer side of every run-time check, built at configuration time once
# per toolchain (cached by content under the work dir, shared by every cell
# of that toolchain): libxsdt, the in-process probe runtime, and the value
# oracle's harness (conformance/oracle/oracle.c), which holds no probe. Both
# are always -O2 -fPIC: the cell's opt level and code model are for the
# probes under test, not for the tracer, and position-independent code links
# into PIE, non-PIE, static and shared programs alike. %xsdt-rt are the link
# arguments of libxsdt for a C program built with %cc in any link mode (the
# runtime is C++, hence libstdc++); %xsdt-rt-cflags puts <xsdt/runtime.h> on
# the include path. %oracle-rt adds the oracle's object; %oracle-cflags its
# header.
# --param runtime_toolchain (a toolchain JSON of the same arch and variant)
# builds both with that toolchain's compilers instead of the cell's: CI's
# slice builds them once per arch, as a distribution builds the library
# that programs of every compiler link (ci/ci_slice.py).
runtime_toolchain = toolchain
if params.get("runtime_toolchain"):
    with open(params["runtime_toolchain"]) as f:
        runtime_toolchain = json.load(f)
    if (runtime_toolchain["arch"], runtime_toolchain.get("variant") or "") != (arch, variant):
        lit_config.fatal(f"--param runtime_toolchain={params['runtime_toolchain']} is for "
                         f"{runtime_toolchain['arch']} {runtime_toolchain.get('variant') or ''}"
                         f", not the cell's {arch} {variant}")
rt_cc = f"{runtime_toolchain['cc']} {runtime_toolchain['target_flag']}".strip()
rt_pic = ["-fPIC"]
rt_ar = shutil.which(f"{toolchain['triple']}-ar") or "ar"


def runtime_build_command(compiler, flags):
    """build-runtime.py's command for libxsdt built by `compiler` with flags."""
    return [sys.executable, os.path.join(tools_source, "build-runtime.py"),
            "--repo", repo, "--arch", arch,
            "--cache", os.path.join(params["work_dir"], "cache", "runtime"),
            "--cxx", compiler, "--ar", rt_ar] + [f"--flag={f}" for f in flags]


# --unity: the same sources in a few translation units (build-runtime.py
# says why): most of a cell's set-up was compiling libxsdt.
rt_command = runtime_build_command(
    f"{runtime_toolchain['cxx']} {runtime_toolchain['target_flag']}".strip(),
    ["-O2"] + rt_pic) + ["--unity"]
rt_result = subprocess.run(rt_command, capture_output=True, text=True)
if rt_result.returncode == 0:
    rt_archive = rt_result.stdout.strip().splitlines()[-1]
else:
    # Keep the other checks of the cell running; the runtime tests then fail
    # at link time, and this names the reason.
    lit_config.warning("building libxsdt failed:\n" + rt_result.stderr)
    rt_archive = os.path.join(params["work_dir"], "libxsdt-build-failed.a")
xsdt_rt = f"{rt_archive} -lstdc++ -lm -lpthread"
rt_cflags = f"-I{repo}/sdt/runtime/include"

oracle_dir = os.path.join(repo, "conformance", "oracle")
oracle_object = os.path.join(config.test_exec_root, "oracle.o")
# Keyed on its own headers only: one object for every implementation.
oracle_build = f"{cache_tool} {arch_deps} --deps {oracle_dir} --"
oracle_result = subprocess.run(
    f"{oracle_build} {rt_cc} -O2 {' '.join(rt_pic)} -Wall -Wextra -Werror -std=c99 {rt_cflags} "
    f"{runtime_cflags} "
    f"-I{repo}/sdt/include -I{repo}/arches/{arch}/include -c {oracle_dir}/oracle.c "
    f"-o {oracle_object}".split(), capture_output=True, text=True)
if oracle_result.returncode != 0:
    lit_config.warning("building the value oracle failed:\n" + oracle_result.stdout +
                       oracle_result.stderr)
oracle_cflags = f"{rt_cflags} -include {oracle_dir}/oracle.h"
oracle_rt = f"{oracle_object} {xsdt_rt}"
# xsdt-trace, the host's command (--param trace; ci/matrix.py passes the
# build's), and %build-trace-agent DIR: its agent for this cell's arch, built
# by the runtime's compiler with the cell's libxsdt into DIR
# (DIR/libxsdt-trace-agent.so, which $XSDT_TRACE_AGENT names). -O1: the
# agent's own sources (the D parser, the drain) are not what a cell tests,
# and their compile is most of the tests' cost; libxsdt is the cell's -O2.
# consumers/live-xsdt-trace-corpus.test and xsdt-trace-example.test.
# First in the list: %build is a prefix of it.
config.environment["XSDT_TRACE"] = params.get("trace", "")
config.substitutions[0:0] = [
    ("%build-trace-agent", shlex.join([
        sys.executable, os.path.join(tools_source, "build-trace-agent.py"),
        "--repo", repo, "--cache", os.path.join(params["work_dir"], "cache", "runtime"),
        "--runtime", rt_archive, "--flag=-O1",
        "--cxx", f"{runtime_toolchain['cxx']} {runtime_toolchain['target_flag']}".strip()])
     + " --output-dir"),
    ("%xsdt-trace", params.get("trace", "xsdt-trace-not-given")),
    ("%trace-inputs", os.path.join(repo, "sdt", "trace", "tests", "lit", "Inputs")),
]
config.substitutions += [
    ("%xsdt-rt-cflags", rt_cflags),
    ("%xsdt-rt", xsdt_rt),
    ("%oracle-cflags", oracle_cflags),
    ("%oracle-rt", oracle_rt),
]
# The oracle names the cell in every failure line.
config.environment["ORACLE_CELL"] = cell

# %build-corpus NAME -o DIR: the corpus program NAME of
# conformance/corpus/programs.toml, built for this cell into DIR (its
# executable DIR/NAME, or DIR/NAME-BUILD for each of several builds, and its
# shared library). One substitution per program, first in the list: lit
# applies substitutions in order, and %build is a prefix of %build-corpus.
corpus_dir = os.path.join(repo, "conformance", "corpus")
with open(os.path.join(corpus_dir, "programs.toml"), "rb") as f:
    corpus_programs = tomllib.load(f)


def corpus_commands(name, program, out):
    """The shell commands that build corpus program `name` into `out`."""
    sources = " ".join(os.path.join(corpus_dir, s) for s in program["sources"])
    is_cxx = program["sources"][0].endswith(".cpp")
    std = program.get("std", "c++11" if is_cxx else "c99")
    compile = f"{cxx if is_cxx else cc} {cflags} -std={std}"
    commands = []
    library = program.get("library")
    linked, run_path = "", ""
    if library:
        # The library build overrides the cell's -pie/-no-pie with -shared,
        # which clang reports as an unused argument.
        lib_sources = " ".join(os.path.join(corpus_dir, s) for s in library["sources"])
        commands.append(f"{build} {cc} {cflags} -std=c99 -fPIC -shared "
                        f"-Wno-unused-command-line-argument -Wl,-soname,{library['name']} "
                        f"{lib_sources} -o {out}/{library['name']}")
        # Before libxsdt's archive, so that what the library needs from it
        # is linked in; the program finds it in its own directory.
        if library.get("linked"):
            linked = f"{out}/{library['name']}"
        run_path = "-Wl,-rpath,'$ORIGIN'"
    flags = " ".join(program.get("flags", []))
    builds = program.get("builds") or {None: []}
    for build_name, build_flags in builds.items():
        executable = name if build_name is None else f"{name}-{build_name}"
        words = [build, compile, rt_cflags, flags, " ".join(build_flags), sources, linked,
                 oracle_rt, run_path, f"-o {out}/{executable}"]
        commands.append(" ".join(w for w in words if w))
    return " && ".join(commands)  # build-cache creates the directory


config.substitutions[0:0] = [
    (rf"%build-corpus {re.escape(name)} -o (\S+)", corpus_commands(name, program, r"\1"))
    for name, program in corpus_programs.items()] + [
    (r"%build-corpus (\S+)",
     r"echo 'build-corpus: no program \1 in conformance/corpus/programs.toml' >&2 && false")]
config.corpus_programs = corpus_programs

# The shared-library cell's launcher: dlopens the program (a DSO) and calls
# its main. Built once per toolchain, cached by content like the programs.
run = toolchain["emulator"]
if link == "shared":
    launcher = os.path.join(config.test_exec_root, "xsdt-launch")
    launch_result = subprocess.run(
        build.split() + cc.split() +
        ["-O2", "-fPIE", "-pie", "-Wall", "-Wextra", "-Werror",
         os.path.join(tools_source, "launch-shared.c"),
         "-ldl", "-o", launcher], capture_output=True, text=True)
    if launch_result.returncode != 0:
        lit_config.fatal("building the shared-library launcher failed:\n" +
                         launch_result.stdout + launch_result.stderr)
    run = f"{run} {launcher}".strip()
# run_limit (ci/matrix.py --run-limit, which ci/mutate uses): a program
# still running after that many seconds is killed and its test fails.
run_limit = f" --limit {params['run_limit']}" if params.get("run_limit") else ""
# %run PROGRAM ARGS: runs it (under the cell's emulator), once per cell for
# each distinct command: the checks that read one run share it.
config.substitutions.insert(
    0, ("%run", f"{tools}/run-once --log {phase_log} --memo {run_memo}{run_limit} -- {run}".strip()))
# host-runs-natively: this host's kernel runs the cell's programs itself
# through the sysroot's loader (arch.json "host_loader", keyed by the host's
# arches/ name, which platform.machine() gives on the hosts so far: i386 on
# x86_64), so xsdt-trace starts them that way instead of under the
# emulator (the cells' own runs stay emulated).
loader_words = host_loader.get(platform.machine(), [])
if toolchain["emulator"] and loader_words and os.access(loader_words[0], os.X_OK):
    features.append("host-runs-natively")
# %run-narrow-vectors: the same under an emulated CPU without the arch's
# wider vector state (arch.json emulator_narrow_vector_cpu: aarch64's
# cortex-a72 has no SVE), so that code which picks its save area by the CPU
# runs its other path too; feature emulator-narrow-vectors.
if narrow_vector_cpu and toolchain["emulator"]:
    emulator_program, _, emulator_args = toolchain["emulator"].partition(" ")
    run_narrow = run.replace(toolchain["emulator"],
                             f"{emulator_program} -cpu {narrow_vector_cpu} {emulator_args}", 1)
    config.substitutions.insert(0, (
        "%run-narrow-vectors",
        f"{tools}/run-once --log {phase_log} --memo {run_memo}{run_limit} -- {run_narrow}"))
    features.append("emulator-narrow-vectors")


# Real consumers (conformance/consumers): %consumer NAME PROGRAM runs PROGRAM
# under consumer NAME (through the cell's emulator and launcher) and checks
# what it reads against the source's values. consumer-NAME is a feature when
# NAME is installed and reads this cell's arch; one that is not installed is
# MISSING in the report.
sys.path.insert(0, os.path.join(repo, "conformance", "consumers"))
import consumers  # noqa: E402

for consumer_name in consumers.names():
    consumer_module = consumers.get(consumer_name)
    emulated = bool(toolchain["emulator"])
    # A live consumer (one that traces through this machine's kernel) runs
    # wherever the kernel runs the cell's programs: when it is not
    # installed, or cannot attach here (not root, no tracefs), its tests
    # fail as MISSING instead of passing by not running.
    live_consumer = getattr(consumer_module, "LIVE", False)
    if (live_consumer or not consumers.missing(consumer_module, emulated)) and \
            not consumers.unsupported(consumer_module, toolchain["arch"]):
        config.available_features.add(f"consumer-{consumer_name}")
# An arch whose programs this kernel should run natively but refuses (a
# 64-bit kernel without its 32-bit ABI): its live tracers' tests are
# UNSUPPORTED above; said here, so that the report shows why.
import live  # noqa: E402

refused = live.claims_native(toolchain["arch"]) and live.kernel_refuses(toolchain["arch"])
if refused:
    lit_config.warning(f"the live tracers' tests are UNSUPPORTED: this kernel refuses "
                       f"{toolchain['arch']} programs ({refused})")
consumer_launcher = launcher if link == "shared" else ""
# %consumer-each NAME PROGRAM...: a static consumer reads every PROGRAM in
# one pass, each judged on its own line.
config.substitutions.insert(0, (
    r"%consumer-each (\S+)",
    f"{sys.executable} {repo}/conformance/consumers/check.py \\1 --each "
    f"--emulator {shell_quote(toolchain['emulator'])} --arch {toolchain['arch']} "
    + (f"--launcher {consumer_launcher} " if consumer_launcher else "") + "--"))
config.substitutions.insert(0, (
    r"%consumer (\S+)",
    f"{sys.executable} {repo}/conformance/consumers/check.py \\1 "
    f"--emulator {shell_quote(toolchain['emulator'])} --arch {toolchain['arch']} "
    + (f"--launcher {consumer_launcher} " if consumer_launcher else "") + "--"))


# The data model and the signedness of plain char, as the compiler itself
# defines them: tests select their CHECK prefixes with %data-model (ILP32 or
# LP64) and %char-sign (CHAR-SIGNED or CHAR-UNSIGNED), and gate on the
# features ilp32/lp64 and char-signed/char-unsigned.
def predefined_macros():
    result = subprocess.run(cc.split() + ["-dM", "-E", "-x", "c", "/dev/null"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        lit_config.fatal(f"{cc} cannot preprocess:\n{result.stderr}")
    return dict(re.findall(r"^#define (\w+) ?(.*)$", result.stdout, re.M))


macros = predefined_macros()
if macros.get("__SIZEOF_POINTER__") == "8" and macros.get("__SIZEOF_LONG__") == "8":
    data_model = "LP64"
elif macros.get("__SIZEOF_POINTER__") == "4" and macros.get("__SIZEOF_LONG__") == "4":
    data_model = "ILP32"
else:
    lit_config.fatal(f"{cc}: neither ILP32 nor LP64")
char_sign = "CHAR-UNSIGNED" if "__CHAR_UNSIGNED__" in macros else "CHAR-SIGNED"
# The port's data file must say the same: a wrong data_model or char_signed
# would go unnoticed until a program of that arch misbehaves.
declared_sign = "CHAR-SIGNED" if declared_char_signed else "CHAR-UNSIGNED"
if (data_model, char_sign) != (declared_model, declared_sign):
    lit_config.fatal(f"{cc} defines {data_model} and {char_sign.lower()} char, but {arch_json} "
                     f"says data_model {declared_model!r} and char_signed "
                     f"{declared_char_signed!r}: the arch's data or the toolchain "
                     f"(triple {toolchain['triple']}) is wrong")
config.substitutions += [("%data-model", data_model), ("%char-sign", char_sign)]
# %float-mark: what the implementation writes after the size of a
# floating-point spec, `f` (sys/sdt.h's 8f@) or nothing (xsdt's default, the
# IEEE bits as an unsigned integer); FileCheck -DF=%float-mark.
config.substitutions.append(
    ("%float-mark", "f" if "float-spec-suffix" in impl["features"] else ""))

with open(phase_log, "a") as log:
    log.write(f"setup\t{time.monotonic() - setup_started:.4f}\tconfigured\t{cell}\n")

# arch-<arch> is for the known-bug catalog (lit-tests/catalog), whose tests
# are each about one arch's bug; every other test gates on traits.
config.available_features.update({
    f"arch-{arch}",
    f"compiler-{compiler.split('-')[0]}",
    f"opt{opt}",
    f"link-{link}",
    f"impl-{impl['name']}",
    f"impl-role-{impl['role']}",
    *impl["features"],
    f"target={toolchain['triple']}",
    data_model.lower(),
    char_sign.lower(),
    "emulated" if toolchain["emulator"] else "native",
    *features,
})
def links_sanitizer(sanitizer):
    """The compiler's result of linking an empty program with
    -fsanitize=SANITIZER (a missing runtime is a failed link)."""
    return subprocess.run(
        cc.split() + [f"-fsanitize={sanitizer}", "-x", "c", "-", "-o",
                      os.path.join(config.test_exec_root, f"{sanitizer}-probe")],
        input="int main(void) { return 0; }\n", capture_output=True, text=True)


# lsan: the compiler links -fsanitize=leak (faults/leaks.test). Asked only
# where that test can run; a compiler without its sanitizer runtime makes
# the test UNSUPPORTED with the package named here, not a failed link.
if not toolchain["emulator"] and link in ("pie", "nopie"):
    if links_sanitizer("leak").returncode == 0:
        config.available_features.add("lsan")
    else:
        version = compiler.split("-")[1]  # clang-19, or clang-19-<variant>
        package = (f"libclang-rt-{version}-dev" if compiler.startswith("clang")
                   else "liblsan0")
        lit_config.warning(f"{cc} -fsanitize=leak does not link (install {package}): "
                           "faults/leaks.test is UNSUPPORTED in this cell")
    # %lsan-symbolizer (an LSAN_OPTIONS entry): the suppressions name
    # functions, which only a symbolizer resolves; clang 19's runtime finds
    # none on its own here ("invalid path to external symbolizer") and then
    # reports what the suppressions cover.
    config.substitutions.append(
        ("%lsan-symbolizer",
         f"external_symbolizer_path={os.path.join(params['llvm_bin'], 'llvm-symbolizer')}"))

# asan: the compiler links -fsanitize=address (runtime/asan-*.test: the
# hit paths under AddressSanitizer, natively and under QEMU where the
# sanitizer's runtime starts there: arch.json's emulated trait
# qemu-asan-fails says where it does not). Asked only in the cells those
# tests run in: -O2, PIE (libxsdt's own build does not depend on the cell's
# opt level or link mode); a compiler without the sanitizer's runtime makes
# them UNSUPPORTED with the reason noted, never a failed test.
# %asan-build-rt builds libxsdt with the sanitizer into the cell's
# %asan-rt (cached by content like %xsdt-rt).
if opt == "-O2" and link == "pie":
    asan_result = links_sanitizer("address")
    if asan_result.returncode == 0:
        config.available_features.add("asan")
    else:
        lit_config.note(f"{cc} does not link -fsanitize=address" + (
            " (Debian ships clang's sanitizer runtimes for the host arch only)"
            if compiler.startswith("clang") and toolchain["emulator"] else
            f": {asan_result.stderr.strip()[-200:]}") + ": runtime/asan-*.test UNSUPPORTED")
    # Leaks are faults/leaks.test's (with the suppressions of what libxsdt
    # keeps on purpose); here a report is a bad access.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
    asan_archive = os.path.join(config.test_exec_root, "libxsdt-asan.a")
    # -O1: at -O0, gcc 12's sanitizer globals name COMDAT sections that the
    # link discards (".LASANPC... referenced in discarded section" on
    # ppc64el, riscv64, s390x).
    asan_flags = ["-O1", "-fsanitize=address"] + rt_pic
    config.substitutions += [
        # The cell's own compiler: its sanitizer runtime is the one linked.
        ("%asan-build-rt", shlex.join(
            runtime_build_command(cxx, asan_flags) + ["--unity", "--output", asan_archive])),
        ("%asan-rt", f"-fsanitize=address {asan_archive} -lstdc++ -lm -lpthread"),
    ]

# The soak tests take minutes: only a run that asks for them has them.
if params.get("soak") == "1":
    config.available_features.add("soak")

# lit scrubs the environment: FileCheck and friends come from llvm_bin.
config.environment["PATH"] = os.pathsep.join(
    [params["llvm_bin"], os.environ.get("PATH", "")])

# Short forms of the RUN lines' long prefixes, expanded before everything
# else (lit substitutes in list order, and %cc is a prefix of them):
# %cc-rt compiles a C test program that links libxsdt (%xsdt-rt) and
# checks the arch's expected bytes; %cc-lib a C shared library;
# %consumer-corpus NAME DIR has the static consumer NAME read every
# executable of the consumers' corpus built into DIR.
CONSUMER_CORPUS = ["aggregates", "arg-counts", "constants", "cxx-features", "frame-pointer",
                   "globals-statics", "int-widths", "multi-site", "register-pressure",
                   "scalar-kinds", "volatile-values", "wide-values"]


def corpus_executables(name):
    builds = corpus_programs[name].get("builds")
    return [name] if not builds else [f"{name}-{build}" for build in sorted(builds)]


config.substitutions[0:0] = [
    ("%cc-rt", "%cc %cflags %xsdt-rt-cflags %expect-cflags -std=gnu99"),
    ("%cc-lib", "%cc %cflags -std=gnu99 -fPIC -shared -Wno-unused-command-line-argument"),
    (r"%consumer-corpus (\S+) (\S+)",
     r"%consumer-each \1 " + " ".join(rf"\2/{executable}" for name in CONSUMER_CORPUS
                                     for executable in corpus_executables(name))),
]
