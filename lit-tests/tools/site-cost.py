#!/usr/bin/env python3
"""The disabled cost of one probe site: instructions it adds to a function.

Usage: site-cost.py --objdump OBJDUMP --function NAME --max-added N BASE PROBED

BASE and PROBED are the same program built without and with the probe. The
instructions of NAME are counted in each by its symbol range
[value, value + size) from `readelf -sW` (as conformance/codegen/
disabled-cost.py does: the size leaves out the alignment padding, and an
address range is immune to objdump splitting a function at mapping symbols).
N counts a site of one instruction: where the site holds more NOPs (the
run of NOP instructions at its note's pc, such as a 1-byte and a 10-byte NOP,
and the padding its alignment directive puts right before that pc, such as
a 2-byte compressed NOP where a compressed instruction left the pc at 2 mod
4), the bound grows by as many, so that N bounds what the compiler adds
around it. The padding comes and goes with the function's layout (one
clang-14 cell measured +3 at -O3 where -O2 is +2): it is the site's, not
the compiler's.
Prints the counts and, when PROBED adds more than that, both disassemblies
of the function, and exits 1.
"""
import argparse
import re
import subprocess
import sys


def function_range(binary, function):
    symbols = subprocess.run(["readelf", "-sW", binary], capture_output=True,
                             text=True, check=True).stdout
    match = re.search(rf"^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+\s+\S+\s+"
                      rf"{re.escape(function)}$", symbols, re.M)
    if not match:
        raise SystemExit(f"site-cost: function {function} not found in {binary}")
    return int(match.group(1), 16), int(match.group(2))


def disassemble(objdump, binary, function):
    """The instruction lines of the function, as objdump prints them."""
    start, size = function_range(binary, function)
    # --no-show-raw-insn: one line per instruction (an instruction of more
    # than 7 bytes, such as x86-64's 10-byte NOP, would take two lines).
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                          f"--stop-address={start + size:#x}", binary],
                         capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines()
            if re.match(r"^\s+[0-9a-f]+:\s+\S", line)
            and start <= int(line.split(":")[0], 16) < start + size]


def is_nop(line):
    return any(word.startswith("nop") or word.endswith("nop") or ".nop" in word
               for word in line.split(":", 1)[1].split()[:2])


def site_nops(binary, lines, start, size):
    """How many NOP instructions run from the pc of the function's stapsdt
    note (readelf -n), with the run of NOPs that ends at that pc (alignment
    padding): the site's own instructions; 1 without a note."""
    notes = subprocess.run(["readelf", "-nW", binary], capture_output=True,
                           text=True, check=True).stdout
    pcs = [int(m, 16) for m in re.findall(r"Location: (0x[0-9a-f]+)", notes)]
    pc = next((p for p in pcs if start <= p < start + size), None)
    if pc is None:
        return 1
    addresses = [int(line.split(":")[0], 16) for line in lines]
    count = 0
    for address, line in zip(addresses, lines):
        if address < pc:
            continue
        if not is_nop(line):
            break
        count += 1
    padding = 0
    for line in reversed([line for address, line in zip(addresses, lines) if address < pc]):
        if not is_nop(line):
            break
        padding += 1
    return max(count, 1) + padding


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--objdump", default="objdump")
    parser.add_argument("--function", required=True)
    parser.add_argument("--max-added", type=int, required=True, metavar="N")
    parser.add_argument("base")
    parser.add_argument("probed")
    args = parser.parse_args()

    base = disassemble(args.objdump, args.base, args.function)
    probed = disassemble(args.objdump, args.probed, args.function)
    added = len(probed) - len(base)
    start, size = function_range(args.probed, args.function)
    site = site_nops(args.probed, probed, start, size)
    bound = args.max_added + site - 1
    verdict = "ok" if added <= bound else "TOO COSTLY"
    why = f" (+{args.max_added} and {site - 1} more NOPs of the site)" if site > 1 else ""
    print(f"site-cost: {args.function}: {len(base)} instructions without the probe, "
          f"{len(probed)} with it: +{added}, bound +{bound}{why}: {verdict}")
    if added <= bound:
        return 0
    for title, lines in (("without the probe", base), ("with the probe", probed)):
        print(f"site-cost: {args.function} {title}:")
        for line in lines:
            print(f"  {line.strip()}")
    # Last, and with "error:", so that the matrix's failure detail shows it.
    print(f"site-cost: error: {args.function}: the probe adds +{added} instructions, "
          f"bound +{bound}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
