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


def arch_facts(source, arch):
    with open(os.path.join(source, "arches", arch, "arch.json")) as f:
        return json.load(f)


def arches(source):
    root = os.path.join(source, "arches")
    return sorted(d for d in os.listdir(root)
                  if os.path.exists(os.path.join(root, d, "arch.json")))


def host_arch(source):
    machine = os.uname().machine.lower()
    for arch in arches(source):
        facts = arch_facts(source, arch)
        names = [arch, *facts.get("aliases", []), facts["triple"].split("-")[0]]
        if machine in (n.lower() for n in names):
            return arch
    fail(f"no arches/<arch>/arch.json names this machine ({machine})")


def cmd_install(build, prefix):
    if os.path.exists(prefix):
        shutil.rmtree(prefix)
    run(["cmake", "--install", build, "--prefix", prefix])


def cmd_cross_runtime(source, work, prefix, arch):
    triple = arch_facts(source, arch)["triple"]
    build = os.path.join(work, f"libxsdt-{arch}")
    if os.path.exists(build):
        shutil.rmtree(build)
    run(["cmake", "-S", source, "-B", build, "-G", "Ninja",
         f"-DCMAKE_TOOLCHAIN_FILE={source}/toolchains/gcc.cmake",
         f"-DXSDT_ARCH={arch}", "-DBUILD_TESTING=OFF",
         "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_INSTALL_LIBDIR=lib/{triple}"])
    run(["cmake", "--build", build, "--target", "xsdt_lib_shared",
         "xsdt_lib_static"])
    run(["cmake", "--install", build, "--prefix", prefix,
         "--component", "runtime"])
    run(["cmake", "--install", build, "--prefix", prefix,
         "--component", "dev"])


def cmd_exports(library, include, mapfile):
    headers = ["xsdt/runtime.h", "xsdt/sdt-runtime.h", "xsdt/consumer.h",
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
                    if name:
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


def compilers(source, arch):
    facts = arch_facts(source, arch)
    triple = facts["triple"]
    flags = facts.get("cflags", [])
    return [([f"{triple}-gcc-12", *flags], "gcc-12"),
            (["clang-14", f"--target={triple}", *flags], "clang-14")]


def cmd_selector(source, prefix):
    include = os.path.join(prefix, "include")
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(PROBE_PROGRAM)
        for arch in arches(source):
            for cc, name in compilers(source, arch):
                need(cc[0])
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
        proc = subprocess.run(
            ["clang-14", "--target=mips64el-linux-gnuabi64", "-fsyntax-only",
             "-I", include, src], text=True, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        if proc.returncode == 0 or "xsdt: no probe backend for this target" \
                not in proc.stdout:
            fail("an unsupported target (mips64el) did not get xsdt's "
                 f"#error:\n{proc.stdout}")
    print(f"install_test: {checked} arch x compiler pairs chose their backend")


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
    facts = arch_facts(source, target)
    triple = facts["triple"]
    libdir_candidates = [os.path.join(prefix, "lib", triple),
                         os.path.join(prefix, "lib")]
    emulator = facts.get("emulator", []) if foreign else []
    if emulator:
        need(emulator[0])
    if via == "cmake":
        build = os.path.join(example, "build")
        cmd = ["cmake", "-S", example, "-B", build, "-G", "Ninja",
               f"-DCMAKE_PREFIX_PATH={prefix}"]
        if foreign:
            cc = need(f"{triple}-gcc-12")
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
            make.append(f"CC={need(triple + '-gcc-12')}")
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
                "example": (cmd_example, 5)}
    if what not in commands or len(args) != commands[what][1]:
        fail(__doc__)
    commands[what][0](*args)


if __name__ == "__main__":
    main(sys.argv)
