#!/usr/bin/env python3
"""Finds the toolchains installed on this machine, for every arch of the repo.

The toolchain files (toolchains/gcc.cmake, toolchains/clang.cmake) build
with the compiler version they are given; the conformance tests use gcc-12
and clang-14. Whoever installs clang-19 or a newer cross gcc should get it
tested without configuring anything, so this module looks at what is on
PATH instead, by the same rules as those files:

  * arches come from arches/<arch>/arch.json ("triple", "emulator",
    "packages"), so a new arch needs no change here;
  * GCC is <triple>-gcc-N / <triple>-g++-N, and for the arch that runs
    natively (no emulator) plain gcc-N / g++-N;
  * Clang is clang-N / clang++-N with --target=<triple>: one binary serves
    every arch, using Debian's GNU cross binutils and libraries (no
    --sysroot; it links with GNU ld, not lld).

A toolchain is only useful if it can build and run a program for the target,
which a name on PATH does not prove (a clang without the target's libgcc, a
cross gcc without its g++). So each one is verified by compiling, linking
and running a small C and a small C++ program. The verdict is cached under
the compiler's and emulator's path, size and mtime: a rerun costs nothing,
an upgrade is verified again. A toolchain that fails is returned with the
reason in "broken" (the first error line), never dropped: a compiler that
silently disappears from the matrix looks like a compiler that passed.

Each toolchain is a dict with the keys conformance/CMakeLists.txt writes to
build/cells/<name>.json (CELL_KEYS, same values for gcc-12 and clang-14),
plus "broken" (None or why) and "version" (the compiler's --version line).

    python3 ci/toolchains.py [--arch GLOB] [--compiler GLOB] [--json-dir DIR]
                             [--cache DIR]
"""
import argparse
import concurrent.futures
import fnmatch
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import arch_facts

# The keys of a build/cells/<name>.json (conformance/CMakeLists.txt,
# xsdt_describe_toolchain), in its order.
CELL_KEYS = ("name", "arch", "variant", "triple", "compiler", "cc", "cxx",
             "target_flag", "emulator", "packages")
# Bump when what verification checks changes: old verdicts no longer apply.
CACHE_VERSION = 1
COMPILE_TIMEOUT_SECONDS = 120
RUN_TIMEOUT_SECONDS = 60

# The programs that prove a toolchain: the C one needs the target's libc,
# the C++ one its libstdc++ headers and library as well. Each prints a line
# that the emulator must give back, so a binary that "runs" as something
# else (a host binary under qemu) fails too.
PROBE_SOURCES = {
    "c": ("hello.c", '#include <stdio.h>\n'
                     'int main(void) { printf("xsdt-toolchain-ok c\\n"); return 0; }\n'),
    "c++": ("hello.cpp", '#include <iostream>\n#include <string>\n'
                         'int main() { std::string s = "xsdt-toolchain-ok c++";\n'
                         '  std::cout << s << std::endl; return 0; }\n'),
}
PROBE_OUTPUT = {"c": "xsdt-toolchain-ok c", "c++": "xsdt-toolchain-ok c++"}


# ------------------------------------------------------------------ arches

def cell_files(directories):
    """The toolchain JSONs (one cell's toolchain each, as CMake writes them
    into build/cells) of these directories, sorted."""
    return sorted(path for directory in directories
                  for path in glob.glob(os.path.join(directory, "*.json")))


def arch_file(repo, arch):
    """The path of arches/<arch>/arch.json."""
    return os.path.join(repo, "arches", arch, "arch.json")


def read_arch_json(path):
    """The whole arch.json at path, as a dict; ValueError says what is wrong.

    The fields are listed in docs/porting.md; ci/arch_facts.py reads the
    file and checks the fields the tests use.
    """
    facts = arch_facts.load_file(path)
    if not isinstance(facts.data.get("triple"), str) or not facts.data["triple"]:
        raise ValueError(f"{path}: no \"triple\"")
    for key in ("emulator", "packages", "aliases", "shares", "traits", "emulated_traits",
                "cflags", "objdump_flags"):
        facts.fact(key, kind=list, default=[])
    return facts.data


def parse_arch(path):
    """An arch from its arch.json: {"arch", "triple", "emulator", "packages",
    "cflags", "variants"}.

    arch is the name of the file's directory, emulator the command as one
    string ("" when the arch runs natively), packages a list of Debian
    package names, variants {name: the variant's cflags} (arch_facts.py).
    """
    data = read_arch_json(path)
    with open(path, encoding="utf-8") as f:
        whole = json.load(f)
    variant_cflags = {}
    for name in sorted(arch_facts.variants(path, whole)):
        facts = arch_facts.load_file(path, name)
        variant_cflags[name] = list(facts.fact("cflags", kind=list, default=[]))
    return {
        "arch": os.path.basename(os.path.dirname(os.path.abspath(path))),
        "triple": data["triple"],
        "emulator": " ".join(data.get("emulator", [])),
        "packages": list(data.get("packages", [])),
        "cflags": list(data.get("cflags", [])),
        "variants": variant_cflags,
    }


def arch_names(repo):
    """Every arch of repo/arches (a directory with an arch.json), sorted."""
    return sorted(os.path.basename(os.path.dirname(path))
                  for path in glob.glob(os.path.join(repo, "arches", "*", "arch.json")))


def load_arches(repo):
    """Every arch under repo/arches, sorted by name."""
    return [parse_arch(arch_file(repo, arch)) for arch in arch_names(repo)]


# --------------------------------------------------------------- compilers

def commands_on_path(search_path):
    """{command name: full path} of the executables on search_path; the
    first directory wins, as it does for the shell."""
    found = {}
    for directory in search_path.split(os.pathsep):
        try:
            names = os.listdir(directory or ".")
        except OSError:
            continue
        for name in names:
            full = os.path.join(directory, name)
            if name not in found and os.access(full, os.X_OK) and not os.path.isdir(full):
                found[name] = full
    return found


def versions_of(commands, pattern):
    """Sorted versions N of the commands whose whole name matches pattern
    (one group: the version digits)."""
    versions = set()
    for name in commands:
        match = re.fullmatch(pattern, name)
        if match:
            versions.add(int(match.group(1)))
    return sorted(versions)


def unique(items):
    """items without repeats, first occurrence kept (CMake's REMOVE_DUPLICATES)."""
    return list(dict.fromkeys(items))


def gcc_toolchain(arch, version, commands):
    """gcc-N for arch, or None when that arch has no gcc-N on PATH.

    Unlike clang, a gcc exists per target: a gcc-13 installed for one cross
    target only is no gcc-13 toolchain for the others, so nothing is
    reported there.
    """
    triple = arch["triple"]
    native = not arch["emulator"]
    if native and f"gcc-{version}" in commands:
        cc, cxx = f"gcc-{version}", f"g++-{version}"
        compiler_packages = [f"g++-{version}"]
    elif f"{triple}-gcc-{version}" in commands:
        cc, cxx = f"{triple}-gcc-{version}", f"{triple}-g++-{version}"
        compiler_packages = [cross_gxx_package(triple, version, commands)]
    else:
        return None
    return describe(arch, f"gcc-{version}", cc, cxx, "", compiler_packages)


def cross_gxx_package(triple, version, commands):
    """The Debian package of <triple>-g++-N: g++-<triple> when N is Debian's
    default (what toolchains/gcc.cmake names for gcc 12), else g++-N-<triple>."""
    unversioned = commands.get(f"{triple}-g++")
    if unversioned and os.path.basename(os.path.realpath(unversioned)) == \
            f"{triple}-g++-{version}":
        return f"g++-{triple}"
    return f"g++-{version}-{triple}"


def clang_toolchain(arch, version):
    """clang-N for arch: the target's libraries come from the cross gcc."""
    triple = arch["triple"]
    compiler_packages = [f"clang-{version}"]
    if arch["emulator"]:
        compiler_packages.append(f"g++-{triple}")
    return describe(arch, f"clang-{version}", f"clang-{version}", f"clang++-{version}",
                    f"--target={triple}", compiler_packages)


def describe(arch, compiler, cc, cxx, target_flag, compiler_packages, variant=""):
    """A toolchain dict as xsdt_describe_toolchain would write it, unverified.

    target_flag holds the target's flags, space-separated: clang's --target,
    then the arch's own (arch.json "cflags", such as -mthumb), or those of
    the variant. A variant's toolchain is its compiler's, labelled
    <compiler>-<variant> (gcc-12-marm)."""
    cflags = arch["variants"][variant] if variant else arch.get("cflags", [])
    flags = ([target_flag] if target_flag else []) + cflags
    label = f"{compiler}-{variant}" if variant else compiler
    return {
        "name": f"{label}-{arch['arch']}",
        "arch": arch["arch"],
        "variant": variant,
        "triple": arch["triple"],
        "compiler": label,
        "cc": cc,
        "cxx": cxx,
        "target_flag": " ".join(flags),
        "emulator": arch["emulator"],
        "packages": " ".join(unique(arch["packages"] + compiler_packages)),
        "broken": None,
        "version": None,
    }


def candidate_toolchains(arches, commands):
    """Every (arch, compiler) toolchain the names on PATH suggest."""
    gcc_patterns = {re.escape(a["triple"]) + r"-gcc-(\d+)" for a in arches}
    gcc_patterns.add(r"gcc-(\d+)")
    gcc_versions = sorted({v for p in gcc_patterns for v in versions_of(commands, p)})
    clang_versions = versions_of(commands, r"clang-(\d+)")
    found = []
    for arch in arches:
        for version in gcc_versions:
            toolchain = gcc_toolchain(arch, version, commands)
            if toolchain:
                found.append(toolchain)
        for version in clang_versions:
            found.append(clang_toolchain(arch, version))
    return found + [variant_of(t, name, arch) for arch in arches
                    for t in found if t["arch"] == arch["arch"]
                    for name in arch.get("variants", {})]


def variant_of(toolchain, variant, arch):
    """The toolchain of a variant of toolchain's arch: the same compiler
    with the variant's flags."""
    clang_target = next((f for f in toolchain["target_flag"].split()
                         if f.startswith("--target=")), "")
    packages = [p for p in toolchain["packages"].split() if p not in arch["packages"]]
    return describe(arch, toolchain["compiler"], toolchain["cc"], toolchain["cxx"],
                    clang_target, packages, variant)


def base_compiler(toolchain):
    """The compiler a toolchain's label names: gcc-12 for gcc-12-marm."""
    variant = toolchain.get("variant") or ""
    label = toolchain["compiler"]
    return label[:-len(variant) - 1] if variant and label.endswith("-" + variant) else label


def compiler_matches(toolchain, patterns):
    """A compiler glob picks a toolchain by its label or by its base
    compiler's name: gcc-12 picks gcc-12-marm as well."""
    return matches(toolchain["compiler"], patterns) or matches(base_compiler(toolchain), patterns)


# ------------------------------------------------------------ verification

def file_identity(path):
    """What says a binary changed: its real path, size and mtime."""
    real = os.path.realpath(path)
    stat = os.stat(real)
    return [real, stat.st_size, stat.st_mtime_ns]


def first_error_line(output, returncode):
    """The line a person needs from a failed compile: the first that says
    error, else the first non-empty one, else the exit status."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"\berror\b|cannot find|not found|undefined reference", line, re.I):
            return line
    return lines[0] if lines else f"exit status {returncode}"


def run_quietly(command, timeout, cwd=None):
    """(returncode, stdout + stderr); a command that cannot start or hangs
    is a failure with a message, not an exception."""
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=cwd)
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout}s: {' '.join(command)}"
    except OSError as error:
        return -1, f"cannot run {command[0]}: {error.strerror}"
    return proc.returncode, proc.stdout + proc.stderr


def version_line(compiler_path):
    code, output = run_quietly([compiler_path, "--version"], 30)
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[0] if code == 0 and lines else None


def build_and_run(toolchain, binaries, emulator_path):
    """None if the C and C++ programs build and run for the target, else why.

    emulator_path is None when the emulator is missing: the programs are
    still built (a compiler error is the more useful reason), not run.
    """
    target_flag = toolchain["target_flag"].split()
    with tempfile.TemporaryDirectory(prefix="xsdt-toolchain-") as work:
        for language, compiler_key in (("c", "cc"), ("c++", "cxx")):
            source_name, text = PROBE_SOURCES[language]
            with open(os.path.join(work, source_name), "w") as f:
                f.write(text)
            program = os.path.join(work, f"hello-{language.replace('+', 'x')}")
            code, output = run_quietly(
                [binaries[compiler_key], *target_flag, source_name, "-o", program],
                COMPILE_TIMEOUT_SECONDS, cwd=work)
            if code != 0 or not os.path.exists(program):
                return f"{toolchain[compiler_key]}: {first_error_line(output, code)}"
            if toolchain["emulator"] and not emulator_path:
                continue
            launcher = ([emulator_path, *shlex.split(toolchain["emulator"])[1:]]
                        if toolchain["emulator"] else [])
            code, output = run_quietly([*launcher, program], RUN_TIMEOUT_SECONDS, cwd=work)
            if code != 0 or PROBE_OUTPUT[language] not in output:
                how = f"under {toolchain['emulator']}" if launcher else "natively"
                detail = first_error_line(output, code) if output.strip() else \
                    f"exit status {code}"
                return f"{language} program built by {toolchain[compiler_key]} does not " \
                       f"run {how}: {detail}"
    if toolchain["emulator"] and not emulator_path:
        emulator = toolchain["emulator"].split()[0]
        return f"emulator {emulator} not found on PATH (install {toolchain['packages']})"
    return None


def verify(toolchain, commands, cache_dir):
    """Fills in toolchain["broken"] and ["version"]; returns the toolchain."""
    binaries = {key: commands.get(toolchain[key]) for key in ("cc", "cxx")}
    absent = [toolchain[key] for key in ("cc", "cxx") if not binaries[key]]
    if absent:
        toolchain["broken"] = (f"{' and '.join(absent)} not found on PATH "
                               f"(install {toolchain['packages']})")
        return toolchain
    emulator = toolchain["emulator"].split()[0] if toolchain["emulator"] else None
    emulator_path = commands.get(emulator) if emulator else None
    key = {
        "cache_version": CACHE_VERSION,
        "toolchain": {k: toolchain[k] for k in ("triple", "cc", "cxx", "target_flag",
                                                 "emulator")},
        "cc": file_identity(binaries["cc"]),
        "cxx": file_identity(binaries["cxx"]),
        "emulator": file_identity(emulator_path) if emulator_path else None,
    }
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    cache_file = os.path.join(cache_dir, f"{digest}.json") if cache_dir else None
    if cache_file and os.path.exists(cache_file):
        try:
            with open(cache_file) as f:
                verdict = json.load(f)
            toolchain["broken"], toolchain["version"] = verdict["broken"], verdict["version"]
            return toolchain
        except (OSError, ValueError, KeyError):
            pass  # a damaged entry is verified again and rewritten
    toolchain["version"] = version_line(binaries["cc"])
    toolchain["broken"] = build_and_run(toolchain, binaries, emulator_path)
    if cache_file:
        os.makedirs(cache_dir, exist_ok=True)
        # A private temporary name, then a rename: ci/matrix.py and this CLI
        # may verify the same toolchain at the same time.
        with tempfile.NamedTemporaryFile("w", dir=cache_dir, suffix=".tmp",
                                         delete=False) as f:
            json.dump({"key": key, "broken": toolchain["broken"],
                       "version": toolchain["version"]}, f, indent=1)
        os.replace(f.name, cache_file)
    return toolchain


# --------------------------------------------------------------------- API

def as_patterns(globs):
    """None, one glob or a list of globs -> a list of globs (None: all)."""
    if globs is None:
        return None
    return [globs] if isinstance(globs, str) else list(globs)


def matches(value, patterns):
    return patterns is None or any(fnmatch.fnmatchcase(value, p) for p in patterns)


def discover(repo, cache_dir=None, compilers=None, arches=None, search_path=None,
             verify_toolchains=True):
    """The toolchains on PATH for the repo's arches, each verified.

    compilers and arches are fnmatch globs (one or a list: "clang-*",
    ["gcc-12", "clang-14"]) on the compiler name and the arch. search_path
    replaces $PATH (the tests use a directory of stub compilers). Sorted by
    arch, then compiler family and version.
    """
    compiler_patterns, arch_patterns = as_patterns(compilers), as_patterns(arches)
    commands = commands_on_path(search_path if search_path is not None
                                else os.environ.get("PATH", os.defpath))
    selected_arches = [a for a in load_arches(repo) if matches(a["arch"], arch_patterns)]
    found = [t for t in candidate_toolchains(selected_arches, commands)
             if compiler_matches(t, compiler_patterns)]
    if verify_toolchains:
        workers = max(1, min(len(found), os.cpu_count() or 2))
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda t: verify(t, commands, cache_dir), found))
    return sorted(found, key=toolchain_sort_key)


def toolchain_sort_key(toolchain):
    family, _, version = base_compiler(toolchain).partition("-")
    return (toolchain["arch"], family, int(version) if version.isdigit() else 0,
            toolchain.get("variant") or "")


def cell_json(toolchain):
    """What build/cells/<name>.json holds: CELL_KEYS, plus "broken" for a
    toolchain that failed verification (so that a reader of the file alone
    still knows)."""
    document = {key: toolchain[key] for key in CELL_KEYS}
    if toolchain.get("broken"):
        document["broken"] = toolchain["broken"]
    return document


def write_json(toolchains, out_dir):
    """Writes <out_dir>/<name>.json for every toolchain, broken ones too;
    returns the paths in the order of toolchains."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for toolchain in toolchains:
        path = os.path.join(out_dir, f"{toolchain['name']}.json")
        with open(path, "w") as f:
            # The layout CMake writes: two-space indent, trailing newline.
            json.dump(cell_json(toolchain), f, indent=2)
            f.write("\n")
        paths.append(path)
    return paths


# --------------------------------------------------------------------- CLI

def print_table(toolchains, out=None):
    """name, the compiler's version line and ok or BROKEN: why, one a line."""
    out = out or sys.stdout
    if not toolchains:
        print("no toolchain found (install them with bash toolchains/install-deps.sh)",
              file=out)
        return
    rows = [(t["name"], t["version"] or "-", f"BROKEN: {t['broken']}" if t["broken"] else "ok")
            for t in toolchains]
    widths = [max(len(row[i]) for row in rows + [("toolchain", "version", "status")])
              for i in range(2)]
    print(f"{'toolchain':<{widths[0]}}  {'version':<{widths[1]}}  status", file=out)
    for name, version, status in rows:
        print(f"{name:<{widths[0]}}  {version:<{widths[1]}}  {status}", file=out)
    broken = sum(1 for t in toolchains if t["broken"])
    print(f"{len(toolchains)} toolchains, {len(toolchains) - broken} ok, {broken} broken",
          file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arch", action="append", help="arch glob (repeatable)")
    parser.add_argument("--compiler", action="append",
                        help="compiler glob, e.g. 'clang-*' or gcc-12 (repeatable)")
    parser.add_argument("--json-dir", help="write <name>.json per toolchain there")
    parser.add_argument("--list-arches", action="store_true",
                        help="print the arches of arches/*/arch.json as a JSON list and exit "
                        "(CI's job matrix)")
    parser.add_argument("--list-packages", action="store_true",
                        help="print the Debian packages every arch's arch.json names, "
                        "space-separated, and exit (toolchains/install-deps.sh)")
    parser.add_argument("--cache", help="directory for verification verdicts "
                        "(default: none, every toolchain is verified)")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.list_arches:
        print(json.dumps(arch_names(args.repo)))
        return 0
    if args.list_packages:
        try:
            arches = load_arches(args.repo)
        except ValueError as error:
            print(f"toolchains: {error}", file=sys.stderr)
            return 2
        if not arches:
            print(f"toolchains: no arches/*/arch.json under {args.repo}", file=sys.stderr)
            return 2
        print(" ".join(unique(p for arch in arches for p in arch["packages"])))
        return 0
    found = discover(args.repo, cache_dir=args.cache, compilers=args.compiler,
                     arches=args.arch)
    print_table(found)
    if args.json_dir:
        for path in write_json(found, args.json_dir):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
