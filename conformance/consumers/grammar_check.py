#!/usr/bin/env python3
"""Cross-checks xsdt-inspect's consumer-grammar rules against the real
consumers that run here.

  grammar_check.py --inspect XSDT_INSPECT --cell CELL_JSON VECTORS

VECTORS lists one argument spec a line (`#` starts a comment saying where
the form comes from). Each spec becomes one probe of a small shared object
(built with the cell's compiler, build/cells/*.json: an SDT note per
spec, nothing else), which every static
consumer of the registry that reads this arch parses (bcc, perf, stap).
Its verdict (accepted: parsed as the spec says; misread: parsed otherwise;
rejected: not parsed) is compared with the one `xsdt-inspect parse-arg`
gives for that consumer. A misreading shows only in the values a tool
reads, past the parse it prints: a misread rule is consistent with a tool
that parses the spec as written.

Prints one line per spec and consumer, then
  grammar: N specs, C comparisons, A agree, D disagree, U where the rule is unknown
Exit status: 0 no disagreement; 1 some; 2 a usage error or a tool missing.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import consumers  # noqa: E402
import notes  # noqa: E402
import spec_check  # noqa: E402

# The static consumers that have a rule in xsdt-inspect (readelf only
# lists; bpftrace parses with libbcc, as bcc does).
CHECKED = ["bcc", "perf", "stap"]


def read_vectors(path):
    specs = []
    with open(path) as f:
        for line in f:
            text = line.split("#", 1)[0].strip()
            if text:
                specs.append(text)
    return specs


def assembly(specs, pointer_size):
    """An SDT note per spec, each at a NOP of its own; symbols a spec may
    name (sym, calls.0) are data words."""
    word = ".8byte" if pointer_size == 8 else ".4byte"
    lines = [".data", ".globl sym", "sym: .8byte 0", "calls.0: .8byte 0", ".text"]
    for i in range(len(specs)):
        lines.append(f".Lsite{i}: nop")
    lines += [".section .stapsdt.base,\"aG\",@progbits,.stapsdt.base,comdat",
              ".weak _.stapsdt.base", ".hidden _.stapsdt.base", "_.stapsdt.base: .space 1"]
    for i, spec in enumerate(specs):
        escaped = spec.replace("\\", "\\\\").replace('"', '\\"')
        lines += [".section .note.stapsdt,\"\",@note", ".balign 4",
                  ".4byte 992f-991f, 994f-993f, 3", "991: .asciz \"stapsdt\"",
                  "992: .balign 4", f"993: {word} .Lsite{i}", f"{word} _.stapsdt.base",
                  f"{word} 0", ".asciz \"grammar\"", f".asciz \"p{i}\"",
                  f".asciz \"{escaped}\"", "994: .balign 4"]
    return "\n".join(lines) + "\n"


def rule(inspect, arch, spec):
    """{consumer: verdict} from xsdt-inspect parse-arg, or a string when
    xsdt's parser does not read the spec."""
    proc = subprocess.run([inspect, "parse-arg", "--arch", arch, spec], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        return (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["unparsable"]
    return json.loads(proc.stdout)[0].get("consumers", {})


def verdict(consumer, spec, site):
    if site is None:
        return "rejected"
    reading = site.args[0] if site.args else None
    if reading is None or isinstance(reading, str):
        return "rejected"
    return "accepted" if spec_check._differs(consumer, spec, reading) is None else "misread"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inspect", required=True)
    parser.add_argument("--cell", required=True,
                        help="a toolchain JSON of build/cells: the arch and its compiler")
    parser.add_argument("vectors")
    args = parser.parse_args()
    with open(args.cell) as f:
        cell = json.load(f)
    args.arch = cell["arch"]
    args.cc = " ".join([cell["cc"]] + cell["target_flag"].split())
    defines = subprocess.run(args.cc.split() + ["-dM", "-E", "-x", "c", "/dev/null"],
                             capture_output=True, text=True).stdout
    args.pointer_size = 4 if "__SIZEOF_POINTER__ 4" in defines else 8
    specs = read_vectors(args.vectors)
    usable = []
    for name in CHECKED:
        consumer = consumers.get(name)
        missing = consumers.missing(consumer, False)
        if missing:
            print(f"grammar: {name}: MISSING: {missing}")
            return 2
        usable.append(consumer)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "specs.s")
        with open(source, "w") as f:
            f.write(assembly(specs, args.pointer_size))
        library = os.path.join(tmp, "libspecs.so")
        build = subprocess.run(args.cc.split() + ["-shared", "-nostdlib", "-Wl,--build-id",
                                                   source, "-o", library],
                               capture_output=True, text=True)
        if build.returncode:
            print(f"grammar: cannot build the spec object:\n{build.stderr}")
            return 2
        written = {n.name: n for n in notes.read(library)}
        readings = {}
        for consumer in usable:
            sites, _ = consumer.sites([library], 600)
            readings[consumer.NAME] = {s.name: s for s in sites}
    compared = agree = unknown = 0
    disagreements = []
    for i, spec in enumerate(specs):
        note = written.get(f"p{i}")
        rules = rule(args.inspect, args.arch, spec)
        for consumer in usable:
            tool = verdict(consumer, note.args[0], readings[consumer.NAME].get(f"p{i}"))
            said = rules.get(consumer.NAME, "unknown") if isinstance(rules, dict) else \
                f"xsdt cannot parse it ({rules[0]})"
            compared += 1
            # A misreading shows only in the values read, past the parse
            # that the tools print (stap's elaboration shows even less).
            consistent = said == tool or (said == "misread" and tool == "accepted")
            if said == "unknown":
                unknown += 1
                mark = "rule unknown"
            elif consistent:
                agree += 1
                mark = "agree"
            else:
                disagreements.append(spec)
                mark = "DISAGREE"
            print(f"{spec!r:28} {consumer.NAME:5} rule {said:9} tool {tool:9} {mark}")
    print(f"grammar: {len(specs)} specs, {compared} comparisons, {agree} agree, "
          f"{compared - agree - unknown} disagree, {unknown} where the rule is unknown")
    return 1 if compared - agree - unknown else 0


if __name__ == "__main__":
    sys.exit(main())
