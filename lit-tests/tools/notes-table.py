#!/usr/bin/env python3
"""Turns `readelf -n -S -W` output into one line per fact, for FileCheck.

    section NAME addr=0x... size=0x...
    note provider=P name=N pc=0x... base=0x... semaphore=0x... argc=K args=SPECS

The note lines come from readelf alone (not from xsdt's own tools), and
addresses are printed as 0x%x so that section and note addresses compare
textually. Notes keep readelf's order; tests use CHECK-DAG because the
linker orders notes by the code sections they are linked to.
"""
import re
import sys

section_re = re.compile(
    r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-fA-F]+)\s+[0-9a-fA-F]+\s+([0-9a-fA-F]+)\s")
location_re = re.compile(
    r"Location:\s*(0x[0-9a-fA-F]+),\s*Base:\s*(0x[0-9a-fA-F]+),\s*Semaphore:\s*(0x[0-9a-fA-F]+)")

note = {}
for line in sys.stdin:
    m = section_re.match(line)
    if m:
        print(f"section {m.group(1)} addr={int(m.group(2), 16):#x} size={int(m.group(3), 16):#x}")
        continue
    stripped = line.strip()
    if "Provider:" in stripped:
        # readelf -W prints it at the end of the owner line.
        note = {"provider": stripped.split("Provider:", 1)[1].strip()}
    elif stripped.startswith("Name:") and "provider" in note:
        note["name"] = stripped.split(":", 1)[1].strip()
    elif stripped.startswith("Location:"):
        m = location_re.search(stripped)
        if m:
            note["pc"], note["base"], note["semaphore"] = (int(x, 16) for x in m.groups())
    elif stripped.startswith("Arguments:") and "pc" in note:
        args = stripped.split(":", 1)[1].strip()
        # Specs are separated by spaces, but an aarch64 memory operand has
        # one inside ("[sp, 16]"). Print it as "[sp,16]": one token per
        # spec, so that a pattern can match a spec as {{[^ ]+}}.
        args = re.sub(r"\[([^\]]*)\]", lambda m: "[" + m.group(1).replace(", ", ",") + "]",
                      args)
        argc = len(args.split()) if args else 0
        print(f"note provider={note['provider']} name={note['name']} pc={note['pc']:#x} "
              f"base={note['base']:#x} semaphore={note['semaphore']:#x} argc={argc} args={args}")
        note = {}
