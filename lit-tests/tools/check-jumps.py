#!/usr/bin/env python3
"""Checks the jumps that libxsdt wrote into SDT(9) sites, independently of it.

Usage: check-jumps.py --arch-json ARCH_JSON --objdump OBJDUMP --elf PROGRAM DUMP
                      [--inspect XSDT_INSPECT]

ARCH_JSON is the arch's data file, arches/<arch>/arch.json: its
"objdump_machine", and in "expect" the jump site's NOP ("jump_site", or
"site_nop" where the USDT site is the same; its length is the site's width) and the jumps that may replace it ("jumps": a mnemonic, or
a mnemonic and the first operand it must have, e.g. "jal zero" for a jal
that links nothing). These are the tests' copy of the ISA facts, independent
of libxsdt.

DUMP is written by the test program (lit-tests/jump/Inputs/patch-bytes.c):

    bias 0x<run-time minus link-time address of the main program>
    site 0x<addr> target 0x<addr> bytes <hex bytes read while enabled> id <probe> function <name or ->
    ...

For every site:
  * the enabled bytes are disassembled with OBJDUMP (`-D -b binary -m
    <machine> --adjust-vma=<site>`) and must be exactly one unconditional
    jump of the arch's ("expect.jumps") whose target is the record's target,
    as wide as the site or followed by the rest of the site's NOP;
  * site - bias and target - bias must be a {site, target} record of the
    PROGRAM's `xsdt_sdt_sites` section, read from the ELF file here with
    pyelftools (ci/elf_reader.py; the records are self-relative 32-bit
    offsets, see <xsdt/sdt.h>), and the file's bytes at that link-time site
    must be the arch's NOP.
Every record of the file must have been dumped (the program lists them all).

With --inspect, `xsdt-inspect list --json PROGRAM` (a third reader of the
records, from the file) must list exactly the dumped sites: each under the
same probe id, with the same link-time target and function, and valid.

Prints one line per site and a summary; exits 1 on any mismatch.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ci"))
sys.dont_write_bytecode = True
from elf_reader import Elf, ElfReadError  # noqa: E402


def arch_facts(path):
    """(objdump machine, site size, NOP bytes, jumps) from an arch.json;
    jumps is a list of (mnemonic, required first operand or None)."""
    with open(path) as f:
        data = json.load(f)
    try:
        machine = data["objdump_machine"]
        nop = bytes.fromhex(data["expect"].get("jump_site") or data["expect"]["site_nop"])
        jumps = []
        for jump in data["expect"]["jumps"]:
            mnemonic, _, operand = jump.partition(" ")
            jumps.append((mnemonic, operand.strip() or None))
    except (KeyError, TypeError, ValueError) as error:
        raise SystemExit(f"check-jumps: {path}: no usable objdump_machine, expect.site_nop "
                         f"and expect.jumps ({error!r})")
    if not jumps:
        raise SystemExit(f"check-jumps: {path}: expect.jumps is empty")
    # objdump's options for raw bytes of the arch (-M force-thumb for Thumb code).
    machine = [machine] + list(data.get("objdump_flags", []))
    return machine, len(nop), nop, jumps, data["expect"].get("jump_nop")


def disabled_bytes(nop, jump_nop, site, target):
    """The NOP a disabled jump site holds: the arch's NOP, or, where it names
    its target (expect.jump_nop, a brcl 0,target on z/Architecture), its head and the
    offset from site to target in its units and byte order."""
    if not jump_nop:
        return nop
    units = (target - site) // jump_nop["offset_unit"]
    size = jump_nop["offset_bytes"]
    offset = (units & ((1 << (8 * size)) - 1)).to_bytes(size, jump_nop["offset_order"])
    return bytes.fromhex(jump_nop["head"]) + offset


def disassemble(objdump, machine, site, code):
    """[(address, hex bytes, mnemonic, operands)] of code placed at site."""
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        out = subprocess.run([objdump, "-D", "-b", "binary", "-m", *machine,
                              f"--adjust-vma={site:#x}", path],
                             capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        raise RuntimeError(f"{objdump} failed: {out.stderr.strip()}")
    insns = []
    for line in out.stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2,8} )+)\s*(\S+)\s*(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2).split(), m.group(3),
                          m.group(4).strip()))
    return insns, out.stdout


def jump_target(jumps, mnemonic, operands):
    """The absolute target objdump printed, or None if not a plain jump:
    one of jumps, [(mnemonic, required first operand or None)]."""
    ops = operands.split("<")[0].strip()  # drop "<symbol+off>"
    for want, first in jumps:
        if mnemonic != want:
            continue
        target = ops
        if first is not None:
            # e.g. `jal zero, target`: only that first operand makes it a
            # plain jump
            parts = [p.strip() for p in ops.split(",")]
            if len(parts) != 2 or parts[0] != first:
                continue
            target = parts[1]
        m = re.fullmatch(r"(?:0x)?([0-9a-f]+)", target)
        if m:
            return int(m.group(1), 16)
    return None


def inspect_sites(inspect, program):
    """{link-time site: (probe id, target, function, valid)} of the SDT
    probes `xsdt-inspect list --json` reports."""
    out = subprocess.run([inspect, "list", "--json", program], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"xsdt-inspect list --json failed: {out.stdout}{out.stderr}")
    sites = {}
    for probe in json.loads(out.stdout):
        if probe.get("kind") != "sdt":
            continue
        for site in probe.get("sites", []):
            sites[int(site["site"], 16)] = (probe["id"], int(site["target"], 16),
                                            site.get("function", ""), site.get("valid"))
    return sites


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arch-json", required=True, metavar="ARCH_JSON")
    parser.add_argument("--objdump", required=True)
    parser.add_argument("--elf", required=True)
    parser.add_argument("--inspect")
    parser.add_argument("dump")
    args = parser.parse_args()
    machine, size, nop, jumps, jump_nop = arch_facts(args.arch_json)

    bias = None
    sites = []
    with open(args.dump) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "bias":
                bias = int(words[1], 16)
            elif words[0] == "site":
                m = re.fullmatch(r"site (0x[0-9a-f]+|0) target (0x[0-9a-f]+|0) "
                                 r"bytes ((?:[0-9a-f]{2} ?)+) id (\S+) function (\S+)",
                                 line.strip())
                if not m:
                    print(f"check-jumps: bad dump line: {line.strip()}")
                    return 1
                sites.append((int(m.group(1), 16), int(m.group(2), 16),
                              bytes.fromhex(m.group(3)), m.group(4),
                              "" if m.group(5) == "-" else m.group(5)))
    if bias is None or not sites:
        print(f"check-jumps: {args.dump}: no bias line or no sites")
        return 1

    try:
        elf = Elf(args.elf)
    except ElfReadError as error:
        print(f"check-jumps: {error}")
        return 1
    records = dict(elf.sdt_site_records())
    errors = 0
    seen = set()

    def fail(message):
        nonlocal errors
        errors += 1
        print(f"check-jumps: FAIL {message}")

    for site, target, code, probe, _ in sites:
        where = f"{probe} at {site:#x}"
        if len(code) != size:
            fail(f"{where}: {len(code)} bytes dumped, the site is {size}")
            continue
        insns, listing = disassemble(args.objdump, machine, site, code)
        if not insns or insns[0][0] != site:
            fail(f"{where}: {code.hex(' ')} holds no instruction at the site:\n{listing}")
            continue
        # A jump narrower than the site (x86-64's 5-byte jmp in a 10-byte
        # NOP) leaves the rest of the NOP as it was: dead bytes, never
        # executed, but they must be the NOP's.
        # (Compared as bytes: objdump prints a run of zero bytes as "...",
        # so counting its instructions would miss a tail zeroed.)
        width = sum(len(group) // 2 for group in insns[0][1])  # "14000002": 4 bytes
        if code[width:] != disabled_bytes(nop, jump_nop, site, target)[width:]:
            fail(f"{where}: {code.hex(' ')} is not one instruction followed by the rest of "
                 f"the site's NOP:\n{listing}")
            continue
        _, _, mnemonic, operands = insns[0]
        decoded = jump_target(jumps, mnemonic, operands)
        text = f"{mnemonic} {operands}".strip()
        if decoded is None:
            fail(f"{where}: {code.hex(' ')} decodes to `{text}`, not a jump")
            continue
        if decoded != target:
            fail(f"{where}: `{text}` jumps to {decoded:#x}, the record's target is {target:#x}")
            continue
        link_site, link_target = site - bias, target - bias
        if link_site not in records:
            fail(f"{where}: no site record at link-time address {link_site:#x} "
                 f"(bias {bias:#x}) in {args.elf}")
            continue
        if records[link_site] != link_target:
            fail(f"{where}: the file's record targets {records[link_site]:#x}, "
                 f"the run-time target is {link_target:#x} after the bias {bias:#x}")
            continue
        file_bytes, section = elf.bytes_at(link_site, size)
        want = disabled_bytes(nop, jump_nop, link_site, link_target)
        if file_bytes != want:
            fail(f"{where}: the file holds {file_bytes.hex(' ') if file_bytes else 'nothing'} "
                 f"at {link_site:#x}, not the NOP {want.hex(' ')}")
            continue
        seen.add(link_site)
        print(f"check-jumps: {probe} site {link_site:#x}+bias: `{text}` -> record target "
              f"{link_target:#x}+bias ({section})")
    dumped = {site - bias for site, _, _, _, _ in sites}
    for link_site in sorted(set(records) - dumped):
        fail(f"the record of link-time site {link_site:#x} was not dumped")

    inspected = 0
    if args.inspect:
        listed = inspect_sites(args.inspect, args.elf)
        for site, target, _, probe, function in sites:
            link_site, link_target = site - bias, target - bias
            if link_site not in listed:
                fail(f"xsdt-inspect lists no site {link_site:#x} ({probe})")
                continue
            want = (probe, link_target, function, True)
            if listed[link_site] != want:
                fail(f"xsdt-inspect lists site {link_site:#x} as {listed[link_site]}, "
                     f"the runtime as {want}")
                continue
            inspected += 1
        for link_site in sorted(set(listed) - dumped):
            fail(f"xsdt-inspect lists site {link_site:#x} ({listed[link_site][0]}), "
                 f"which the runtime did not")

    print(f"check-jumps: {len(sites)} sites, {len(seen)} jumps to their record's "
          f"target, {inspected} as xsdt-inspect lists them, {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
