# xsdt-arch-specific: perf rewrites a spec in its host's grammar only, and
# render() spells the x86 rewrite.
"""perf as a consumer: `perf buildid-cache --add FILE` writes one uprobe
definition per probe site into its SDT cache (`perf probe --cache --list`
lists them), with each argument as perf's x86 parser rewrites it
(arch/x86/util/perf_regs.c): `argN=%ax:s32`, `argN=+16(%sp):u64`. perf
compiles in the host's grammar only: it runs on host-arch cells. perf skips
what it cannot parse ("Skipping unsupported SDT argument"): an immediate
always."""
import glob
import os
import re
import shutil
import subprocess
import tempfile

import host_regs
import notes
import consumers
import static

NAME = "perf"
PACKAGE = "linux-perf"
STATIC = True
LIMIT_MARKERS = []

CACHED_PROBE = re.compile(r"^%sdt_(\S+?):(\S+)=")
UPROBE = re.compile(r"^p:\S+ (\S+):0x([0-9a-f]+)(.*)$")
ARGUMENT = re.compile(r"^arg(\d+)=(\S+):([su])(\d+)$")


def skips_immediates(spec, index, reading):
    if reading is None and host_regs.IMMEDIATE.match(spec.location):
        return "perf skips every immediate (\"Skipping unsupported SDT argument\")"
    return None


KNOWN_LIMITS = [skips_immediates]


def executable(emulated):
    return shutil.which("perf")


def supports(arch):
    return consumers.host_syntax_only(arch, "perf parses")


def render(spec):
    """The location as perf's x86 parser rewrites it; None for an immediate
    (skipped) or a form it has no rewrite for."""
    loc = spec.location
    if host_regs.REGISTER.match(loc):
        return f"%{host_regs.field(loc)}"
    match = host_regs.MEMORY.match(loc)
    if match and not match.group("index") and match.group("base") != "%rip":
        disp = int(match.group("disp") or 0)
        return f"{'-' if disp < 0 else '+'}{abs(disp)}(%{host_regs.field(match.group('base'))})"
    return None


def sites(paths, timeout):
    found, output = [], ""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home)
        for path in paths:
            proc = subprocess.run(["perf", "buildid-cache", "-v", "--add", path], env=env,
                                  capture_output=True, text=True, timeout=timeout)
            output += proc.stdout + proc.stderr
        for cache in sorted(glob.glob(os.path.join(home, ".debug", "**", "probes"),
                                      recursive=True)):
            key = None
            with open(cache) as f:
                for line in f:
                    line = line.strip()
                    if CACHED_PROBE.match(line):
                        key = CACHED_PROBE.match(line).groups()
                    elif UPROBE.match(line) and key:
                        binary, offset, rest = UPROBE.match(line).groups()
                        address = notes.file_offset_to_address(binary, int(offset, 16))
                        args = {}
                        for word in rest.split():
                            match = ARGUMENT.match(word)
                            if match:
                                number, location, sign, bits = match.groups()
                                register = re.search(r"%(\w+)", location)
                                if register and register.group(1) not in host_regs.KERNEL_NAMES:
                                    # The kernel refuses the whole uprobe.
                                    args[int(number)] = (f"perf names {register.group(0)}, "
                                                         "which uprobe_events does not know")
                                else:
                                    args[int(number)] = (int(bits) // 8, sign == "s", location)
                        count = max(args, default=0)
                        found.append(static.Site(key[0], key[1], address,
                                                 [args.get(n) for n in range(1, count + 1)]))
    return found, output
