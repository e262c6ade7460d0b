#!/usr/bin/env python3
"""Writes a damaged copy of an ELF file: %damage IN OUT EDIT... (lit.cfg.py).

The damaged-*.test cases start from a real compiled file and change a few
header fields, so that each case differs from a good file in exactly the way
its name says. Fields are found by name, in the file's own class and byte
order, so that a test reads the same whatever arch the host compiles for.

EDIT is FIELD=VALUE, applied in order:
  FIELD  an ELF header field (e_type, e_machine, e_shoff, e_shentsize,
         e_shnum, e_shstrndx, ...), an identification byte (ei_class,
         ei_data), SECTION:sh_FIELD for the header of the first section of
         that name (.note.stapsdt:sh_offset), or "truncate" for the file's
         length
  VALUE  integers and fields joined by + and -, read from the file as it is
         before this edit: e_shoff+64, filesize-1, .text:sh_offset,
         3-ei_class; "filesize" is the file's length

Standard library only: the tests run where nothing else is installed.
"""
import re
import struct
import sys

# (offset in a 32-bit file, offset in a 64-bit file, size in 32, size in 64)
EHDR = {
    "e_type": (16, 16, 2, 2),
    "e_machine": (18, 18, 2, 2),
    "e_version": (20, 20, 4, 4),
    "e_entry": (24, 24, 4, 8),
    "e_phoff": (28, 32, 4, 8),
    "e_shoff": (32, 40, 4, 8),
    "e_flags": (36, 48, 4, 4),
    "e_ehsize": (40, 52, 2, 2),
    "e_phentsize": (42, 54, 2, 2),
    "e_phnum": (44, 56, 2, 2),
    "e_shentsize": (46, 58, 2, 2),
    "e_shnum": (48, 60, 2, 2),
    "e_shstrndx": (50, 62, 2, 2),
}
IDENT = {"ei_class": 4, "ei_data": 5}
SHDR = {
    "sh_name": (0, 0, 4, 4),
    "sh_type": (4, 4, 4, 4),
    "sh_flags": (8, 8, 4, 8),
    "sh_addr": (12, 16, 4, 8),
    "sh_offset": (16, 24, 4, 8),
    "sh_size": (20, 32, 4, 8),
    "sh_link": (24, 40, 4, 4),
    "sh_info": (28, 44, 4, 4),
    "sh_addralign": (32, 48, 4, 8),
    "sh_entsize": (36, 56, 4, 8),
}


class Elf:
    def __init__(self, data):
        if data[:4] != b"\x7fELF":
            sys.exit("damage_elf: the input is not an ELF file")
        self.data = data
        self.is_64 = data[4] == 2
        self.order = ">" if data[5] == 2 else "<"

    def _get(self, at, size):
        fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
        return struct.unpack_from(self.order + fmt, self.data, at)[0]

    def _put(self, at, size, value):
        fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
        struct.pack_into(self.order + fmt, self.data, at, value & ((1 << 8 * size) - 1))

    def _layout(self, table, name):
        at32, at64, size32, size64 = table[name]
        return (at64, size64) if self.is_64 else (at32, size32)

    def _section_header(self, section):
        """The offset of the header of the first section named `section`."""
        shoff, shentsize = self.get("e_shoff"), self.get("e_shentsize")
        strtab_header = shoff + self.get("e_shstrndx") * shentsize
        at, size = self._layout(SHDR, "sh_offset")
        names_at = self._get(strtab_header + at, size)
        for index in range(self.get("e_shnum")):
            header = shoff + index * shentsize
            name_at = names_at + self._get(header, 4)
            name = self.data[name_at:self.data.index(b"\0", name_at)].decode()
            if name == section:
                return header
        sys.exit(f"damage_elf: no section {section}")

    def _locate(self, field):
        if field in IDENT:
            return IDENT[field], 1
        if field in EHDR:
            return self._layout(EHDR, field)
        section, _, name = field.rpartition(":")
        if section and name in SHDR:
            at, size = self._layout(SHDR, name)
            return self._section_header(section) + at, size
        sys.exit(f"damage_elf: unknown field {field}")

    def get(self, field):
        if field == "filesize":
            return len(self.data)
        return self._get(*self._locate(field))

    def set(self, field, value):
        if field == "truncate":
            del self.data[value:]
            return
        at, size = self._locate(field)
        self._put(at, size, value)

    def evaluate(self, expression):
        value, sign = 0, 1
        for term in re.split(r"([+-])", expression):
            if term in "+-":
                sign = -1 if term == "-" else 1
                continue
            try:
                value += sign * int(term, 0)
            except ValueError:
                value += sign * self.get(term)
        return value


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: damage_elf.py IN OUT FIELD=VALUE...")
    with open(argv[1], "rb") as f:
        elf = Elf(bytearray(f.read()))
    for edit in argv[3:]:
        field, _, expression = edit.partition("=")
        elf.set(field, elf.evaluate(expression))
    with open(argv[2], "wb") as f:
        f.write(elf.data)


if __name__ == "__main__":
    main(sys.argv)
