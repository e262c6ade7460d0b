"""bcc as a consumer: `tplist-bpfcc -vv -l FILE` lists every probe, each
site, and each argument as libbcc's parser (usdt_args.cc, the parser under
bpftrace too) reads it: "N signed|unsigned bytes @ LOCATION". libbcc
compiles in the host's grammar only: it runs on host-arch cells."""
import re
import shutil
import subprocess

import host_regs
import consumers
import static

NAME = "bcc"
PACKAGE = "bpfcc-tools"
STATIC = True
LIMIT_MARKERS = []
KNOWN_LIMITS = []

PROBE = re.compile(r"^(\S+):(\S+) \[sema 0x[0-9a-f]+\]$")
LOCATION = re.compile(r"^  location #\d+ (.*) 0x([0-9a-f]+)$")
ARGUMENT = re.compile(r"^    argument #(\d+) (\d+) (signed|unsigned) +bytes @ (.*)$")


def executable(emulated):
    return shutil.which("tplist-bpfcc")


def supports(arch):
    return consumers.host_syntax_only(arch, "libbcc parses")


def render(spec):
    """How usdt.py's USDTProbeArgument prints the spec's location."""
    loc = spec.location
    match = host_regs.IMMEDIATE.match(loc)
    if match:
        return str(int(match.group("value")))
    if host_regs.REGISTER.match(loc):
        return host_regs.field(loc)
    match = host_regs.MEMORY.match(loc)
    if match and match.group("base") != "%rip":
        disp = int(match.group("disp") or 0)
        text = f"*({host_regs.field(match.group('base'))} {'-' if disp < 0 else '+'} {abs(disp)}"
        if match.group("index"):
            text += f" + {host_regs.field(match.group('index'))}"
            if match.group("scale"):
                text += f" * {match.group('scale')}"
        return text + ")"
    return None


def sites(paths, timeout):
    found, output = [], ""
    for path in paths:
        proc = subprocess.run(["tplist-bpfcc", "-vv", "-l", path], capture_output=True,
                              text=True, timeout=timeout)
        output += proc.stdout + proc.stderr
        probe = site = None
        for line in proc.stdout.splitlines():
            if PROBE.match(line):
                probe = PROBE.match(line).groups()
            elif LOCATION.match(line) and probe:
                site = static.Site(probe[0], probe[1], int(LOCATION.match(line).group(2), 16),
                                   [])
                found.append(site)
            elif ARGUMENT.match(line) and site:
                _, size, sign, location = ARGUMENT.match(line).groups()
                site.args.append((int(size), sign == "signed", location))
    return found, output
