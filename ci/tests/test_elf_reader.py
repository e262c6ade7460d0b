"""ci/elf_reader.py: function symbols, bytes at an address and the SDT(9)
site records of a program built here with the host's compiler, and a
damaged file refused with its name."""
import os
import platform
import subprocess
import tempfile
import unittest

from helpers import CI_DIR

import arch_facts
import elf_reader

REPO = os.path.dirname(CI_DIR)


def host_arch():
    """The arch directory of this machine: CMake's (XSDT_HOST_ARCH), or the
    one whose name or alias uname gives."""
    if os.environ.get("XSDT_HOST_ARCH"):
        return os.environ["XSDT_HOST_ARCH"]
    for name in sorted(os.listdir(os.path.join(REPO, "arches"))):
        try:
            facts = arch_facts.load(REPO, name)
        except arch_facts.ArchFactsError:
            continue  # a shared directory
        if platform.machine() in [name, *facts.fact("aliases", kind=list)]:
            return name
    raise RuntimeError(f"no arches/ directory for {platform.machine()}")

PROGRAM = r"""
#include <xsdt/sdt.h>
SDT_PROVIDER_DEFINE(er);
SDT_PROBE_DEFINE1(er, , , hit, "int");
__attribute__((noinline)) int fire(int x) { SDT_PROBE1(er, , , hit, x); return x + 1; }
"""


class ElfReader(unittest.TestCase):
    def setUp(self):
        self.arch = host_arch()
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def build(self):
        source = os.path.join(self.dir.name, "p.c")
        with open(source, "w") as f:
            f.write(PROGRAM)
        program = os.path.join(self.dir.name, "p.so")
        # Linked, as sdt-cost.py's builds are (xsdt_sdt_fire1 stays undefined).
        subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-nostdlib", f"-I{REPO}/sdt/include",
                        f"-I{REPO}/arches/{self.arch}/include", source, "-o", program],
                       check=True)
        return program

    def test_a_site_record_points_into_its_function_at_the_jump_nop(self):
        elf = elf_reader.Elf(self.build())
        start, size = elf.functions["fire"]
        records = elf.sdt_site_records()
        self.assertEqual(len(records), 1)
        site, target = records[0]
        self.assertTrue(start <= site < start + size, (hex(site), hex(start), size))
        self.assertTrue(start <= target < start + size)
        want = arch_facts.load(REPO, self.arch).jump_bytes("jump_site")
        nop, section = elf.bytes_at(site, arch_facts.byte_count(want))
        self.assertEqual(section, ".text")
        self.assertEqual(nop.hex(" "), want)
        self.assertEqual(elf.bytes_at(0, 4), (None, None))

    def test_a_damaged_file_is_refused_with_its_name(self):
        path = os.path.join(self.dir.name, "damaged")
        with open(path, "wb") as f:
            f.write(b"\x7fELF\x02\x01" + b"\0" * 10)
        with self.assertRaisesRegex(elf_reader.ElfReadError, "damaged: not a readable ELF"):
            elf_reader.Elf(path)


if __name__ == "__main__":
    unittest.main()
