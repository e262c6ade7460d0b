#!/usr/bin/env python3
"""Turns the text note descriptions in corpus/notes/*.txt into binary seeds.

    make_seeds.py CORPUS_DIR OUT_DIR

writes OUT_DIR/notes/NAME (fuzz_notes input: selector byte + the contents of
.note.stapsdt) and OUT_DIR/elf/NAME (fuzz_elf input: a whole tiny ELF file
with the same sections as tiny_elf.h). The seeds are generated at test time
so that only readable text is committed.

Description format, one directive a line; a line starting with '#' is a
comment (only there: aarch64 specs contain '#'):

    elf 64|32 x86_64|i386|aarch64|riscv64 [nobase] [noprobes]
    probe PC BASE SEMAPHORE PROVIDER NAME [ARGS...]   a stapsdt v3 note
    note OWNER TYPE HEX                               any note, descriptor in hex
    raw HEX                                           bytes as they are (framing damage)

PROVIDER or NAME "-" stands for the empty string; ARGS is the rest of the
line, so specs keep their single spaces.
"""
import pathlib
import struct
import sys

MACHINES = {"x86_64": (62, 0), "i386": (3, 1), "aarch64": (183, 2), "riscv64": (243, 3)}
TEXT = {
    183: bytes.fromhex("1f2003d5" "1f2003d5" "c0035fd6" "00000000"),
    243: bytes.fromhex("13000000" "13000000" "01000100" "67800000"),
}
TEXT_X86 = bytes.fromhex("0f1f440000" "0f1f440000" "909090" "c3cccc")
NAMES = b"\0.text\0.stapsdt.base\0.probes\0.note.stapsdt\0.shstrtab\0.unused\0"


def align4(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def note(owner: bytes, note_type: int, desc: bytes) -> bytes:
    name = owner + b"\0"
    return struct.pack("<III", len(name), len(desc), note_type) + align4(name) + align4(desc)


def parse(path: pathlib.Path):
    elf = None
    section = b""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split(" ")
        where = f"{path}:{number}"
        if words[0] == "elf":
            bits = int(words[1])
            machine, index = MACHINES[words[2]]
            elf = {"is_64": bits == 64, "machine": machine, "index": index,
                   "base": "nobase" not in words[3:], "probes": "noprobes" not in words[3:]}
        elif words[0] == "probe":
            if elf is None:
                sys.exit(f"{where}: 'probe' before 'elf'")
            fmt = "<QQQ" if elf["is_64"] else "<III"
            pc, base, sem = (int(w, 0) for w in words[1:4])
            provider, name = (b"" if w == "-" else w.encode() for w in words[4:6])
            args = " ".join(words[6:]).encode()
            desc = struct.pack(fmt, pc, base, sem) + provider + b"\0" + name + b"\0" + args + b"\0"
            section += note(b"stapsdt", 3, desc)
        elif words[0] == "note":
            section += note(words[1].encode(), int(words[2], 0), bytes.fromhex("".join(words[3:])))
        elif words[0] == "raw":
            section += bytes.fromhex("".join(words[1:]))
        else:
            sys.exit(f"{where}: unknown directive {words[0]!r}")
    if elf is None:
        sys.exit(f"{path}: no 'elf' line")
    return elf, section


def selector(elf) -> int:
    return (int(elf["is_64"]) | elf["index"] << 1 | (0 if elf["base"] else 8)
            | (0 if elf["probes"] else 16))


def tiny_elf(elf, notes: bytes) -> bytes:
    """The file tiny_elf.h builds: ELF header, section headers, then .text,
    .stapsdt.base, .probes, .shstrtab and last .note.stapsdt."""
    is_64 = elf["is_64"]
    unused = NAMES.index(b".unused")
    sections = [
        (NAMES.index(b".text"), 1, 0x2 | 0x4, 0x1000, TEXT.get(elf["machine"], TEXT_X86)),
        (NAMES.index(b".stapsdt.base") if elf["base"] else unused, 1, 0x2, 0x2000, b"\0"),
        (NAMES.index(b".probes") if elf["probes"] else unused, 1, 0x2 | 0x1, 0x3000, b"\0" * 8),
        (NAMES.index(b".shstrtab"), 3, 0, 0, NAMES),
        (NAMES.index(b".note.stapsdt"), 7, 0, 0, notes),
    ]
    ehdr_size, shdr_fmt = (64, "<IIQQQQIIQQ") if is_64 else (52, "<IIIIIIIIII")
    shdr_size = struct.calcsize(shdr_fmt)
    headers, body = [b"\0" * shdr_size], b""
    offset = ehdr_size + (len(sections) + 1) * shdr_size
    for name, sh_type, flags, addr, data in sections:
        align = 4 if sh_type == 7 else 1
        body += b"\0" * (-offset % align)
        offset += -offset % align
        headers.append(struct.pack(shdr_fmt, name, sh_type, flags, addr, offset, len(data), 0, 0, align, 0))
        body += data
        offset += len(data)
    ident = b"\x7fELF" + bytes([2 if is_64 else 1, 1, 1]) + b"\0" * 9
    addr_fmt = "Q" if is_64 else "I"
    ehdr = ident + struct.pack(f"<HHI{addr_fmt}{addr_fmt}{addr_fmt}IHHHHHH", 3, elf["machine"], 1, 0, 0,
                               ehdr_size, 0, ehdr_size, 0, 0, shdr_size, len(headers), 4)
    return ehdr + b"".join(headers) + body


def main() -> None:
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    for kind in ("notes", "elf"):
        (out / kind).mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(corpus.glob("*.txt")):
        elf, section = parse(path)
        (out / "notes" / path.stem).write_bytes(bytes([selector(elf)]) + section)
        (out / "elf" / path.stem).write_bytes(tiny_elf(elf, section))
        count += 1
    print(f"make_seeds: {count} note seeds and {count} ELF seeds in {out}")


if __name__ == "__main__":
    main()
