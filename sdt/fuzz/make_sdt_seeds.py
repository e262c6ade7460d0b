#!/usr/bin/env python3
"""Writes the seeds of fuzz_sdt_records (the layout is in its header
comment): per arch of arches/ and per ELF class, one valid definition
record and two site records naming it, plus a few damaged variants.

    make_sdt_seeds.py OUT_DIR

Generated at test time so that no binary is committed. The addresses are
those of the harness's tiny ELF (.text 0x1000, .data 0x3000,
xsdt_sdt_probes 0x4000, xsdt_sdt_sites 0x5000).
"""
import pathlib
import struct
import sys

from make_seeds import ARCH_BITS, ARCHES, arch_indexes

TEXT, DATA, PROBES, SITES = 0x1000, 0x3000, 0x4000, 0x5000


def rel(target: int, field: int) -> bytes:
    return struct.pack("<i", target - field)


def definition(at: int, probe: int, argc: int, strings: list, flags: int = 0) -> bytes:
    body = b"".join(s + b"\0" for s in strings)
    size = 12 + len(body)
    size += -size % 4
    record = struct.pack("<I", size) + rel(probe, at + 4) + bytes([1, argc, flags, 0]) + body
    return record + b"\0" * (size - len(record))


def site(at: int, site_addr: int, target: int, probe: int) -> bytes:
    return rel(site_addr, at) + rel(target, at + 4) + rel(probe, at + 8)


def seed(selector: int, probes: bytes, sites: bytes) -> bytes:
    return bytes([selector]) + struct.pack("<H", len(probes)) + probes + sites


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    indexes = sorted(set(arch_indexes().values()))
    # The directory's name, not an alias.
    names = {v: k for k, v in arch_indexes().items() if (ARCHES / k).is_dir()}
    valid = definition(PROBES, DATA, 1, [b"prov", b"", b"", b"req__start", b"int", b"long"])
    second = definition(PROBES + len(valid), DATA + 16, 0,
                        [b"prov", b"mod", b"fn", b"done"])
    probes = valid + b"\0" * 4 + second  # a zero word between the records
    sites = (site(SITES, TEXT, TEXT + 0x20, DATA)
             + site(SITES + 12, TEXT + 8, TEXT + 0x30, DATA)
             + site(SITES + 24, TEXT + 0x20, TEXT + 0x38, DATA + 16))
    count = 0
    for index in indexes:
        if index >= 1 << ARCH_BITS:
            sys.exit(f"arch #{index} is past the selector's {ARCH_BITS} arch bits")
        for is_64 in (0, 1):
            sel = is_64 | (index & 3) << 1 | (index >> 2) << 5
            (out / f"{names[index]}-{32 << is_64}").write_bytes(seed(sel, probes, sites))
            count += 1
    # Damage on the first arch, 64-bit: framing, fields, flags.
    sel = 1 | (indexes[0] & 3) << 1 | (indexes[0] >> 2) << 5
    damaged = {
        "short-size": seed(sel, struct.pack("<I", 8) + valid[4:], sites),
        "odd-size": seed(sel, struct.pack("<I", len(valid) + 1) + valid[4:] + b"\0", sites),
        "bad-version": seed(sel, valid[:8] + b"\2" + valid[9:], sites),
        "stray-bytes": seed(sel, valid + b"\0\1", sites),
        "partial-site": seed(sel, valid, sites[:20]),
        "dynsym": seed(sel | 8, probes, sites),
        "sites-not-alloc": seed(sel | 16, probes, sites),
        "untyped": seed(sel, definition(PROBES, DATA, 0, [b"p", b"", b"", b"n"], 2), sites),
    }
    for name, data in damaged.items():
        (out / name).write_bytes(data)
        count += 1
    print(f"make_sdt_seeds: {count} seeds in {out}")


if __name__ == "__main__":
    main()
