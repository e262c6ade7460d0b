#!/usr/bin/env python3
"""Checks that libxsdt's icache flush holds the arch's cache instructions.

Usage: check-flush-code.py --arch-json ARCH_JSON --objdump OBJDUMP PROGRAM

For an arch whose runtime flushes the instruction cache with its own
instructions (trait icache-flush-inline), "expect.icache_flush_code" of
ARCH_JSON lists the mnemonics the flush must execute (the tests' copy of the
ISA's rule, independent of libxsdt). QEMU user mode keeps its translations
coherent, so a flush that does nothing changes no run there: this checks
the code instead. PROGRAM links libxsdt statically; its function
xsdt::rt::machdep::flush_icache is disassembled with OBJDUMP and every
listed mnemonic must occur in it.

Prints one line per mnemonic and a summary; exits 1 when one is missing or
the function is not found.
"""
import argparse
import json
import re
import subprocess
import sys

FUNCTION = "xsdt::rt::machdep::flush_icache("


def function_mnemonics(objdump, program):
    listing = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", program],
                             capture_output=True, text=True, check=True).stdout
    mnemonics, inside = [], False
    for line in listing.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            inside = header.group(1).startswith(FUNCTION)
            continue
        instruction = re.match(r"^\s+[0-9a-f]+:\s+(\S+)", line)
        if inside and instruction:
            mnemonics.append(instruction.group(1))
    return mnemonics


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch-json", required=True)
    parser.add_argument("--objdump", required=True)
    parser.add_argument("program")
    args = parser.parse_args()
    with open(args.arch_json) as f:
        wanted = json.load(f).get("expect", {}).get("icache_flush_code")
    if not wanted:
        print(f"{args.arch_json}: no expect.icache_flush_code")
        return 1
    found = function_mnemonics(args.objdump, args.program)
    if not found:
        print(f"{args.program}: no function {FUNCTION}...)")
        return 1
    missing = [m for m in wanted if m not in found]
    for mnemonic in wanted:
        print(f"{mnemonic}: {'present' if mnemonic in found else 'MISSING'}")
    print(f"flush_icache: {len(wanted) - len(missing)} of {len(wanted)} "
          f"cache instructions present")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
