#!/usr/bin/env python3
"""Build libxsdt (the probe runtime) for one conformance cell.

Usage: build-runtime.py --repo DIR --arch ARCH --cache DIR --ar AR
                        --cxx "COMPILER [TARGET FLAG]" [--flag F]...
                        [--output ARCHIVE]

Compiles what libxsdt is made of for one arch, as sdt/runtime/CMakeLists.txt
does: sdt/runtime/src/*.cpp, the generic arg-spec sources (sdt/argspec/*.cpp),
the arch's descriptor and grammar (arches/ARCH/*.cpp, and those of the
directories its arch.json "shares"), and its machine-dependent part
(arches/ARCH/runtime/*.cpp), with the cell's C++ compiler and flags, into one
static archive, and prints the archive's path (--output: copies it there too). The archive is cached under
--cache by the content of the command lines and of every source and header
involved, so every cell of one toolchain and code model shares it; each
object too (by the command line, every header and its source), so that a
changed source (ci/mutate's mutants) recompiles that file alone.
Concurrent builds of the same key wait for the first (flock on the key), so
two cells that start together build it once. --unity compiles the sources
in a few translation units instead (unity_objects), the archive cached as a
whole: one cross arch's libxsdt took 72 CPU-seconds one source at a time and 33 in
two units on the day it was measured (docs/suite.md).
"""
import argparse
import concurrent.futures
import fcntl
import glob
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def arch_dirs(repo, arch):
    """arches/ARCH and the directories its arch.json "shares" names."""
    with open(os.path.join(repo, "arches", arch, "arch.json")) as f:
        shares = json.load(f).get("shares", [])
    return [os.path.join(repo, "arches", d) for d in [arch] + shares]


def runtime_cflags(repo, arch):
    """The flags the arch's arch.json gives libxsdt's sources
    ("runtime_cflags"), as sdt/runtime/CMakeLists.txt passes them."""
    with open(os.path.join(repo, "arches", arch, "arch.json")) as f:
        return json.load(f).get("runtime_cflags", [])


def sources(repo, arch):
    srcs = sorted(glob.glob(os.path.join(repo, "sdt", "argspec", "*.cpp")))
    srcs += sorted(glob.glob(os.path.join(repo, "sdt", "runtime", "src", "*.cpp")))
    for d in arch_dirs(repo, arch):
        srcs += sorted(glob.glob(os.path.join(d, "*.cpp")))
    srcs += sorted(glob.glob(os.path.join(repo, "arches", arch, "runtime", "*.cpp")))
    return srcs


def namespace_flags(repo, src):
    """A source of arches/<dir>/ is compiled with its parts' namespace
    (xsdt/arch_parts.h), as sdt/argspec/CMakeLists.txt compiles it."""
    parts = os.path.relpath(src, os.path.abspath(repo)).split(os.sep)
    if len(parts) == 3 and parts[0] == "arches":
        return [f"-DXSDT_ARCH_NS={parts[1]}"]
    return []


def headers(repo, arch):
    found = []
    for root in ([os.path.join(repo, "sdt", "argspec"),
                  os.path.join(repo, "sdt", "runtime")] + arch_dirs(repo, arch)):
        for dirpath, _, files in sorted(os.walk(root)):
            found += [os.path.join(dirpath, f) for f in sorted(files)
                      if f.endswith((".h", ".hpp"))]
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--arch", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--ar", default="ar")
    parser.add_argument("--flag", action="append", default=[])
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--output", help="also copy the archive here (a test's own "
                        "runtime, such as one built with a sanitizer)")
    parser.add_argument("--unity", action="store_true",
                        help="compile the generic sources in a few translation units "
                        "that include them (see unity_objects)")
    args = parser.parse_args()

    repo = os.path.abspath(args.repo)
    srcs = sources(repo, args.arch)
    if not glob.glob(os.path.join(repo, "arches", args.arch, "runtime", "*.cpp")):
        print(f"build-runtime: no arches/{args.arch}/runtime sources", file=sys.stderr)
        return 2
    includes = [f"-I{repo}/sdt/argspec/include", f"-I{repo}/arches",
                f"-I{repo}/sdt/runtime/include", f"-I{repo}/sdt/runtime/src"]
    base = shlex.split(args.cxx) + ["-std=c++20", "-Wall", "-Wextra", "-Werror"]
    # GCC 12 at -O2/-O3 reports a false -Wrestrict inside std::string
    # (GCC PR 105329), as the top-level CMakeLists.txt notes.
    compiler = os.path.basename(shlex.split(args.cxx)[0])
    if "clang" not in compiler and "g++" in compiler:
        base.append("-Wno-restrict")
    base += args.flag + includes + runtime_cflags(repo, args.arch)

    def digest(paths, *extra):
        key = hashlib.sha256()
        key.update(("\0".join(base + list(extra))).encode())
        for path in paths:
            key.update(os.path.relpath(path, repo).encode() + b"\0")
            with open(path, "rb") as f:
                key.update(f.read())
        return key

    hdrs = headers(repo, args.arch)
    key = digest(srcs + hdrs, args.ar, "unity" if args.unity else "")
    header_digest = digest(hdrs).hexdigest()
    object_keys = [digest([src], header_digest).hexdigest()[:32] for src in srcs]
    os.makedirs(args.cache, exist_ok=True)
    archive = os.path.join(args.cache, f"libxsdt-{key.hexdigest()[:32]}.a")
    with open(archive + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(archive):
            status = build(args, srcs, base, archive, object_keys)
            if status:
                return status
    if args.output:
        partial = f"{args.output}.{os.getpid()}.tmp"
        shutil.copyfile(archive, partial)
        os.replace(partial, args.output)
    print(archive)
    return 0


def unity_objects(repo, srcs, base, work, jobs):
    """--unity: the sources with the same namespace flags (the generic ones;
    each arches/<dir>/) compiled in two translation units that #include
    them, so that the standard headers are parsed once per unit instead of
    once per source: a conformance cell compiles libxsdt with one of its
    cross compilers, and most of that time is parsing. A unit that does not
    compile (two sources with the same name in their anonymous namespaces)
    is split in halves until each part compiles, down to single sources:
    the same library, each source's code compiled once.
    Returns (objects, failures): failures as (command, output) of single
    sources that do not compile."""
    families = {}
    for src in srcs:
        families.setdefault(tuple(namespace_flags(repo, src)), []).append(src)
    compiler = os.path.basename(base[0])
    # gcc warns when a unit's type uses an anonymous namespace of an
    # #included source (to it, a header); the sources are not headers.
    quiet = [] if "clang" in compiler else ["-Wno-subobject-linkage"]
    objects, failures = [], []
    counter = iter(range(10 ** 6))

    def settle(group, flags):
        n = next(counter)
        if len(group) == 1:
            path, unit_flags = group[0], flags
        else:
            path, unit_flags = os.path.join(work, f"unity-{n}.cpp"), flags + quiet
            with open(path, "w") as f:
                f.writelines(f'#include "{g}"\n' for g in group)
        obj = os.path.join(work, f"unit-{n}.o")
        cmd = base + unit_flags + ["-c", path, "-o", obj]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode == 0:
            objects.append(obj)
        elif len(group) == 1:
            failures.append((cmd, result.stdout + result.stderr))
        else:
            half = len(group) // 2
            settle(group[:half], flags)
            settle(group[half:], flags)

    pending = []
    for flags, group in families.items():
        halves = [group[:len(group) // 2], group[len(group) // 2:]] if len(group) > 2 \
            else [[g] for g in group]
        pending += [(h, list(flags)) for h in halves]
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        list(pool.map(lambda pair: settle(*pair), pending))
    return sorted(objects), failures


def build(args, srcs, base, archive, object_keys):
    """Compiles srcs in parallel (each object cached under its key) and
    archives them as `archive`."""
    objects = os.path.join(args.cache, "objects")
    os.makedirs(objects, exist_ok=True)
    work = tempfile.mkdtemp(dir=args.cache, prefix=".rt-")
    try:
        if args.unity:
            return build_units(args, srcs, base, archive, work)
        def compile_one(i_src):
            i, src = i_src
            cached = os.path.join(objects, f"{object_keys[i]}-{os.path.basename(src)}.o")
            obj = os.path.join(work, f"{i:02d}-{os.path.basename(src)}.o")
            cmd = base + namespace_flags(args.repo, src) + ["-c", src, "-o", obj]
            if os.path.exists(cached):
                shutil.copyfile(cached, obj)
                return obj, cmd, subprocess.CompletedProcess(cmd, 0, "", "")
            result = subprocess.run(cmd, capture_output=True, text=True)
            if result.returncode == 0:
                partial = f"{cached}.{os.getpid()}.{i}.tmp"
                shutil.copyfile(obj, partial)
                os.replace(partial, cached)
            return obj, cmd, result

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(compile_one, enumerate(srcs)))
        failed = False
        for _, cmd, result in results:
            if result.returncode != 0:
                failed = True
                print("build-runtime: " + shlex.join(cmd), file=sys.stderr)
                sys.stderr.write(result.stdout + result.stderr)
        if failed:
            return 1
        tmp_archive = os.path.join(work, "libxsdt.a")
        result = subprocess.run([args.ar, "rcs", tmp_archive] + [r[0] for r in results],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stdout + result.stderr)
            return 1
        os.replace(tmp_archive, archive)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def build_units(args, srcs, base, archive, work):
    """--unity: compiles the units (not cached one by one: the archive is)
    and archives them as `archive`."""
    objects, failures = unity_objects(args.repo, srcs, base, work, args.jobs)
    for cmd, output in failures:
        print("build-runtime: " + shlex.join(cmd), file=sys.stderr)
        sys.stderr.write(output)
    if failures:
        return 1
    tmp_archive = os.path.join(work, "libxsdt.a")
    result = subprocess.run([args.ar, "rcs", tmp_archive] + objects,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        return 1
    os.replace(tmp_archive, archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
