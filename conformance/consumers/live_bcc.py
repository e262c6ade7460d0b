"""bcc's trace, live: one `trace-bpfcc` attaches `u:FILE:PROVIDER:NAME`
probes to every probe of the cell's programs through the kernel (by file,
so that a program started after it is traced), prints each argument at
every hit, and the programs run one after the other natively.

bcc compiles its BPF C against kernel headers. This machine's kernel has
none; Debian's linux-headers-<arch> (the headers of Debian's own kernel)
stand in: uprobe programs read only pt_regs and user memory, which do not
change between the two. trace-bpfcc names arguments arg1..arg9: it
substitutes `arg1` inside `arg10`, so arg10..arg12 read arg1's value; they
are its known limit, not printed."""
import glob
import os
import re
import shutil
import subprocess

import live

NAME = "live-bcc"
PACKAGE = "bpfcc-tools"
LIVE = True
LIMIT_MARKERS = []
READABLE_ARGS = 9
HIT = re.compile(r"^(\d+)\s+\d+\s+.*?xsdt-live (\d+)((?: [0-9a-f]+)*)\s*$")


def beyond_reach(value, reading):
    if isinstance(reading, str) and reading.startswith("bcc-trace-reads-arg1-arg9"):
        return ("bcc's trace substitutes arg1 inside arg10..arg12: it reads arguments "
                "1..9 only")
    return None


KNOWN_LIMITS = [beyond_reach]


def executable(emulated):
    return shutil.which("trace-bpfcc")


def supports(arch):
    return live.runs_natively(arch)


def kernel_tree():
    """A header tree bcc can compile against (BCC_KERNEL_SOURCE): Debian
    splits one kernel's headers into linux-headers-<version>-common and
    -<arch> (the generated ones); bcc wants them in one tree. Made once, of
    links, in the temporary directory; None when no headers are installed."""
    for common in sorted(glob.glob("/usr/src/linux-headers-*-common"), reverse=True):
        version = os.path.basename(common)[len("linux-headers-"):-len("-common")]
        built = next((d for d in sorted(glob.glob(f"/usr/src/linux-headers-{version}-*"))
                      if not d.endswith("-common") and
                      os.path.isdir(os.path.join(d, "include", "generated"))), None)
        if not built:
            continue
        tree = os.path.join(live.machine_dir(), f"xsdt-bcc-{os.path.basename(built)}")
        if os.path.isdir(tree):
            return tree
        fresh = f"{tree}.{os.getpid()}"
        shutil.rmtree(fresh, ignore_errors=True)
        # include/ and the host arch's arch/<arch>/include/: the one whose
        # generated headers the -<arch> package holds.
        arches = [os.path.relpath(os.path.dirname(g), built)
                  for g in glob.glob(os.path.join(built, "arch", "*", "include", "generated"))]
        for sub in ["include"] + arches:
            os.makedirs(os.path.join(fresh, sub))
            for entry in sorted(os.listdir(os.path.join(common, sub))):
                os.symlink(os.path.join(common, sub, entry), os.path.join(fresh, sub, entry))
            for entry in ("generated", "config"):
                source = os.path.join(built, sub, entry)
                if os.path.exists(source) and not os.path.lexists(os.path.join(fresh, sub, entry)):
                    os.symlink(source, os.path.join(fresh, sub, entry))
        try:
            os.rename(fresh, tree)
        except OSError:  # another run made it first
            shutil.rmtree(fresh, ignore_errors=True)
        return tree
    return None


def probe_spec(target):
    n = min(target.readable, READABLE_ARGS)
    fmt = "".join(" %llx" for _ in range(n))
    args = "".join(f", arg{i + 1}" for i in range(n))
    return (f'u:{target.binary}:{target.provider}:{target.name} '
            f'"xsdt-live {target.index}{fmt}"{args}')


def run(runs, targets, work_dir, timeout):
    tree = kernel_tree()
    if tree is None:
        # Debian's package is linux-headers-<its arch name>, amd64 here.
        raise live.Missing("bcc compiles against kernel headers and none are installed "
                           "(apt-get install linux-headers-" +
                           subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                                          text=True).stdout.strip() + ")")
    env = dict(os.environ, BCC_KERNEL_SOURCE=tree, PYTHONUNBUFFERED="1")
    # The column header comes once every probe is attached.
    pids, lines = live.session(
        runs, targets,
        lambda targets: ["trace-bpfcc"] + [probe_spec(t) for t in targets if not t.dropped],
        lambda line: line.split()[:4] == ["PID", "TID", "COMM", "FUNC"], "bcc's trace",
        timeout, env, whole=True)
    traced = live.Traced()
    traced.output = "".join(lines)
    for line in lines:
        match = HIT.match(line.strip())
        if not match or int(match.group(1)) not in pids:
            continue
        target = targets[int(match.group(2))]
        readings = [int(v, 16) for v in match.group(3).split()]
        readings += [live.unread(NAME, target, i, f"bcc-trace-reads-arg1-arg9-only:arg{i + 1}")
                     for i in range(len(readings), target.argc)]
        traced.hits.append((pids[int(match.group(1))], target.index, readings))
    return traced
