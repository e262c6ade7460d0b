#!/usr/bin/env python3
"""The installed tree, tested from outside, as a user meets it.

  install_test.py install BUILD PREFIX
      cmake --install BUILD into PREFIX (a fresh directory).
  install_test.py cross-runtime SOURCE WORK PREFIX ARCH
      builds libxsdt for ARCH with toolchains/gcc.cmake and installs it into
      PREFIX with the Debian multiarch libdir, lib/<triple>.
  install_test.py exports LIBRARY INCLUDE MAP
      the installed libxsdt.so exports exactly the C functions that the
      headers in INCLUDE declare (gcc -aux-info lists them), MAP lists the
      same names, and its SONAME is libxsdt.so.0.
  install_test.py selector SOURCE PREFIX
      for every arch and compiler: a probe program compiled with only
      -I PREFIX/include gives the same object as with the arch's backend
      named explicitly (sdt/include and arches/<arch>/include of SOURCE);
      a target no arch claims is a clear #error.
  install_test.py package BUILD DEBS ROOT [SAME_AS]
      cpack -G DEB in BUILD (a host or a cross build) into DEBS, checks
      each package (Architecture as dpkg-architecture names the build's
      triple, Multi-Arch, libraries in lib/<triple> and stripped, libxsdt0's
      Depends naming the package of every library it needs) and unpacks it
      with dpkg -x into ROOT, made afresh. With SAME_AS (the directory of
      another arch's .debs, unpacked into ROOT before), ROOT is kept and
      each Multi-Arch: same package holds the same files outside
      lib/<triple> as its namesake there, byte for byte, as dpkg requires.
  install_test.py trace SOURCE PREFIX WORK ARCH
      xsdt-trace from PREFIX/bin on a program built for ARCH (native: the
      host's) with -I PREFIX/include only: the issue's example (a predicate,
      quantize() keyed by probename); xsdt-trace finds the agent of the
      program's arch in PREFIX (the host's with the tools, another arch's
      in PREFIX/lib/<triple>/xsdt with its libxsdt) and, for a foreign
      ARCH, starts the program under the arch's emulator itself. The buckets
      are read off the program's source (sdt/trace/tests/lit/Inputs/
      requests.c).
  install_test.py example SOURCE PREFIX WORK (cmake|make) ARCH
      builds docs/example, copied out of the source tree, against PREFIX
      only (find_package, or make with pkg-config), natively (ARCH=native)
      or for ARCH, and runs it (under qemu-user for a foreign ARCH).

Exit 0 on success; 1 with a message naming what failed. A compiler or
tool that is missing is a failure that says MISSING, never a pass.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(message):
    print(f"install_test: {message}", file=sys.stderr)
    sys.exit(1)


def run(cmd, cwd=None, env=None):
    print("+ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(proc.stdout, end="", flush=True)
    if proc.returncode != 0:
        fail(f"exit {proc.returncode}: {' '.join(cmd)}")
    return proc.stdout


def need(tool):
    path = shutil.which(tool)
    if not path:
        fail(f"MISSING: {tool} is not installed")
    return path


def ci_module(source, name):
    """A module of SOURCE/ci: the arches and the toolchains as the suite
    finds them (ci/toolchains.py)."""
    sys.path.insert(0, os.path.join(source, "ci"))
    return __import__(name)


def arches(source):
    """{arch: ci/toolchains.py's arch dict} of every arch of SOURCE."""
    return {a["arch"]: a for a in ci_module(source, "toolchains").load_arches(source)}


def host_arch(source):
    """The arch whose programs run natively (its arch.json names no emulator)."""
    native = [name for name, arch in arches(source).items() if not arch["emulator"]]
    if len(native) != 1:
        fail(f"arches/*/arch.json: {len(native)} arches run natively, not one")
    return native[0]


def compilers(source):
    """{arch: [toolchain dicts]}: every gcc and clang on PATH for each arch
    (ci/toolchains.py's discovery, unverified), variants included. An arch
    without a gcc or without a clang is MISSING."""
    toolchains = ci_module(source, "toolchains")
    found = toolchains.candidate_toolchains(
        toolchains.load_arches(source),
        toolchains.commands_on_path(os.environ.get("PATH", "")))
    by_arch = {}
    for toolchain in found:
        by_arch.setdefault(toolchain["arch"], []).append(toolchain)
    for arch in arches(source):
        kinds = {t["compiler"].split("-")[0] for t in by_arch.get(arch, [])}
        for kind in ("gcc", "clang"):
            if kind not in kinds:
                fail(f"MISSING: no {kind} for {arch} on PATH "
                     "(toolchains/install-deps.sh installs them)")
    return by_arch


def cross_gcc(source, arch):
    """The C compiler of arch's first gcc toolchain on PATH."""
    gccs = [t for t in compilers(source)[arch] if t["compiler"].startswith("gcc-")
            and not t["variant"]]
    return need(gccs[0]["cc"])


def cmd_install(build, prefix):
    if os.path.exists(prefix):
        shutil.rmtree(prefix)
    run(["cmake", "--install", build, "--prefix", prefix])


def cmd_cross_runtime(source, work, prefix, arch):
    triple = arches(source)[arch]["triple"]
    build = os.path.join(work, f"libxsdt-{arch}")
    if os.path.exists(build):
        shutil.rmtree(build)
    run(["cmake", "-S", source, "-B", build, "-G", "Ninja",
         f"-DCMAKE_TOOLCHAIN_FILE={source}/toolchains/gcc.cmake",
         f"-DXSDT_ARCH={arch}", "-DBUILD_TESTING=OFF",
         "-DCMAKE_BUILD_TYPE=Release"])
    run(["cmake", "--build", build, "--target", "xsdt_lib_shared",
         "xsdt_lib_static", "xsdt-trace-agent"])
    run(["cmake", "--install", build, "--prefix", prefix,
         "--component", "runtime"])
    run(["cmake", "--install", build, "--prefix", prefix,
         "--component", "dev"])
    # The default libdir is the multiarch one, whatever the prefix.
    library = os.path.join(prefix, "lib", triple, "libxsdt.so.0")
    if not os.path.exists(library):
        fail(f"the {arch} libxsdt is not in lib/{triple} of the prefix")
    agent = os.path.join(prefix, "lib", triple, "xsdt", "libxsdt-trace-agent.so")
    if not os.path.exists(agent):
        fail(f"the {arch} xsdt-trace agent is not in lib/{triple}/xsdt of the prefix")


# The example over requests.c: arg0 > 100 holds for i = 101..299;
# arg1 = i * 10: [512, 1024) holds i = 101, 102, [1024, 2048) i = 103..204,
# [2048, 4096) i = 205..299.
TRACE_EXAMPLE = "myapp:::request /arg0 > 100/ { @lat[probename] = quantize(arg1); }"
TRACE_BUCKETS = {256: 0, 512: 2, 1024: 102, 2048: 95, 4096: 0}


def cmd_trace(source, prefix, work, arch):
    host = host_arch(source)
    target = host if arch == "native" else arch
    cc = need("gcc") if target == host else cross_gcc(source, target)
    os.makedirs(work, exist_ok=True)
    program = os.path.join(work, f"requests-{target}")
    run([cc, "-O2", "-std=gnu99", "-I", os.path.join(prefix, "include"),
         os.path.join(source, "sdt", "trace", "tests", "lit", "Inputs", "requests.c"),
         "-o", program])
    trace = os.path.join(prefix, "bin", "xsdt-trace")
    out = os.path.join(work, f"requests-{target}.trace")
    env = {k: v for k, v in os.environ.items() if k != "XSDT_TRACE_AGENT"}
    printed = run([trace, "-n", TRACE_EXAMPLE, "-o", out, "-c", program], env=env)
    with open(out) as f:
        text = f.read()
    buckets = {int(v): int(n) for v, n in
               re.findall(r"^\s*(-?\d+) \|[@ ]*\s(\d+)$", text, re.M)}
    wrong = {v: (n, buckets.get(v)) for v, n in TRACE_BUCKETS.items() if buckets.get(v) != n}
    if not text.lstrip().startswith("request") or wrong:
        fail(f"xsdt-trace on the {target} program printed:\n{text}\nbuckets (expected, "
             f"printed): {wrong}")
    if "total 44850" not in printed or "exited with status 0" not in printed:
        fail(f"the traced {target} program's own output or status changed:\n{printed}")
    print(f"install_test: xsdt-trace from {prefix} on the {target} program: every bucket "
          "as the source says")


def cmd_exports(library, include, mapfile):
    headers = ["xsdt/runtime.h", "xsdt/sdt-runtime.h", "xsdt/consumer.h", "xsdt/attach.h",
               "xsdt/sdt.h"]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "all.c")
        with open(src, "w") as f:
            f.writelines(f"#include <{h}>\n" for h in headers)
        info = os.path.join(tmp, "all.aux")
        run([need("gcc"), "-I", include, "-aux-info", info, "-c", src,
             "-o", os.path.join(tmp, "all.o")])
        declared = set()
        with open(info) as f:
            for line in f:
                # /* FILE:LINE:NC */ extern int xsdt_list (...);
                m = re.match(r"/\* (\S+):\d+:\S+ \*/ (.*)", line)
                if m and os.path.realpath(m.group(1)).startswith(
                        os.path.realpath(include)):
                    name = re.search(r"(\w+) \(", m.group(2))
                    # Names ending in _ are the headers' own helpers,
                    # defined (hidden) in every object that includes them
                    # (usdt.h's registration hooks), not libxsdt's ABI.
                    if name and not name.group(1).endswith("_"):
                        declared.add(name.group(1))
    out = run([need("nm"), "-D", "--defined-only", library])
    exported = {l.split()[-1].split("@")[0] for l in out.splitlines()
                if l.strip() and l.split()[1] in "TtDdBbRrVvWwi"}
    exported.discard("XSDT_0")
    with open(mapfile) as f:
        mapped = set(re.findall(r"^\s+(xsdt_\w+);", f.read(), re.M))
    problems = []
    for what, names in (("exported but not declared", exported - declared),
                        ("declared but not exported", declared - exported),
                        ("declared but not in libxsdt.map", declared - mapped),
                        ("in libxsdt.map but not declared", mapped - declared)):
        if names:
            problems.append(f"{what}: {', '.join(sorted(names))}")
    if not declared:
        problems.append("gcc -aux-info found no declarations")
    if problems:
        fail(f"{library}: " + "; ".join(problems))
    soname = run(["readelf", "-d", library])
    if "Library soname: [libxsdt.so.0]" not in soname:
        fail(f"{library}: no SONAME libxsdt.so.0")
    print(f"install_test: {library}: {len(exported)} exported functions, "
          f"each declared in the installed headers and listed in the map")


PROBE_PROGRAM = """\
#include <xsdt/usdt.h>
#include <xsdt/sys-sdt.h>
int f(int a, long b, double c, const char *s) {
  XSDT_PROBE(selector, four, a, b, c, s);
  STAP_PROBE2(selector, two, a + 1, b - 1);
  return a;
}
"""


def cmd_selector(source, prefix):
    include = os.path.join(prefix, "include")
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(PROBE_PROGRAM)
        by_arch = compilers(source)
        for arch in arches(source):
            for toolchain in by_arch[arch]:
                cc = [need(toolchain["cc"]), *toolchain["target_flag"].split()]
                name = toolchain["compiler"]
                flags = ["-O2", "-Wall", "-Wextra", "-Werror", "-c", src]
                installed = os.path.join(tmp, f"{arch}-{name}-installed.o")
                explicit = os.path.join(tmp, f"{arch}-{name}-explicit.o")
                run([*cc, *flags, "-I", include, "-o", installed])
                run([*cc, *flags, "-I", os.path.join(source, "sdt/include"),
                     "-I", os.path.join(source, "arches", arch, "include"),
                     "-o", explicit])
                with open(installed, "rb") as a, open(explicit, "rb") as b:
                    if a.read() != b.read():
                        fail(f"{arch} {name}: -I {include} alone does not "
                             f"give the object that arches/{arch}/include "
                             "gives")
                print(f"install_test: {arch} {name}: the installed headers "
                      f"chose arches/{arch}")
                checked += 1
        # A target no arch claims.
        clang = next(t["cc"] for t in by_arch[host_arch(source)]
                     if t["compiler"].startswith("clang-"))
        proc = subprocess.run(
            [clang, "--target=sparc64-linux-gnu", "-fsyntax-only",
             "-I", include, src], text=True, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        if proc.returncode == 0 or "xsdt: no probe backend for this target" \
                not in proc.stdout:
            fail("an unsupported target (sparc64) did not get xsdt's "
                 f"#error:\n{proc.stdout}")
    print(f"install_test: {checked} arch x compiler pairs chose their backend")


# The packages a build makes, with their Multi-Arch field; a cross build
# makes the first two (its tools would not run on the build machine).
PACKAGES = {"libxsdt0": "same", "libxsdt-dev": "same", "xsdt-tools": "foreign"}


def deb_field(deb, field):
    return subprocess.run([need("dpkg-deb"), "--field", deb, field], text=True,
                          stdout=subprocess.PIPE, check=True).stdout.strip()


def deb_files(deb):
    """{path: bytes} of the regular files and symlinks (as "-> target")
    that deb installs."""
    import io
    import tarfile
    data = subprocess.run([need("dpkg-deb"), "--fsys-tarfile", deb],
                          stdout=subprocess.PIPE, check=True).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar:
            path = os.path.normpath(member.name).lstrip("./")
            if member.isfile():
                files[path] = tar.extractfile(member).read()
            elif member.issym():
                files[path] = f"-> {member.linkname}".encode()
    return files


def needed_packages(library):
    """The Debian package of each library that library needs (DT_NEEDED),
    as dpkg -S names the owner of the build machine's library of that
    SONAME: what libxsdt0's Depends must name, on every arch."""
    dynamic = run([need("readelf"), "-d", library])
    packages = {}
    for soname in re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic):
        owner = None
        for path in run([need("gcc"), f"-print-file-name={soname}"]).split():
            real = os.path.realpath(path)
            # Debian 12's packages list /lib/..., merged-/usr paths are /usr/lib/...
            for candidate in (path, real, re.sub(r"^/usr/lib/", "/lib/", real)):
                query = subprocess.run(["dpkg", "-S", candidate], text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                if query.returncode == 0:
                    owner = query.stdout.split(":")[0].split(",")[0].strip()
                    break
        if not owner:
            fail(f"dpkg -S knows no package of {soname}, which {library} needs")
        packages[soname] = owner
    return packages


def cmd_package(build, debs, root, same_as=None):
    for fresh in [debs] + ([] if same_as else [root]):
        if os.path.exists(fresh):
            shutil.rmtree(fresh)
    os.makedirs(root, exist_ok=True)
    run([need("cpack"), "-G", "DEB", "-B", debs, "--config",
         os.path.join(build, "CPackConfig.cmake")], cwd=build)
    built = {deb_field(os.path.join(debs, f), "Package"): os.path.join(debs, f)
             for f in os.listdir(debs) if f.endswith(".deb")}
    cross = "xsdt-tools" not in built
    expected = set(PACKAGES) - ({"xsdt-tools"} if cross else set())
    if set(built) != expected:
        fail(f"cpack made {sorted(built)}, not {sorted(expected)}")
    triple = None
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_INSTALL_LIBDIR:"):
                libdir = line.split("=", 1)[1].strip()
                triple = libdir.split("/")[-1] if "/" in libdir else None
    if not triple:
        fail(f"{build}: the libdir is not lib/<multiarch triple>")
    architecture = subprocess.run(
        [need("dpkg-architecture"), "-t", triple, "-qDEB_HOST_ARCH"], text=True,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.strip()
    problems = []
    for package, deb in sorted(built.items()):
        if deb_field(deb, "Architecture") != architecture:
            problems.append(f"{package}: Architecture {deb_field(deb, 'Architecture')}, "
                            f"dpkg-architecture -t {triple} says {architecture}")
        if deb_field(deb, "Multi-Arch") != PACKAGES[package]:
            problems.append(f"{package}: Multi-Arch '{deb_field(deb, 'Multi-Arch')}', "
                            f"not {PACKAGES[package]}")
        files = deb_files(deb)
        for path in files:
            if package == "libxsdt0" and not path.startswith(f"usr/lib/{triple}/"):
                problems.append(f"{package}: {path} is outside usr/lib/{triple}")
    summaries = {deb_field(d, "Description").splitlines()[0] for d in built.values()}
    if len(summaries) != len(built):
        problems.append("two packages share a summary line")
    if problems:
        fail("; ".join(problems))
    run([need("dpkg"), "-x", built["libxsdt0"], root])
    library = os.path.join(root, "usr", "lib", triple, "libxsdt.so.0")
    sections = run([need("readelf"), "-S", "-W", library])
    if ".debug_info" in sections or ".symtab" in sections:
        fail(f"{library} is not stripped")
    depends = deb_field(built["libxsdt0"], "Depends")
    named = {d.split()[0] for d in depends.split(",") if d.strip()}
    for soname, package in needed_packages(library).items():
        if package not in named:
            fail(f"libxsdt0 needs {soname} (package {package}); Depends is '{depends}'")
    for package, deb in sorted(built.items()):
        run([need("dpkg"), "-x", deb, root])
    if same_as:
        others = {deb_field(os.path.join(same_as, f), "Package"): os.path.join(same_as, f)
                  for f in os.listdir(same_as) if f.endswith(".deb")}
        for package, deb in sorted(built.items()):
            if PACKAGES[package] != "same":
                continue
            mine, theirs = deb_files(deb), deb_files(others[package])
            shared = lambda files: {p: c for p, c in files.items()
                                    if not re.match(r"usr/lib/[^/]+-linux-[^/]+/", p)}
            if shared(mine) != shared(theirs):
                differ = sorted(set(shared(mine).items()) ^ set(shared(theirs).items()))
                fail(f"{package}: Multi-Arch: same, but files outside lib/<triple> differ "
                     f"from {others[package]}: {', '.join(sorted({p for p, _ in differ}))}")
            print(f"install_test: {package}: {len(shared(mine))} files outside "
                  f"lib/<triple>, the same as in {os.path.basename(others[package])}")
    print(f"install_test: {', '.join(sorted(built))} for {architecture} "
          f"({triple}) checked and unpacked into {root}")


def cmd_example(source, prefix, work, via, arch):
    example = os.path.join(work, f"example-{via}-{arch}")
    if os.path.exists(example):
        shutil.rmtree(example)
    shutil.copytree(os.path.join(source, "docs", "example"), example)
    env = dict(os.environ)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env["PATH"]
    host = host_arch(source)
    foreign = arch != "native" and arch != host
    target = host if arch == "native" else arch
    triple = arches(source)[target]["triple"]
    libdir_candidates = [os.path.join(prefix, "lib", triple),
                         os.path.join(prefix, "lib")]
    emulator = arches(source)[target]["emulator"].split() if foreign else []
    if emulator:
        need(emulator[0])
    if via == "cmake":
        build = os.path.join(example, "build")
        cmd = ["cmake", "-S", example, "-B", build, "-G", "Ninja",
               f"-DCMAKE_PREFIX_PATH={prefix}"]
        if foreign:
            cc = cross_gcc(source, target)
            cmd += ["-DCMAKE_SYSTEM_NAME=Linux",
                    f"-DCMAKE_SYSTEM_PROCESSOR={target}",
                    f"-DCMAKE_C_COMPILER={cc}",
                    f"-DCMAKE_LIBRARY_ARCHITECTURE={triple}"]
        run(cmd, env=env)
        run(["cmake", "--build", build], env=env)
        program = os.path.join(build, "shop")
    else:
        pcdirs = [os.path.join(d, "pkgconfig") for d in libdir_candidates
                  if os.path.isdir(os.path.join(d, "pkgconfig"))]
        if not pcdirs:
            fail(f"no pkgconfig directory for {triple} under {prefix}")
        env["PKG_CONFIG_LIBDIR"] = pcdirs[0]
        make = [need("make"), "-C", example]
        if foreign:
            make.append(f"CC={cross_gcc(source, target)}")
        run(make, env=env)
        program = os.path.join(example, "shop")
    for d in libdir_candidates:
        if os.path.exists(os.path.join(d, "libxsdt.so.0")):
            env["LD_LIBRARY_PATH"] = d
            break
    if foreign and emulator:
        out = run([*emulator, program], env=env)
    else:
        out = run([program], env=env)
    expected = []
    for id, item in enumerate(["tea", "bread", "soap"], start=1):
        expected.append(f"shop:order__placed id={id} item={item} "
                        f"cents={250 * id}")
        expected.append(f"shop:order__shipped id={id}")
    expected.append("shop: 3 placed, 3 shipped, 0 mismatches")
    if out.splitlines() != expected:
        fail("the example printed:\n" + out + "expected:\n" +
             "\n".join(expected))
    print(f"install_test: example via {via} for {target}: every hit with "
          f"the arguments the source passed")


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    what, args = argv[1], argv[2:]
    commands = {"install": (cmd_install, 2),
                "cross-runtime": (cmd_cross_runtime, 4),
                "exports": (cmd_exports, 3),
                "selector": (cmd_selector, 2),
                "package": (cmd_package, 3),
                "example": (cmd_example, 5),
                "trace": (cmd_trace, 4)}
    if what not in commands or len(args) not in (commands[what][1],
                                                 commands[what][1] + (what == "package")):
        fail(__doc__)
    commands[what][0](*args)


if __name__ == "__main__":
    main(sys.argv)
