"""Writes MACHINE into the e_machine field of the ELF file FILE (a copy of a
host program turned into another arch's, as far as its header says)."""
import struct
import sys

path, machine = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    ident = f.read(16)
    f.seek(18)
    f.write(struct.pack("<H" if ident[5] == 1 else ">H", machine))
