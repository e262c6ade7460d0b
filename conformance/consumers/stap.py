"""SystemTap as a consumer: `stap -L 'process("FILE").mark("*")'` lists
every probe with its $argN, and a pass-2 elaboration (-p2) of one script
that reads every $argN of every probe resolves each argument through
SystemTap's own spec parser (tapsets.cxx). stap wants a kernel build tree
even for user-space probes; the container's own kernel has none, so it is
pointed (-r) at the tree of Debian's kernel headers for the host. Host-arch cells
only: elaborating another arch needs that arch's kernel tree."""
import glob
import os
import re
import shutil
import subprocess
import tempfile

import notes
import consumers
import static

NAME = "stap"
PACKAGE = "systemtap linux-headers-$(dpkg --print-architecture)"
STATIC = True
LIMIT_MARKERS = []
KNOWN_LIMITS = []

LISTED = re.compile(r'^process\("(.*)"\)\.mark\("(.*)"\)((?: \$arg\d+:\S+)*)\s*$')


def kernel_tree():
    """A kernel release with a build tree (from linux-headers-*), or None."""
    trees = sorted(glob.glob("/lib/modules/*/build/.config"))
    return trees[-1].split("/")[3] if trees else None


def executable(emulated):
    return shutil.which("stap") if kernel_tree() else None


def supports(arch):
    return consumers.host_syntax_only(arch, "stap elaborates")


def render(spec):
    return None


def _stap(args, timeout):
    proc = subprocess.run(["stap", "-r", kernel_tree()] + args, capture_output=True,
                          text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


def _elaborate(path, probes, timeout):
    """Status and output of -p2 on one script reading every $argN of each
    (name, argc) in probes."""
    lines = []
    for name, argc in probes:
        reads = " + ".join(f"$arg{i + 1}" for i in range(argc)) or "0"
        lines.append(f'probe process("{path}").mark("{name}") {{ printf("%d\\n", {reads}) }}')
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "probes.stp")
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        return _stap(["-p2", script], timeout)


def sites(paths, timeout):
    found, output = [], ""
    for path in paths:
        status, text = _stap(["-L", f'process("{path}").mark("*")'], timeout)
        output += text
        listed = {}
        for line in text.splitlines():
            match = LISTED.match(line)
            if match:
                listed[match.group(2)] = len(match.group(3).split())
        # stap names a mark without its provider: the note says which.
        providers = {n.name: n.provider for n in notes.read(path)}
        probes = sorted(listed.items())
        status, text = _elaborate(path, probes, timeout) if probes else (0, "")
        output += text
        for name, argc in probes:
            if status != 0:  # Find which probes stap cannot elaborate.
                one_status, one_text = _elaborate(path, [(name, argc)], timeout)
                output += one_text
            verdict = (None, None, None) if status == 0 or one_status == 0 else \
                "elaboration failed: " + one_text.strip()[-200:]
            found.append(static.Site(providers.get(name, "?"), name, None, [verdict] * argc))
    return found, output
