"""The registry of consumers that check.py runs: one module per consumer.
Each has NAME, PACKAGE (the Debian package that installs it), LIMIT_MARKERS
(what the consumer prints when a target is beyond it), KNOWN_LIMITS,
executable(emulated) (None when not installed) and supports(arch) (None, or
why the consumer cannot read the arch's specs). A consumer that runs the
program (gdb) has read(argv, emulator, oracle_log, timeout); one that reads
the files (STATIC) has sites(paths, timeout) and render(spec); one that
traces the programs through the kernel (LIVE) has run(), live.py says how."""
import importlib
import json
import os
import platform

ARCHES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "arches")

MODULES = ["gdb", "readelf", "bcc", "perf", "bpftrace", "stap",
           "live_bpftrace", "live_perf", "live_bcc", "live_xsdt_trace"]


def names():
    return [importlib.import_module(m).NAME for m in MODULES]


def get(name):
    for module in MODULES:
        consumer = importlib.import_module(module)
        if consumer.NAME == name:
            return consumer
    raise KeyError(name)


def missing(consumer, emulated):
    """None when the consumer is installed; else what to install."""
    if consumer.executable(emulated):
        return None
    return f"not installed (apt-get install {consumer.PACKAGE})"


def unsupported(consumer, arch):
    """None when the consumer reads the arch's specs; else why not."""
    return consumer.supports(arch)


def _family(arch):
    """The arch and the directories it shares (arch.json "shares"), or None
    for an arch not in arches/."""
    try:
        with open(os.path.join(ARCHES, arch, "arch.json")) as f:
            return {arch, *json.load(f).get("shares", [])}
    except OSError:
        return None


def host_arch():
    """The arches/ directory of this machine (its name or an alias)."""
    machine = platform.machine()
    for name in sorted(os.listdir(ARCHES)):
        try:
            with open(os.path.join(ARCHES, name, "arch.json")) as f:
                aliases = json.load(f).get("aliases", [])
        except OSError:
            continue
        if machine == name or machine in aliases:
            return name
    return None


def reads_host_syntax(arch):
    """Whether arch's specs are in the host's syntax: bcc, perf, bpftrace and
    stap compile in the host's parser only, which reads the arches that share
    a directory with the host's (arch.json "shares")."""
    host = host_arch()
    mine, hosts = _family(arch), _family(host) if host else None
    return bool(mine and hosts and mine & hosts)


def host_syntax_only(arch, what):
    """supports() of a consumer that compiles in its host's parser only:
    None for an arch in the host's syntax family, else `what` cannot."""
    return None if reads_host_syntax(arch) else f"{what} the host's syntax only"
