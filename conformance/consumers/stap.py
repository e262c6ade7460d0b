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


def _elaborate(probes, timeout):
    """Status and output of -p2 on one script reading every $argN of each
    (path, name, argc) in probes."""
    lines = []
    for path, name, argc in probes:
        reads = " + ".join(f"$arg{i + 1}" for i in range(argc)) or "0"
        lines.append(f'probe process("{path}").mark("{name}") {{ printf("%d\\n", {reads}) }}')
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "probes.stp")
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        return _stap(["-p2", script], timeout)


def sites(paths, timeout):
    return sites_of([paths], timeout)[0]


def sites_of(groups, timeout):
    """[(sites, output)] per group of paths (one program's files), from one
    listing and one elaboration over every file: stap's start-up (its
    tapsets) is most of a run."""
    paths = list(dict.fromkeys(p for group in groups for p in group))
    listed = {}   # path -> {mark: argc}
    canonical = {os.path.realpath(p): p for p in paths}
    output = ""
    if paths:
        points = ", ".join(f'process("{p}").mark("*")' for p in paths)
        _, output = _stap(["-L", points], timeout)
        for line in output.splitlines():
            match = LISTED.match(line)
            if match:
                # stap prints each file as it resolved it.
                path = canonical.get(os.path.realpath(match.group(1)), match.group(1))
                listed.setdefault(path, {})[match.group(2)] = \
                    len(match.group(3).split())
    probes = [(p, name, argc) for p in paths for name, argc in sorted(listed.get(p, {}).items())]
    status, text = _elaborate(probes, timeout) if probes else (0, "")
    output += text
    failing = set()
    if status != 0:  # Find which files, then which probes, stap cannot elaborate.
        for path in paths:
            mine = [probe for probe in probes if probe[0] == path]
            path_status, path_text = _elaborate(mine, timeout) if mine else (0, "")
            if path_status != 0:
                output += path_text
                failing.add(path)
    verdicts = {}
    for path, name, argc in probes:
        verdict = (None, None, None)
        if path in failing:
            one_status, one_text = _elaborate([(path, name, argc)], timeout)
            output += one_text
            if one_status != 0:
                verdict = "elaboration failed: " + one_text.strip()[-200:]
        verdicts[(path, name)] = [verdict] * argc
    results = []
    for group in groups:
        found = []
        for path in group:
            # stap names a mark without its provider: the note says which.
            providers = {n.name: n.provider for n in notes.read(path)}
            for name in sorted(listed.get(path, {})):
                found.append(static.Site(providers.get(name, "?"), name, None,
                                         verdicts[(path, name)]))
        results.append((found, output))
    return results
