#!/usr/bin/env python3
"""Turns the text note descriptions in corpus/notes/*.txt into binary seeds.

    make_seeds.py CORPUS_DIR OUT_DIR

writes OUT_DIR/notes/NAME, a fuzz_notes input: the selector byte of
tiny_elf.h (ELF class, arch, which sections exist) and the contents of
.note.stapsdt. The seeds are generated at test time so that only readable
text is committed; build.sh then has elf_seeds (elf_seeds.cpp) wrap each in
the tiny ELF file fuzz_notes builds from it, for fuzz_elf. Nothing here
knows an arch: the ELF machine and the site bytes are the descriptors'.

Description format, one directive a line; a line starting with '#' is a
comment (only there: some arches' specs contain '#'):

    elf 64|32 ARCH [nobase] [noprobes]
    probe PC BASE SEMAPHORE PROVIDER NAME [ARGS...]   a stapsdt v3 note
    note OWNER TYPE HEX                               any note, descriptor in hex
    raw HEX                                           bytes as they are (framing damage)

ARCH is the name or an alias of an arch of arches/ (its directory, or its
arch.json "aliases"). PROVIDER or NAME "-" stands for the empty string;
ARGS is the rest of the line, so specs keep their single spaces.
"""
import json
import pathlib
import struct
import sys

ARCHES = pathlib.Path(__file__).resolve().parents[2] / "arches"
# Selector bits 1..2, then 5..7, pick the arch
# (TinyElfOptions::from_selector).
ARCH_BITS = 5


def arch_indexes() -> dict:
    """Each arch's name and aliases -> its index in the registry's order:
    the arch directories that have an arch.json, sorted by name, as
    xsdt_arch_list() lists them for the registry."""
    indexes = {}
    paths = sorted(ARCHES.glob("*/arch.json"), key=lambda p: p.parent.name)
    for index, path in enumerate(paths):
        arch = path.parent.name
        for name in [arch] + json.loads(path.read_text()).get("aliases", []):
            indexes[name] = index
    return indexes


def align4(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def note(owner: bytes, note_type: int, desc: bytes) -> bytes:
    name = owner + b"\0"
    return struct.pack("<III", len(name), len(desc), note_type) + align4(name) + align4(desc)


def parse(path: pathlib.Path, arches: dict):
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
            if words[2] not in arches:
                sys.exit(f"{where}: unknown arch {words[2]!r}; arches/ has {', '.join(sorted(arches))}")
            index = arches[words[2]]
            if index >= 1 << ARCH_BITS:
                sys.exit(f"{where}: arch {words[2]!r} is #{index} of arches/, past the "
                         f"selector's {ARCH_BITS} arch bits (tiny_elf.h)")
            elf = {"is_64": bits == 64, "index": index,
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
    index = elf["index"]
    return (int(elf["is_64"]) | (index & 3) << 1 | (0 if elf["base"] else 8)
            | (0 if elf["probes"] else 16) | (index >> 2) << 5)


def main() -> None:
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    (out / "notes").mkdir(parents=True, exist_ok=True)
    arches = arch_indexes()
    count = 0
    for path in sorted(corpus.glob("*.txt")):
        elf, section = parse(path, arches)
        (out / "notes" / path.stem).write_bytes(bytes([selector(elf)]) + section)
        count += 1
    print(f"make_seeds: {count} note seeds in {out / 'notes'}")


if __name__ == "__main__":
    main()
