#!/usr/bin/env python3
"""Disabled cost of SDT(9) jump sites: instructions on the hot path.

Builds conformance/codegen/sdt-cost.c for every toolchain (build/cells/*.json)
without probes and with <xsdt/sdt.h> probes, links each into a shared object
and follows the fall-through path of every function in the disassembly:
from the function's entry, instruction by instruction, through unconditional
jumps, until it returns or tail-calls. That is the path a disabled probe
runs. The out-of-line block of the site (where the arguments are computed
and xsdt_sdt_fire is called) is not on it, and the script checks that.

Counting only the hot path, and not the function's size, is what the
goal "a disabled probe costs the NOP only" is about; counting it on linked
objects, not on assembler output, includes what the compiler does to the
prologue and epilogue (callee-saved registers, frame set-up) because of the
out-of-line call, and the alignment padding left after relaxation.

Prints a Markdown table of instructions added per function and, below it,
what they are. With --check it exits 1 when:
  * a probed function's site NOP is not on its hot path exactly once, or
    the site's out-of-line block is on it, or that block does not call
    xsdt_sdt_fire (and expensive(), for the expensive-argument functions):
    the checks below would then be vacuous;
  * expensive() or xsdt_sdt_fire is called on a hot path, or a mutant
    build that evaluates the arguments before the site (XSDT_COST_MUTANT in
    sdt-cost.c) is not caught by that check;
  * a "nonleaf" function adds more than the NOP plus, on an arch with the
    trait sites-aligned-4, the one 2-byte c.nop that `.balign 4` may need
    before the site (RVC code is 2-byte aligned; a 4-byte patch slot must
    not start in the middle of a 4-byte word), plus the arch's known excess
    (arch.json "codegen.sdt_known_excess": what gcc 12 and clang 14 are
    measured to add there, where xsdt_sdt_fire takes stack arguments; see
    the comment below). --strict drops the known excess: it checks the goal,
    the NOP only, and fails today on the arches that have one.
  * a "leaf" function adds more than the NOP (and its alignment c.nop)
    plus its measured leaf excess: arch.json
    "codegen.sdt_leaf_known_excess"[compiler][function] (with --preserving,
    which builds the probes with XSDT_SDT_PRESERVING_CALL:
    "codegen.sdt_leaf_known_excess_preserving", where the arch has a
    register-preserving call), 0 when absent, so
    that a compiler nobody measured is held to the goal. The out-of-line
    call makes a leaf function a caller, and saving what must survive it
    can land in the prologue (see docs/jump-sites.md); the numbers are a
    ratchet of what each compiler does today, printed as KNOWN EXCESS while
    they last, and a violation as soon as one grows. --strict drops them too.
How each arch's disassembly is read (the instruction prefixes objdump
prints as words of their own, the mnemonics that return, jump, call or
branch) is its arch.json's "codegen" too.
It exits 2 when a build fails or a hot path cannot be followed (a
conditional branch on it: the functions are meant to be straight-line).
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "ci"))
sys.dont_write_bytecode = True
import arch_facts  # noqa: E402
import toolchains  # noqa: E402
from elf_reader import Elf  # noqa: E402

SOURCE = os.path.join(REPO, "conformance", "codegen", "sdt-cost.c")

# (function, kind, column title). kind "nonleaf" gets the bound.
FUNCTIONS = [
    ("leaf_regs", "leaf", "leaf, 3 reg args"),
    ("leaf_seven", "leaf", "leaf, 7 args"),
    ("leaf_expensive", "leaf", "leaf, expensive arg"),
    ("nonleaf_regs", "nonleaf", "non-leaf, 2 args"),
    ("nonleaf_seven", "nonleaf", "non-leaf, 7 args"),
    ("nonleaf_expensive", "nonleaf", "non-leaf, expensive arg"),
]
# Calls that belong to the out-of-line path only.
COLD_CALLEES = ("expensive",) + tuple(f"xsdt_sdt_fire{n}" for n in range(8))

# Instructions beyond the NOP that non-leaf functions are measured to gain
# (gcc 12, clang 14, -O2) are each arch's "codegen.sdt_known_excess",
# allowed so that the check guards against regressions there without
# pretending the goal is met. On x86 the cause is the out-of-line call's
# stack arguments: a site calls xsdt_sdt_fire<n> with the probe and its n
# arguments, so a 6- or 7-argument probe puts 1-2 of them on the stack on
# x86-64 (6 argument registers), and i386 passes all on it. clang then
# reserves an outgoing-argument area in the prologue (sub/add of %rsp) or
# switches the function from a reserved call frame to push/sub/add around
# every call (i386), and gcc must settle deferred argument pops before the
# asm goto (its two edges need one stack depth). clang on x86-64 also saves
# one more callee-saved register when the block makes a call of its own
# (the expensive argument). aarch64 and riscv64 pass all 8 in registers and
# need none of it. Lower these when the header improves; never raise them
# without a reason.


class ArchCodegen:
    """What arches/<arch>/arch.json says about reading the arch's code:
    "traits", and in "codegen" the instruction prefixes objdump prints as
    words of their own, the mnemonic globs of each branch kind (ret, jump,
    call, cond; the first kind that matches wins) and the known excess."""

    # "straight": branch mnemonics that never branch (s390x's jgnop, a brcl
    # with mask 0), checked first; they are counted like any instruction.
    KINDS = ("straight", "ret", "jump", "call", "cond")

    def __init__(self, arch, variant=None, preserving=False):
        path = os.path.join(REPO, "arches", arch, "arch.json")
        try:
            # In the toolchain's variant, if any (ci/arch_facts.py).
            data = arch_facts.load(REPO, arch, variant).data
            codegen = data["codegen"]
            self.traits = set(data.get("traits", []))
            self.prefixes = set(codegen.get("prefixes", []))
            self.branches = [(kind, list(codegen["branches"].get(kind, [])))
                             for kind in self.KINDS]
            self.known_excess = int(codegen.get("sdt_known_excess", 0))
            # The instructions of one site while disabled (x86-64's `nop;
            # nop10`: 2), the goal before any alignment padding.
            # An SDT(9) jump site's instructions: the USDT site's unless the
            # arch says (with delay slots: the NOP and its delay slot's NOP).
            self.site_instructions = int(codegen.get(
                "jump_site_instructions", codegen.get("site_instructions", 1)))
            # {compiler: {leaf function: instructions beyond the goal}}, of
            # the plain call or, with --preserving, of the arch's
            # register-preserving asm call (the plain call's figures where
            # the arch has none: its sites then make the plain call).
            self.leaf_key = LEAF_KEY_PRESERVING if preserving and \
                LEAF_KEY_PRESERVING in codegen else LEAF_KEY
            self.leaf_known_excess = {
                compiler: {function: int(n) for function, n in table.items()}
                for compiler, table in codegen.get(self.leaf_key, {}).items()}
            # How objdump names a linker stub that calls a function (POWER:
            # 0000001a.plt_call.xsdt_sdt_fire3): a regex whose group is the
            # callee.
            self.call_stub = re.compile(codegen["call_stub"]) if "call_stub" in codegen \
                else None
            # Bits of a function symbol's value that flag the instruction
            # set (ARM ELF: bit 0 for Thumb), not the address.
            self.symbol_flag_bits = int(codegen.get("function_symbol_flag_bits", 0))
            # The register a position-independent call goes through, loaded
            # from the GOT just before (t9: `ld t9,-32664(gp)` then
            # `jalr t9`): the callee is the GOT entry's symbol.
            self.got_call_register = codegen.get("got_call_register")
        except (OSError, ValueError, KeyError, TypeError, AttributeError,
                re.error, arch_facts.ArchFactsError) as error:
            raise SystemExit(f"sdt-cost: {path}: no usable \"codegen\" "
                             f"(docs/porting.md): {error!r}")
        # The site's .balign 4 may leave a 2-byte c.nop before it.
        self.padded_sites = "sites-aligned-4" in self.traits

    def callee(self, symbol):
        """The function a call to `symbol` reaches: without @plt, and
        through the arch's call stubs."""
        symbol = symbol.split("@")[0]
        match = self.call_stub.fullmatch(symbol) if self.call_stub else None
        return match.group(1) if match else symbol

    def classify(self, mnemonic, operands=""):
        """One of: ret, jump, call, cond, other. A pattern is a mnemonic glob,
        or a mnemonic glob and an operands glob ("pop *pc}": a pop is a
        return only when it loads the pc)."""
        def matches(pattern):
            want, _, want_operands = pattern.partition(" ")
            return fnmatch.fnmatchcase(mnemonic, want) and (
                not want_operands or fnmatch.fnmatchcase(operands, want_operands))
        for kind, patterns in self.branches:
            if any(matches(p) for p in patterns):
                return "other" if kind == "straight" else kind
        return "other"


class PathError(Exception):
    pass


# ---- Disassembly and the hot path -------------------------------------------

def got_symbols(path):
    """The symbols of a GOT's global entries by their access, as
    `readelf -A` lists them: {"-32664(gp)": "sink", ...}."""
    out = subprocess.run(["readelf", "-A", path], capture_output=True, text=True,
                         check=True).stdout
    entries = {}
    for line in out.splitlines():
        m = re.match(r"^\s+[0-9a-f]+\s+(-?\d+\(gp\))\s.*\s(\S+)$", line)
        if m and re.search(r"\bFUNC\b", line):
            entries[m.group(1)] = m.group(2)
    return entries


def name_got_calls(arch, insns, path):
    """Gives each call through arch.got_call_register the callee of the GOT
    load into that register before it (within 64 instructions, in address
    order), as objdump would print a direct call's."""
    if not arch.got_call_register:
        return
    entries = got_symbols(path)
    register = arch.got_call_register
    addrs = sorted(insns)
    for i, addr in enumerate(addrs):
        mnemonic, operands, size = insns[addr]
        if arch.classify(mnemonic, operands) != "call" or operands != register:
            continue
        for back in addrs[max(0, i - 64):i][::-1]:
            # Off gp, or off the copy of gp that clang keeps in a callee-
            # saved register (`lw t9,-32680(s0)`).
            m = re.fullmatch(rf"{register},(-?\d+)\(\w+\)", insns[back][1])
            if m:
                name = entries.get(f"{m.group(1)}(gp)")
                if name:
                    insns[addr] = (mnemonic, f"{operands} 0 <{name}>", size)
                break


def disassemble(arch, objdump, path):
    """addr -> (mnemonic, operands, size); size from the next address.
    -z: a block of zero words is code too (a NOP may be 00000000)."""
    out = subprocess.run([objdump, "-d", "-z", "--no-show-raw-insn", path],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2), m.group(3).strip()))
    insns = {}
    for i, (addr, mnemonic, operands) in enumerate(rows):
        words = [mnemonic] + operands.split()
        while len(words) > 1 and words[0] in arch.prefixes:
            words = words[1:]
        size = rows[i + 1][0] - addr if i + 1 < len(rows) else 4
        insns[addr] = (words[0], " ".join(words[1:]), size)
    name_got_calls(arch, insns, path)
    return insns


def target_of(operands):
    """(address, symbol) of a direct branch or call; symbol without +offset."""
    m = re.search(r"(?:^|[\s,#])([0-9a-f]+) <([^>+]+)(?:\+0x[0-9a-f]+)?>", operands)
    return (int(m.group(1), 16), m.group(2)) if m else (None, None)


def hot_path(arch, insns, start, size):
    """The fall-through trace of the function at [start, start + size): a
    list of (addr, mnemonic, operands, size, kind)."""
    path, pc, seen = [], start, set()
    while True:
        if pc in seen:
            raise PathError(f"loop at {pc:#x}")
        if pc not in insns:
            raise PathError(f"no instruction at {pc:#x}")
        seen.add(pc)
        mnemonic, operands, insn_size = insns[pc]
        kind = arch.classify(mnemonic, operands)
        path.append((pc, mnemonic, operands, insn_size, kind))
        if kind == "ret":
            return path
        if kind == "cond":
            raise PathError(f"conditional branch on the hot path at {pc:#x}: "
                            f"{mnemonic} {operands}")
        if kind == "jump":
            target, _ = target_of(operands)
            if target is None or not start <= target < start + size:
                return path  # tail call or indirect jump: leaves the function
            pc = target
            continue
        pc += insn_size


def cold_calls(arch, insns, target):
    """Callees named in the out-of-line block: straight on from its start to
    the first return or unconditional jump (back to the hot path)."""
    called, pc = [], target
    for _ in range(200):
        if pc not in insns:
            break
        mnemonic, operands, insn_size = insns[pc]
        kind = arch.classify(mnemonic, operands)
        if kind == "call":
            _, callee = target_of(operands)
            if callee:
                called.append(arch.callee(callee))
        if kind in ("ret", "jump"):
            break
        pc += insn_size
    return called


# Directories searched before the repository's headers (--include-dir): to
# measure a candidate change of <xsdt/sdt.h> without editing it.
EXTRA_INCLUDES = []
# Macros defined for the probed builds (--preserving adds the opt-in of the
# register-preserving call).
EXTRA_DEFINES = []
# The leaf ratchets in arch.json "codegen": of the plain call, and of the
# register-preserving asm call (XSDT_SDT_PRESERVING_CALL).
LEAF_KEY = "sdt_leaf_known_excess"
LEAF_KEY_PRESERVING = "sdt_leaf_known_excess_preserving"


def build(toolchain, arch, probes, opt, out, mutant=False):
    command = [toolchain["cc"]] + toolchain["target_flag"].split()
    command += [f"-I{d}" for d in EXTRA_INCLUDES]
    # Linked: objects may carry worst-case .balign padding that only linker
    # relaxation shrinks to what the hot path really runs.
    command += [opt, "-fPIC", "-shared", "-nostdlib", "-Wall", "-Wextra", "-Werror",
                f"-I{REPO}/sdt/include", f"-I{REPO}/arches/{arch}/include"]
    command += (["-DXSDT_COST_PROBES"] + EXTRA_DEFINES if probes else [])
    command += (["-DXSDT_COST_MUTANT"] if probes and mutant else []) + [SOURCE, "-o", out]
    return subprocess.run(command, capture_output=True, text=True)


def is_nop(mnemonic):
    return mnemonic in ("nop", "c.nop") or mnemonic.startswith("nop")


def measure(toolchain, objdump, tmp, opt, mutant=False):
    """Per function: dict with counts, the site check and the diff."""
    arch = ArchCodegen(toolchain["arch"], toolchain.get("variant"),
                       preserving=bool(EXTRA_DEFINES))
    paths, sites = {}, []
    for probes in (False, True):
        so = os.path.join(tmp, f"{toolchain['name']}-{int(probes)}.so")
        result = build(toolchain, toolchain["arch"], probes, opt, so, mutant)
        if result.returncode:
            raise PathError("build failed:\n" + result.stderr)
        elf = Elf(so)
        functions = elf.functions
        insns = disassemble(arch, objdump, so)
        if probes:
            sites = elf.sdt_site_records()
            insns_probed = insns
        for function, _, _ in FUNCTIONS:
            if function not in functions:
                raise PathError(f"{function} not in {so}")
            start, size = functions[function]
            start &= ~arch.symbol_flag_bits
            paths[(function, probes)] = (hot_path(arch, insns, start, size), start, size)

    results = {}
    for function, kind, _ in FUNCTIONS:
        base, _, _ = paths[(function, False)]
        probed, start, size = paths[(function, True)]
        addrs = {p[0] for p in probed}
        mine = [(s, t) for s, t in sites if start <= s < start + size]
        problems = []
        if len(mine) != 1:
            problems.append(f"{len(mine)} site records in the function, expected 1")
        padding = 0
        for site, target in mine:
            if site not in addrs:
                problems.append(f"site {site:#x} is not on the hot path")
            if target in addrs:
                problems.append(f"out-of-line block {target:#x} is on the hot path")
            # The `.balign 4` before the site: a 2-byte c.nop that ends
            # exactly at the site (what relaxation leaves of the padding).
            for addr, mnemonic, _, insn_size, _ in probed:
                if addr + insn_size == site and insn_size == 2 and is_nop(mnemonic):
                    padding += 1
        for addr, mnemonic, operands, _, kind_ in probed:
            _, callee = target_of(operands)
            if kind_ == "call" and callee and arch.callee(callee) in COLD_CALLEES:
                problems.append(f"{arch.callee(callee)} called on the hot path at {addr:#x}")
        for _, target in mine:
            called = cold_calls(arch, insns_probed, target)
            # A site calls the xsdt_sdt_fire<n> of its probe's argument count.
            wanted = ["xsdt_sdt_fire"] + (["expensive"] if "expensive" in function else [])
            for callee in wanted:
                if not any(c == callee or (callee == "xsdt_sdt_fire" and c in COLD_CALLEES)
                           for c in called):
                    problems.append(f"the out-of-line block at {target:#x} does not call "
                                    f"{callee} (calls: {', '.join(called) or 'nothing'})")
        before = collections.Counter(p[1] for p in base)
        after = collections.Counter(p[1] for p in probed)
        added = after - before
        removed = before - after
        results[function] = {
            "kind": kind,
            "base": len(base),
            "probed": len(probed),
            "added": len(probed) - len(base),
            "padding": padding,
            # The goal: the site's NOPs, and where sites are aligned the
            # alignment c.nop if any.
            "goal": arch.site_instructions + (padding if arch.padded_sites else 0),
            "leaf_key": arch.leaf_key,
            "known_excess": (arch.known_excess if kind == "nonleaf" else
                             arch.leaf_known_excess.get(toolchain["compiler"], {})
                             .get(function, 0)),
            "problems": problems,
            "diff": (added, removed),
            "trace": probed,
            "base_trace": base,
        }
    return results


def describe(diff):
    added, removed = diff

    def fmt(counter, sign):
        return [f"{sign}{m}" + (f"×{n}" if n > 1 else "") for m, n in sorted(counter.items())]
    return " ".join(fmt(added, "+") + fmt(removed, "−")) or "="



def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--cells-dir", action="append", metavar="DIR",
                        help="toolchains to measure: the *.json of DIR (repeatable; "
                        "default BUILD_DIR/cells)")
    parser.add_argument("--opt", default="-O2")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a bound in the description is exceeded")
    parser.add_argument("--strict", action="store_true",
                        help="with --check: no known excess (arch.json), the goal (NOP only) "
                        "everywhere")
    parser.add_argument("--include-dir", action="append", default=[], metavar="DIR",
                        help="search DIR before the repository's headers (try a modified sdt.h)")
    parser.add_argument("--preserving", action="store_true",
                        help="probed builds define XSDT_SDT_PRESERVING_CALL (the arch's "
                        "register-preserving call, where it has one); leaf bounds from "
                        f"arch.json codegen.{LEAF_KEY_PRESERVING}")
    parser.add_argument("--only", metavar="SUBSTRING",
                        help="only the toolchains whose name contains SUBSTRING")
    parser.add_argument("--trace", metavar="TOOLCHAIN",
                        help="also print the probed hot paths of this toolchain (e.g. gcc-12-<arch>)")
    args = parser.parse_args()
    EXTRA_INCLUDES.extend(os.path.abspath(d) for d in args.include_dir)
    if args.preserving:
        EXTRA_DEFINES.append("-DXSDT_SDT_PRESERVING_CALL")

    tmp = tempfile.mkdtemp(prefix="xsdt-sdt-cost-")
    rows, violations, errors, known = [], [], [], []
    try:
        for path in toolchains.cell_files(
                args.cells_dir or [os.path.join(args.build_dir, "cells")]):
            with open(path) as f:
                toolchain = json.load(f)
            name = toolchain["name"]
            if args.only and args.only not in name:
                continue
            if not shutil.which(toolchain["cc"]):
                # Never passed: printed with or without --check, and a
                # violation with it.
                missing = (f"{name}: MISSING {toolchain['cc']}; "
                           f"install {toolchain['packages'].strip()}")
                violations.append(missing)
                if not args.check:
                    print(missing, file=sys.stderr)
                continue
            objdump = shutil.which(f"{toolchain['triple']}-objdump") or "objdump"
            try:
                results = measure(toolchain, objdump, tmp, args.opt)
            except PathError as e:
                errors.append(f"{name}: {e}")
                continue
            rows.append((toolchain, results))
            if args.check:
                # The check must be able to fail: the mutant evaluates the
                # arguments before the site, which must be caught.
                try:
                    mutant = measure(toolchain, objdump, tmp, args.opt, mutant=True)
                except PathError as e:
                    errors.append(f"{name} (mutant build): {e}")
                    mutant = {}
                for function in ("leaf_expensive", "nonleaf_expensive"):
                    if mutant and not any("expensive called on the hot path" in p
                                          for p in mutant[function]["problems"]):
                        violations.append(f"{name} {function}: the self-test build that calls "
                                          "expensive() before the site was not caught")
            for function, r in results.items():
                for p in r["problems"]:
                    violations.append(f"{name} {function}: {p}")
                goal = r["goal"]
                excess = 0 if args.strict else r["known_excess"]
                where = ("arch.json codegen.sdt_known_excess" if r["kind"] == "nonleaf" else
                         f"arch.json codegen.{r['leaf_key']}[{toolchain['compiler']}]")
                if r["added"] > goal + excess:
                    violations.append(f"{name} {function}: +{r['added']} on the hot path, "
                                      f"bound is +{goal + excess} (the site"
                                      + (", its alignment c.nop" if r["padding"] else "")
                                      + (f", {excess} known ({where})" if excess else "")
                                      + f"): {describe(r['diff'])}")
                elif r["kind"] == "leaf" and r["added"] > goal:
                    known.append(f"{name} {function}: +{r['added']}, goal +{goal} "
                                 f"({where} {r['known_excess']}: goal not met): "
                                 f"{describe(r['diff'])}")
            if args.trace == name:
                for function, r in results.items():
                    for label, trace in (("without", r["base_trace"]), ("with", r["trace"])):
                        print(f"{name} {function}, hot path {label} the probe "
                              f"({len(trace)} instructions):")
                        for addr, mnemonic, operands, _, _ in trace:
                            print(f"  {addr:8x}  {mnemonic} {operands}")
                print()
    finally:
        shutil.rmtree(tmp)

    # Sorted like docs/design.md: by compiler, then arch.
    rows.sort(key=lambda row: (row[0]["compiler"], row[0]["arch"]))
    print(f"Instructions added to the hot path by one SDT site at {args.opt}, "
          + ("register-preserving call (XSDT_SDT_PRESERVING_CALL) where the arch has one"
             if args.preserving else "plain call") + " "
          "(probed − unprobed; [n] = hot path without the probe; pad = includes "
          "the site's alignment c.nop; * = more than the NOP):\n")
    print("| target compiler | " + " | ".join(f[2] for f in FUNCTIONS) + " |")
    print("|---|" + "---:|" * len(FUNCTIONS))
    for toolchain, results in rows:
        cells = []
        for function, _, _ in FUNCTIONS:
            r = results[function]
            cell = f"+{r['added']} [{r['base']}]"
            if r["padding"]:
                cell += " pad"
            if r["added"] > r["goal"]:
                cell += " *"
            if r["problems"]:
                cell += " FAIL"
            cells.append(cell)
        print(f"| {toolchain['arch']} {toolchain['compiler']} | " + " | ".join(cells) + " |")
    print("\nWhat the hot path gains (mnemonics, probed vs unprobed):\n")
    print("| target compiler | function | added | instructions |")
    print("|---|---|---:|---|")
    for toolchain, results in rows:
        for function, _, _ in FUNCTIONS:
            r = results[function]
            print(f"| {toolchain['arch']} {toolchain['compiler']} | {function} | "
                  f"+{r['added']} | {describe(r['diff'])} |")

    for e in errors:
        print(f"ERROR: {e}", file=sys.stderr)
    for k in known:
        print(f"KNOWN EXCESS: {k}", file=sys.stderr)
    if args.check:
        for v in violations:
            print(f"VIOLATION: {v}", file=sys.stderr)
    if errors:
        return 2
    return 1 if args.check and violations else 0


if __name__ == "__main__":
    sys.exit(main())
