"""ci/toolchains.py: reading arches/<arch>/arch.json, and discovery on a PATH
of stub compilers (shell scripts that act like a compiler that works, fails
to link, or is half installed) for fake arches, so that no real toolchain is
needed; and discovery describes gcc-12 and clang-14 as the toolchain files
(toolchains/<family>.cmake) do."""
import contextlib
import io
import json
import os
import shutil
import stat
import subprocess
import tempfile
import textwrap
import unittest
from unittest import mock

from helpers import CI_DIR

import toolchains

REPO = os.path.dirname(CI_DIR)

# A compiler stand-in: "builds" a program that is a shell script printing
# what the real program would, and appends each call to $STUB_LOG. FAIL_CXX
# makes it fail the C++ link the way a clang without libstdc++ does.
STUB_COMPILER = textwrap.dedent("""\
    #!/bin/sh
    [ -n "$STUB_LOG" ] && echo "$0 $*" >> "$STUB_LOG"
    out=a.out; lang=c
    while [ $# -gt 0 ]; do
      case "$1" in
        --version) echo "Stub compiler version 50.1.0 (@NAME@)"; exit 0 ;;
        -o) out="$2"; shift ;;
        *.cpp) lang=c++ ;;
      esac
      shift
    done
    if [ "$lang" = c++ ] && [ "@FAIL_CXX@" = yes ]; then
      echo "/usr/bin/ld: warning: something harmless" >&2
      echo "/usr/bin/ld: cannot find -lstdc++: No such file or directory" >&2
      echo "clang: error: linker command failed with exit code 1" >&2
      exit 1
    fi
    printf '#!/bin/sh\\necho xsdt-toolchain-ok %s\\n' "$lang" > "$out"
    chmod +x "$out"
    """)

# qemu-user stand-in: "qemu-fake -L /usr/fake-linux-gnu PROGRAM" runs PROGRAM.
STUB_EMULATOR = '#!/bin/sh\nshift 2\nexec "$@"\n'
# An emulator whose target libraries are not installed.
STUB_EMULATOR_NO_LOADER = ("#!/bin/sh\necho \"qemu-fake: Could not open "
                           "'/lib/ld-linux-fake.so.1': No such file or directory\" >&2\n"
                           "exit 255\n")


def write_executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def write_arch(repo, arch, triple, emulator, packages, **more):
    """arches/<arch>/arch.json of a fake repo, with the fields ci/toolchains.py
    reads (and any others given)."""
    directory = os.path.join(repo, "arches", arch)
    os.makedirs(directory)
    data = {"aliases": [], "shares": [], "triple": triple, "emulator": emulator,
            "packages": packages, **more}
    with open(os.path.join(directory, "arch.json"), "w") as f:
        json.dump(data, f, indent=2)
    return os.path.join(directory, "arch.json")


class FakeMachine(unittest.TestCase):
    """A repo with a native "host" and an emulated "fake" arch, and a bin
    directory that the tests fill with stub compilers."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-toolchains-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.repo = os.path.join(self.tmp, "repo")
        write_arch(self.repo, "host", "host-linux-gnu", [], ["binutils-multiarch"])
        write_arch(self.repo, "fake", "fake-linux-gnu", ["qemu-fake", "-L", "/usr/fake-linux-gnu"],
                   ["g++-fake-linux-gnu", "qemu-user"])
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        self.cache = os.path.join(self.tmp, "cache")
        self.log = os.path.join(self.tmp, "calls.log")
        patcher = mock.patch.dict(os.environ, {"STUB_LOG": self.log})
        patcher.start()
        self.addCleanup(patcher.stop)

    def add_compiler(self, name, fail_cxx=False):
        text = STUB_COMPILER.replace("@NAME@", name).replace("@FAIL_CXX@",
                                                              "yes" if fail_cxx else "no")
        write_executable(os.path.join(self.bin, name), text)

    def add_clang(self, version, fail_cxx=False):
        self.add_compiler(f"clang-{version}")
        self.add_compiler(f"clang++-{version}", fail_cxx=fail_cxx)

    def add_emulator(self, text=STUB_EMULATOR):
        write_executable(os.path.join(self.bin, "qemu-fake"), text)

    def discover(self, **filters):
        found = toolchains.discover(self.repo, cache_dir=self.cache, search_path=self.bin,
                                    **filters)
        return {t["name"]: t for t in found}

    def calls(self):
        if not os.path.exists(self.log):
            return 0
        with open(self.log) as f:
            return len(f.readlines())


class ArchFiles(unittest.TestCase):
    def setUp(self):
        self.repo = tempfile.mkdtemp(prefix="test-toolchains-arches-")
        self.addCleanup(shutil.rmtree, self.repo)

    def test_arch_json_fields(self):
        path = write_arch(self.repo, "emu", "emu-linux-gnu", ["qemu-emu", "-L", "/usr/emu-linux-gnu"],
                          ["g++-emu-linux-gnu", "qemu-user"], traits=["some-trait"])
        self.assertEqual(toolchains.parse_arch(path), {
            "arch": "emu", "triple": "emu-linux-gnu",
            "emulator": "qemu-emu -L /usr/emu-linux-gnu",
            "packages": ["g++-emu-linux-gnu", "qemu-user"], "cflags": [], "variants": {}})

    def test_no_emulator_means_native(self):
        path = write_arch(self.repo, "host", "host-linux-gnu", [], ["binutils-multiarch"])
        self.assertEqual(toolchains.parse_arch(path)["emulator"], "")

    def test_arches_are_the_directories_with_an_arch_json_sorted(self):
        write_arch(self.repo, "zeta", "zeta-linux-gnu", [], [])
        write_arch(self.repo, "eta", "eta-linux-gnu", ["qemu-eta"], [])
        os.makedirs(os.path.join(self.repo, "arches", "shared"))  # no arch.json
        self.assertEqual(toolchains.arch_names(self.repo), ["eta", "zeta"])
        self.assertEqual([a["arch"] for a in toolchains.load_arches(self.repo)], ["eta", "zeta"])

    def test_arch_file_without_triple_is_an_error(self):
        path = write_arch(self.repo, "sparc64", "", [], [])
        with self.assertRaisesRegex(ValueError, r"arch.json: no \"triple\""):
            toolchains.parse_arch(path)

    def test_emulator_must_be_a_list(self):
        path = write_arch(self.repo, "emu", "emu-linux-gnu", "qemu-emu -L /usr/emu", [])
        with self.assertRaisesRegex(ValueError, r"\"emulator\" must be a list of strings"):
            toolchains.parse_arch(path)

    def test_damaged_or_missing_file_is_an_error(self):
        path = write_arch(self.repo, "emu", "emu-linux-gnu", [], [])
        with open(path, "w") as f:
            f.write("{ not json")
        with self.assertRaisesRegex(ValueError, r"arch.json: not JSON"):
            toolchains.parse_arch(path)
        with self.assertRaisesRegex(ValueError, r"cannot read"):
            toolchains.parse_arch(toolchains.arch_file(self.repo, "nosuch"))

    def test_list_arches_cli(self):
        write_arch(self.repo, "eta", "eta-linux-gnu", [], [])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(toolchains.main(["--repo", self.repo, "--list-arches"]), 0)
        self.assertEqual(json.loads(out.getvalue()), ["eta"])

    def test_list_packages_cli_names_each_package_once(self):
        write_arch(self.repo, "eta", "eta-linux-gnu", ["qemu-eta"], ["g++-eta-linux-gnu",
                                                                     "qemu-user"])
        write_arch(self.repo, "zeta", "zeta-linux-gnu", ["qemu-zeta"], ["qemu-user", "zeta-bin"])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(toolchains.main(["--repo", self.repo, "--list-packages"]), 0)
        self.assertEqual(out.getvalue(), "g++-eta-linux-gnu qemu-user zeta-bin\n")

    def test_list_packages_cli_fails_on_a_damaged_file(self):
        path = write_arch(self.repo, "eta", "eta-linux-gnu", [], [])
        with open(path, "w") as f:
            f.write("{ not json")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(toolchains.main(["--repo", self.repo, "--list-packages"]), 2)
        self.assertIn("not JSON", err.getvalue())

    def test_every_arch_of_the_repo_reads(self):
        names = toolchains.arch_names(REPO)
        self.assertTrue(names, "no arches/*/arch.json")
        for arch in toolchains.load_arches(REPO):
            with self.subTest(arch["arch"]):
                self.assertTrue(arch["triple"])


class Discovery(FakeMachine):
    def test_working_clang_serves_every_arch(self):
        self.add_clang(50)
        self.add_emulator()
        found = self.discover()
        self.assertEqual(sorted(found), ["clang-50-fake", "clang-50-host"])
        fake = found["clang-50-fake"]
        self.assertIsNone(fake["broken"])
        self.assertEqual(fake["version"], "Stub compiler version 50.1.0 (clang-50)")
        self.assertEqual({k: fake[k] for k in toolchains.CELL_KEYS}, {
            "name": "clang-50-fake", "arch": "fake", "variant": "", "triple": "fake-linux-gnu",
            "compiler": "clang-50", "cc": "clang-50", "cxx": "clang++-50",
            "target_flag": "--target=fake-linux-gnu",
            "emulator": "qemu-fake -L /usr/fake-linux-gnu",
            "packages": "g++-fake-linux-gnu qemu-user clang-50"})
        self.assertEqual(found["clang-50-host"]["packages"], "binutils-multiarch clang-50")
        with open(self.log) as f:
            self.assertRegex(f.read(), r"clang\+\+-50 --target=fake-linux-gnu hello.cpp -o ")

    def test_compiler_that_cannot_link_is_reported_broken_with_its_error(self):
        self.add_clang(51, fail_cxx=True)
        self.add_emulator()
        found = self.discover()
        self.assertEqual(sorted(found), ["clang-51-fake", "clang-51-host"])
        for toolchain in found.values():
            self.assertEqual(toolchain["broken"], "clang++-51: /usr/bin/ld: cannot find "
                             "-lstdc++: No such file or directory")

    def test_missing_emulator_is_a_reason(self):
        self.add_clang(50)
        found = self.discover()
        self.assertIsNone(found["clang-50-host"]["broken"])
        self.assertRegex(found["clang-50-fake"]["broken"],
                         r"^emulator qemu-fake not found on PATH \(install .*qemu-user")

    def test_program_that_does_not_run_under_the_emulator(self):
        self.add_clang(50)
        self.add_emulator(STUB_EMULATOR_NO_LOADER)
        broken = self.discover(arches="fake")["clang-50-fake"]["broken"]
        self.assertEqual(broken, "c program built by clang-50 does not run under qemu-fake "
                         "-L /usr/fake-linux-gnu: qemu-fake: Could not open "
                         "'/lib/ld-linux-fake.so.1': No such file or directory")

    def test_cross_gcc_only_where_installed_and_half_installed_is_broken(self):
        self.add_compiler("fake-linux-gnu-gcc-9")
        self.add_compiler("fake-linux-gnu-g++-9")
        self.add_compiler("fake-linux-gnu-gcc-8")  # its g++ is not installed
        self.add_emulator()
        found = self.discover()
        # No host gcc-8 or gcc-9 on this PATH: nothing to report there.
        self.assertEqual(sorted(found), ["gcc-8-fake", "gcc-9-fake"])
        gcc9 = found["gcc-9-fake"]
        self.assertIsNone(gcc9["broken"])
        self.assertEqual((gcc9["cc"], gcc9["cxx"], gcc9["target_flag"]),
                         ("fake-linux-gnu-gcc-9", "fake-linux-gnu-g++-9", ""))
        # Not Debian's default version (no fake-linux-gnu-g++ -> ...-g++-9):
        self.assertEqual(gcc9["packages"], "g++-fake-linux-gnu qemu-user g++-9-fake-linux-gnu")
        self.assertEqual(found["gcc-8-fake"]["broken"], "fake-linux-gnu-g++-8 not found on "
                         "PATH (install g++-fake-linux-gnu qemu-user g++-8-fake-linux-gnu)")

    def test_default_cross_gcc_is_the_unversioned_package(self):
        self.add_compiler("fake-linux-gnu-gcc-9")
        self.add_compiler("fake-linux-gnu-g++-9")
        os.symlink("fake-linux-gnu-g++-9", os.path.join(self.bin, "fake-linux-gnu-g++"))
        self.add_emulator()
        self.assertEqual(self.discover()["gcc-9-fake"]["packages"],
                         "g++-fake-linux-gnu qemu-user")

    def test_native_gcc_is_plain_gcc_n(self):
        for name in ("gcc-9", "g++-9", "host-linux-gnu-gcc-9", "host-linux-gnu-g++-9"):
            self.add_compiler(name)
        toolchain = self.discover()["gcc-9-host"]
        self.assertEqual((toolchain["cc"], toolchain["cxx"], toolchain["packages"]),
                         ("gcc-9", "g++-9", "binutils-multiarch g++-9"))

    def test_filters_are_globs(self):
        self.add_clang(50)
        self.add_clang(51)
        self.add_compiler("gcc-9")
        self.add_compiler("g++-9")
        self.add_emulator()
        self.assertEqual(sorted(self.discover(compilers="clang-*", arches=["ho*"])),
                         ["clang-50-host", "clang-51-host"])
        self.assertEqual(sorted(self.discover(compilers=["gcc-9", "clang-51"])),
                         ["clang-51-fake", "clang-51-host", "gcc-9-host"])
        self.assertEqual(self.discover(arches="sparc64"), {})

    def test_a_variant_of_an_arch_is_a_toolchain_of_each_compiler(self):
        write_arch(self.repo, "two", "two-linux-gnu", [], [], cflags=["-mone"],
                   variants={"alt": {"cflags": ["-malt"]}, "same": {"traits": []}})
        self.add_clang(50)
        self.add_compiler("gcc-9")
        self.add_compiler("g++-9")
        self.add_emulator()
        found = self.discover(arches="two")
        self.assertEqual(sorted(found), [
            "clang-50-alt-two", "clang-50-same-two", "clang-50-two",
            "gcc-9-alt-two", "gcc-9-same-two", "gcc-9-two"])
        alt = found["clang-50-alt-two"]
        self.assertIsNone(alt["broken"])
        self.assertEqual((alt["compiler"], alt["variant"], alt["target_flag"], alt["cc"]),
                         ("clang-50-alt", "alt", "--target=two-linux-gnu -malt", "clang-50"))
        self.assertEqual(alt["packages"], "clang-50")
        # A variant without cflags of its own keeps the arch's.
        self.assertEqual(found["clang-50-same-two"]["target_flag"],
                         "--target=two-linux-gnu -mone")
        self.assertEqual((found["gcc-9-alt-two"]["target_flag"], found["gcc-9-two"]["variant"]),
                         ("-malt", ""))
        # A compiler glob picks its variants too; a label picks the variant alone.
        self.assertEqual(sorted(self.discover(arches="two", compilers="gcc-9")),
                         ["gcc-9-alt-two", "gcc-9-same-two", "gcc-9-two"])
        self.assertEqual(sorted(self.discover(arches="two", compilers="gcc-9-alt")),
                         ["gcc-9-alt-two"])

    def test_other_clang_tools_are_not_compilers(self):
        self.add_compiler("clang-tidy-50")
        self.add_compiler("clang-cpp-50")
        self.add_compiler("host-linux-gnu-gcc-ar-9")
        self.assertEqual(self.discover(), {})


class Cache(FakeMachine):
    def test_second_discovery_runs_no_compiler(self):
        self.add_clang(50)
        self.add_emulator()
        first = self.discover()
        calls = self.calls()
        self.assertGreater(calls, 0)
        self.assertEqual(self.discover(), first)
        self.assertEqual(self.calls(), calls)

    def test_changed_compiler_is_verified_again(self):
        self.add_clang(50)
        self.add_emulator()
        self.discover()
        calls = self.calls()
        # Same size, new mtime: an upgrade in place.
        clang = os.path.join(self.bin, "clang++-50")
        os.utime(clang, ns=(0, os.stat(clang).st_mtime_ns + 10**9))
        self.discover()
        self.assertGreater(self.calls(), calls)

    def test_installing_the_emulator_clears_its_reason(self):
        self.add_clang(50)
        self.assertTrue(self.discover(arches="fake")["clang-50-fake"]["broken"])
        self.add_emulator()
        self.assertIsNone(self.discover(arches="fake")["clang-50-fake"]["broken"])

    def test_broken_verdict_is_cached_too(self):
        self.add_clang(51, fail_cxx=True)
        self.add_emulator()
        first = self.discover()
        calls = self.calls()
        self.assertEqual(self.discover(), first)
        self.assertEqual(self.calls(), calls)
        self.assertTrue(first["clang-51-host"]["broken"])

    def test_no_cache_dir_means_no_cache(self):
        self.add_clang(50)
        toolchains.discover(self.repo, search_path=self.bin, arches="host")
        calls = self.calls()
        toolchains.discover(self.repo, search_path=self.bin, arches="host")
        self.assertEqual(self.calls(), 2 * calls)
        self.assertFalse(os.path.exists(self.cache))


class Output(FakeMachine):
    def test_write_json_writes_every_toolchain_in_order(self):
        self.add_clang(50)
        self.add_clang(51, fail_cxx=True)
        self.add_emulator()
        found = toolchains.discover(self.repo, cache_dir=self.cache, search_path=self.bin)
        out_dir = os.path.join(self.tmp, "cells")
        paths = toolchains.write_json(found, out_dir)
        self.assertEqual([os.path.basename(p) for p in paths],
                         [t["name"] + ".json" for t in found])
        with open(os.path.join(out_dir, "clang-50-host.json")) as f:
            text = f.read()
        self.assertEqual(list(json.loads(text)), list(toolchains.CELL_KEYS))
        self.assertTrue(text.startswith('{\n  "name": "clang-50-host",\n') and
                        text.endswith("}\n"), text)
        with open(os.path.join(out_dir, "clang-51-host.json")) as f:
            self.assertIn("cannot find -lstdc++", json.load(f)["broken"])

    def test_cli_prints_a_table_and_exits_0_with_broken_toolchains(self):
        self.add_clang(50)
        self.add_clang(51, fail_cxx=True)
        out = io.StringIO()
        json_dir = os.path.join(self.tmp, "cells")
        with mock.patch.dict(os.environ, {"PATH": self.bin + os.pathsep + os.environ["PATH"]}):
            with contextlib.redirect_stdout(out):
                code = toolchains.main(["--repo", self.repo, "--arch", "host",
                                        "--compiler", "clang-5[01]",
                                        "--json-dir", json_dir, "--cache", self.cache])
        self.assertEqual(code, 0)
        output = out.getvalue()
        self.assertRegex(output, r"clang-50-host +Stub compiler version 50\.1\.0 "
                                 r"\(clang-50\) +ok\n")
        self.assertRegex(output, r"clang-51-host .* BROKEN: clang\+\+-51: /usr/bin/ld: "
                                 r"cannot find -lstdc\+\+")
        self.assertIn("2 toolchains, 1 ok, 1 broken", output)
        self.assertEqual(sorted(os.listdir(json_dir)),
                         ["clang-50-host.json", "clang-51-host.json"])


# Prints, as JSON, the cell that toolchains/<family>.cmake describes for
# XSDT_ARCH, as conformance/CMakeLists.txt writes it (cmake -P: the toolchain
# file read as a script, no project configured).
DESCRIBE_TOOLCHAIN = """\
include(${TOOLCHAIN_FILE})
set(target_flag "")
if(CMAKE_C_COMPILER_TARGET)
  set(target_flag "--target=${CMAKE_C_COMPILER_TARGET}")
endif()
list(PREPEND XSDT_ARCH_CFLAGS ${target_flag})
list(JOIN XSDT_ARCH_CFLAGS " " target_flag)
list(JOIN XSDT_EMULATOR " " emulator)
set(packages ${XSDT_ARCH_PACKAGES} ${XSDT_COMPILER_PACKAGES})
list(REMOVE_DUPLICATES packages)
list(JOIN packages " " packages)
message("{\\"name\\": \\"${XSDT_COMPILER}-${XSDT_ARCH}\\", \\"arch\\": \\"${XSDT_ARCH}\\", \\
\\"variant\\": \\"\\", \\"triple\\": \\"${XSDT_TRIPLE}\\", \\"compiler\\": \\"${XSDT_COMPILER}\\", \\
\\"cc\\": \\"${CMAKE_C_COMPILER}\\", \\"cxx\\": \\"${CMAKE_CXX_COMPILER}\\", \\
\\"target_flag\\": \\"${target_flag}\\", \\"emulator\\": \\"${emulator}\\", \\
\\"packages\\": \\"${packages}\\"}")
"""


def cmake_toolchain_cell(family, version, arch, script):
    """The cell of toolchains/<family>.cmake -DXSDT_ARCH=arch at version."""
    command = ["cmake", f"-DTOOLCHAIN_FILE={os.path.join(REPO, 'toolchains', family + '.cmake')}",
               f"-DXSDT_ARCH={arch}", f"-DXSDT_{family.upper()}_VERSION={version}",
               "-P", script]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{proc.stderr}")
    return json.loads(proc.stderr)


class SameAsTheToolchainFiles(unittest.TestCase):
    """Discovery describes gcc-12 and clang-14 exactly as the toolchain files
    do for every arch, so its JSON can replace the CMake-written
    build/cells/*.json."""

    def test_discovered_descriptions_match_the_cmake_files(self):
        if not shutil.which("cmake"):
            self.skipTest("cmake is not installed")
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "describe.cmake")
            with open(script, "w") as f:
                f.write(DESCRIBE_TOOLCHAIN)
            expected = {}
            for arch in toolchains.arch_names(REPO):
                for family, version in (("gcc", 12), ("clang", 14)):
                    description = cmake_toolchain_cell(family, version, arch, script)
                    self.assertEqual(list(description), list(toolchains.CELL_KEYS))
                    if shutil.which(description["cc"]):
                        expected[description["name"]] = description
        if not expected:
            self.skipTest("neither gcc-12 nor clang-14 is installed")
        found = toolchains.discover(REPO, compilers=["gcc-12", "clang-14"],
                                    verify_toolchains=False)
        discovered = {t["name"]: {k: t[k] for k in toolchains.CELL_KEYS} for t in found}
        for name, description in expected.items():
            with self.subTest(name):
                self.assertEqual(discovered.get(name), description)

    def test_toolchain_file_without_an_arch_is_an_error(self):
        if not shutil.which("cmake"):
            self.skipTest("cmake is not installed")
        for family in ("gcc", "clang"):
            proc = subprocess.run(["cmake", "-P", os.path.join(REPO, "toolchains",
                                                               family + ".cmake")],
                                  capture_output=True, text=True)
            self.assertNotEqual(proc.returncode, 0)
            self.assertIn("needs -DXSDT_ARCH=<arch>", proc.stderr)
            proc = subprocess.run(["cmake", "-DXSDT_ARCH=nosuch", "-P",
                                   os.path.join(REPO, "toolchains", family + ".cmake")],
                                  capture_output=True, text=True)
            self.assertNotEqual(proc.returncode, 0)
            self.assertIn("no arches/nosuch/arch.json", proc.stderr)


if __name__ == "__main__":
    unittest.main()
