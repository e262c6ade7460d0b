#!/usr/bin/env python3
"""Measures the disabled cost of a probe: instructions added to a function.

Builds conformance/codegen/cost.c once without probes and once per probe case
for every toolchain (build/cells/*.json), with xsdt's <xsdt/sys-sdt.h> and
with SystemTap's <sys/sdt.h>, disassembles with the target's objdump and
counts the instructions of each function. The difference is the cost of the
site: NOP plus whatever the compiler had to add to put the arguments where
the note says they are. Prints a Markdown table.

--check N bounds every arch:
* a 64-bit arch: xsdt's probes with register arguments (6 ints; 6 with a
  char and a short) add at most N instructions beyond a one-instruction
  site: N plus the site's other instructions where it has more (arch.json
  codegen.site_instructions, 1 when absent);
* a 32-bit arch (arch.json data_model ILP32), where registers
  are few and a 64-bit value takes two: in every case xsdt adds no more
  than sys/sdt.h with the same compiler. A case where sys/sdt.h does not compile,
  or emits a spec outside the portable subset (`xsdt-inspect check
  --only=specs`: cheap because it is wrong, such as g@GOTOFF(%ebx) or an
  8-byte immediate that gdb truncates), bounds nothing: it is printed as
  UNBOUNDED with the reason, never passed silently. Where the goal is not
  met yet, arch.json codegen.disabled_known_excess pins the measured excess
  per compiler and case: printed as KNOWN EXCESS, and a violation as soon
  as it grows.
Every xsdt build must compile and its specs must be portable.
"""
import argparse
import glob
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
SOURCE = os.path.join(REPO, "conformance", "codegen", "cost.c")
CASES = [(1, "six_register_args", "6 register args"),
         (2, "one_global_arg", "1 global"),
         (3, "constant_args", "3 constants"),
         (4, "wide_args", "i64+double+global i64"),
         (5, "narrow_register_args", "6 register args, char+short")]
# The cases with register arguments, bounded by --check on register-args arches.
REGISTER_CASES = (1, 5)


def find_sys_sdt():
    """SystemTap's sys/sdt.h (systemtap-sdt-dev): under the host's multiarch
    include directory on Debian."""
    for directory in ["/usr/include"] + sorted(glob.glob("/usr/include/*-linux-gnu*")):
        if os.path.exists(os.path.join(directory, "sys", "sdt.h")):
            return os.path.join(directory, "sys", "sdt.h")
    raise SystemExit("disabled-cost: sys/sdt.h not found under /usr/include: "
                     "install systemtap-sdt-dev")


def arch_json(toolchain):
    """The facts of the toolchain's arch (arches/<arch>/arch.json), in its
    variant if it has one (ci/arch_facts.py)."""
    try:
        return arch_facts.load(REPO, toolchain["arch"], toolchain.get("variant")).data
    except arch_facts.ArchFactsError as error:
        raise SystemExit(f"disabled-cost: {error}")


def known_excess(toolchain, function):
    """How many instructions xsdt is measured to cost beyond sys/sdt.h in a
    case where the goal (no costlier) is not met yet: arch.json
    codegen.disabled_known_excess[compiler][function], 0 when absent. The
    check fails when the excess grows, and prints it while it lasts."""
    table = arch_json(toolchain).get("codegen", {}).get("disabled_known_excess", {})
    return int(table.get(toolchain["compiler"], {}).get(function, 0))


def site_instructions(toolchain):
    """The instructions of one xsdt site, disabled: arch.json
    codegen.site_instructions, 1 when absent."""
    return int(arch_json(toolchain).get("codegen", {}).get("site_instructions", 1))


def count_instructions(objdump, binary, function):
    """Counts the instructions inside the function's symbol [value, value+size).

    The symbol size excludes the alignment padding after the function, and
    counting by address is immune to objdump splitting a function at mapping
    symbols (an assembler may emit one where `.option norvc` changes the ISA
    string).
    """
    symbols = subprocess.run(["readelf", "-sW", binary], capture_output=True,
                             text=True, check=True).stdout
    # Visibility may be followed by readelf's note on st_other, such as
    # POWER ELFv2's "[<localentry>: 8]".
    match = re.search(rf"^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+"
                      rf"(?:\s+\[[^\]]*\])?\s+\S+\s+{function}$", symbols, re.M)
    if not match:
        raise RuntimeError(f"{function} not found in {binary}")
    start, size = int(match.group(1), 16), int(match.group(2))
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary],
                         capture_output=True, text=True, check=True).stdout
    count = 0
    in_function = False
    for line in out.splitlines():
        header = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if header:
            in_function = header.group(2) == function or (
                in_function and not header.group(2).startswith(function) and
                start <= int(header.group(1), 16) < start + size)
            continue
        insn = re.match(r"^\s+([0-9a-f]+):\s+\S", line)
        if insn and start <= int(insn.group(1), 16) < start + size:
            count += 1
    return count


def portability_problems(inspect, binary):
    """xsdt-inspect's violations of the portable subset in the binary's
    specs (empty when every spec is portable)."""
    result = subprocess.run([inspect, "check", "--only=specs", binary],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return []
    lines = [l.strip() for l in (result.stdout + result.stderr).splitlines() if l.strip()]
    return [l for l in lines if "violation" in l.lower() or "@" in l] or lines[-1:]


def build(toolchain, includes, case, opt, out):
    command = [toolchain["cc"]] + toolchain["target_flag"].split()
    # Linked (not just assembled): objects may carry worst-case .balign
    # padding that only linker relaxation removes.
    command += [opt, "-fPIC", "-shared", "-nostdlib", "-Wall", "-Wextra", "-Werror"] + includes
    command += [f"-DPROBE_CASE={case}", SOURCE, "-o", out]
    return subprocess.run(command, capture_output=True, text=True)



def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--cells-dir", action="append", metavar="DIR",
                        help="toolchains to measure: the *.json of DIR (repeatable; "
                        "default BUILD_DIR/cells)")
    parser.add_argument("--opt", default="-O2")
    parser.add_argument("--check", type=int, metavar="N",
                        help="fail when xsdt adds more than N instructions for register "
                             "args, or more than sys/sdt.h on 32-bit arches")
    parser.add_argument("--inspect", help="xsdt-inspect (default: BUILD_DIR/sdt/inspect/xsdt-inspect)")
    parser.add_argument("--define", action="append", default=[], metavar="MACRO",
                        help="build xsdt's probes with -DMACRO too (the cost of an option "
                             "such as XSDT_REGISTER_CONSTANTS)")
    args = parser.parse_args()
    inspect = args.inspect or os.path.join(args.build_dir, "sdt", "inspect", "xsdt-inspect")
    if args.check is not None and not os.access(inspect, os.X_OK):
        raise SystemExit(f"disabled-cost: {inspect} not found: build xsdt-inspect first")

    tmp = tempfile.mkdtemp(prefix="xsdt-cost-")
    shim = os.path.join(tmp, "xsdt-shim", "sys")
    os.makedirs(shim)
    with open(os.path.join(shim, "sdt.h"), "w") as f:
        f.write("#include <xsdt/sys-sdt.h>\n")
    stap = os.path.join(tmp, "stap-shim", "sys")
    os.makedirs(stap)
    for name in ("sdt.h", "sdt-config.h"):
        shutil.copy(os.path.join(os.path.dirname(find_sys_sdt()), name), stap)

    rows, violations, unbounded, known = [], [], [], []
    for path in toolchains.cell_files(
            args.cells_dir or [os.path.join(args.build_dir, "cells")]):
        with open(path) as f:
            toolchain = json.load(f)
        arch = toolchain["arch"]
        narrow = arch_json(toolchain).get("data_model") == "ILP32"
        if not shutil.which(toolchain["cc"]):
            violations.append(f"{toolchain['name']}: MISSING {toolchain['cc']}; "
                              f"install {toolchain['packages'].strip()}")
            continue
        objdump = shutil.which(f"{toolchain['triple']}-objdump") or "objdump"
        impls = {
            "xsdt": [f"-I{tmp}/xsdt-shim", f"-I{REPO}/sdt/include", f"-I{REPO}/arches/{arch}/include"]
            + [f"-D{macro}" for macro in args.define],
            "sys/sdt.h": [f"-I{tmp}/stap-shim"],
        }
        # added[impl][case]: instructions, or a string saying why there is none.
        added = {}
        for impl, includes in impls.items():
            base_obj = os.path.join(tmp, f"{toolchain['name']}-{impl.replace('/', '_')}-0.so")
            result = build(toolchain, includes, 0, args.opt, base_obj)
            if result.returncode:
                print(result.stderr, file=sys.stderr)
                return 2
            cells, added[impl] = [], {}
            for case, function, _ in CASES:
                obj = base_obj[:-5] + f"-{case}.so"
                result = build(toolchain, includes, case, args.opt, obj)
                if result.returncode:
                    first = (result.stderr.strip().splitlines() or ["?"])[-1]
                    cells.append("build error")
                    added[impl][case] = f"does not compile ({first})"
                    if impl == "xsdt":
                        violations.append(f"{toolchain['name']} {function}: {first}")
                    continue
                count = (count_instructions(objdump, obj, function)
                         - count_instructions(objdump, base_obj, function))
                cells.append(f"+{count}")
                added[impl][case] = count
                if args.check is None:
                    continue
                problems = portability_problems(inspect, obj)
                if problems and impl == "xsdt":
                    violations.append(f"{toolchain['name']} {function}: xsdt spec not "
                                      f"portable: {problems[0]}")
                elif problems:
                    added[impl][case] = f"is not portable ({problems[0]})"
            rows.append((f"{arch} {toolchain['compiler']}", impl, cells))
        if args.check is None:
            continue
        for case, function, _ in CASES:
            mine, theirs = added["xsdt"][case], added["sys/sdt.h"][case]
            if not isinstance(mine, int):
                continue  # already a violation
            where = f"{toolchain['name']} {function}"
            if not narrow:
                bound = args.check + site_instructions(toolchain) - 1
                if case in REGISTER_CASES and mine > bound:
                    violations.append(f"{where}: +{mine}, bound is +{bound}")
            elif isinstance(theirs, int):
                excess = known_excess(toolchain, function)
                if mine > theirs + excess:
                    violations.append(f"{where}: xsdt +{mine} > sys/sdt.h +{theirs}"
                                      + (f" + known excess {excess}" if excess else "")
                                      + " (32-bit: no costlier than sys/sdt.h)")
                elif mine > theirs:
                    known.append(f"{where}: xsdt +{mine} > sys/sdt.h +{theirs} (arch.json "
                                 f"codegen.disabled_known_excess {excess}: goal not met)")
            else:
                unbounded.append(f"{where}: xsdt +{mine}; sys/sdt.h {theirs}")

    print(f"| target compiler | implementation | " + " | ".join(c[2] for c in CASES) + " |")
    print("|---|---|" + "---|" * len(CASES))
    for target, impl, cells in rows:
        print(f"| {target} | {impl} | " + " | ".join(cells) + " |")
    shutil.rmtree(tmp)
    for u in unbounded:
        print(f"UNBOUNDED: {u}", file=sys.stderr)
    for k in known:
        print(f"KNOWN EXCESS: {k}", file=sys.stderr)
    for v in violations:
        print(f"VIOLATION: {v}", file=sys.stderr)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
