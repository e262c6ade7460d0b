"""What the project's Python tools read of an ELF file, through pyelftools
(Debian's python3-pyelftools): function symbols, the bytes at a link-time
address, and the SDT(9) site records of <xsdt/sdt.h>. Shared by
conformance/codegen/sdt-cost.py and lit-tests/tools/check-jumps.py, so
that one reader, a library's, decodes every ELF class and byte order the
arches use.

Debian installs pyelftools for its own interpreter, /usr/bin/python3; a
script that runs under another python3 (a pyenv one first on PATH) without
it runs itself again under Debian's.
"""
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"

try:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection
except ImportError:
    if (os.access(SYSTEM_PYTHON, os.X_OK) and not os.environ.get("XSDT_ELF_READER_RERUN")
            and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON)):
        os.environ["XSDT_ELF_READER_RERUN"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, *sys.orig_argv[1:]])
    raise SystemExit(f"{os.path.basename(sys.argv[0])}: no pyelftools for {sys.executable} "
                     "(Debian: apt-get install python3-pyelftools)")

# One record of the xsdt_sdt_sites section: three self-relative 32-bit
# offsets, to the site, its out-of-line target and its probe.
SITE_RECORD_SIZE = 12


class ElfReadError(Exception):
    pass


class Elf:
    """An ELF file, read whole."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.elf = ELFFile(f)
                self.sections = {s.name: (s.header, s.data()) for s in self.elf.iter_sections()
                                 if s.name}
                self.functions = {}
                for section in self.elf.iter_sections():
                    if isinstance(section, SymbolTableSection) and section.name == ".symtab":
                        for sym in section.iter_symbols():
                            if sym["st_info"]["type"] == "STT_FUNC" and sym.name:
                                self.functions[sym.name] = (sym["st_value"], sym["st_size"])
        except Exception as error:  # pyelftools raises its own and struct errors
            raise ElfReadError(f"{path}: not a readable ELF file ({error})") from error
        self.little_endian = self.elf.little_endian
        self.word_mask = (1 << self.elf.elfclass) - 1

    def bytes_at(self, addr, n):
        """The file's bytes at a link-time address, and the section that
        holds them (a PROGBITS section), or (None, None)."""
        for name, (header, data) in self.sections.items():
            if (header["sh_type"] == "SHT_PROGBITS" and header["sh_addr"]
                    and header["sh_addr"] <= addr and addr + n <= header["sh_addr"] + header["sh_size"]):
                start = addr - header["sh_addr"]
                return data[start:start + n], name
        return None, None

    def sdt_site_records(self):
        """The (site, target) link-time addresses of every xsdt_sdt_sites
        record, in file order ([] when the section is absent)."""
        if "xsdt_sdt_sites" not in self.sections:
            return []
        header, data = self.sections["xsdt_sdt_sites"]
        order = "little" if self.little_endian else "big"
        records = []
        for i in range(0, len(data) - SITE_RECORD_SIZE + 1, SITE_RECORD_SIZE):
            field = header["sh_addr"] + i
            site = int.from_bytes(data[i:i + 4], order, signed=True)
            target = int.from_bytes(data[i + 4:i + 8], order, signed=True)
            records.append(((field + site) & self.word_mask, (field + 4 + target) & self.word_mask))
        return records
