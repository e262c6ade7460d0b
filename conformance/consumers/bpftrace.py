"""bpftrace as a consumer: `bpftrace -l 'usdt:FILE:*'` lists the probes,
and a dry run (--emit-elf: parse, semantic analysis and code generation,
nothing loaded) of one program that reads arg0..argN-1 of every probe
resolves each argument through libbcc's parser. An argument bpftrace
rejects is taken out and the dry run repeated, so every argument gets its
own verdict. Host-arch cells only (libbcc's grammar)."""
import os
import re
import shutil
import subprocess
import tempfile

import notes
import consumers
import static

NAME = "bpftrace"
PACKAGE = "bpftrace"
STATIC = True
LIMIT_MARKERS = []

SEMANTIC = re.compile(r":(\d+):\d+(?:-\d+)?: ERROR: (.*)$")
NO_ARGUMENT = re.compile(r"ERROR: couldn't get argument (\d+) for \S+:(\S+):(\S+)$")
# arg6..arg9 on x86_64 ("x86_64 doesn't support arg6"); arg10 and later
# everywhere (bpftrace has no such builtin).
UNSUPPORTED_ARG = re.compile(r"(?:doesn't support |Unknown identifier: ')arg(\d+)")


def addresses_six(spec, index, reading):
    if isinstance(reading, str) and UNSUPPORTED_ARG.search(reading):
        return "bpftrace 0.17 has arg0..arg9, and fewer on some arches (its message)"
    return None


KNOWN_LIMITS = [addresses_six]


def executable(emulated):
    return shutil.which("bpftrace")


def supports(arch):
    return consumers.host_syntax_only(arch, "bpftrace (libbcc) reads")


def render(spec):
    return None


def _dry_run(script, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probes.bt")
        with open(path, "w") as f:
            f.write(script)
        proc = subprocess.run(["bpftrace", "--emit-elf", os.path.join(tmp, "out.o"), path],
                              capture_output=True, text=True, timeout=timeout)
        # Complaints about the machine (no memlock limit to raise, no
        # tracefs in a container), not about the program.
        text = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines()
                         if "RLIMIT_MEMLOCK" not in line and "traceable functions" not in line)
        return proc.returncode, text


def sites(paths, timeout):
    found, output = [], ""
    for path in paths:
        proc = subprocess.run(["bpftrace", "-l", f"usdt:{path}:*"], capture_output=True,
                              text=True, timeout=timeout)
        output += proc.stdout + proc.stderr
        listed = {tuple(line.rsplit(":", 2)[1:]) for line in proc.stdout.splitlines()
                  if line.startswith("usdt:")}
        counts = {}
        for note in notes.read(path):
            counts[note.key] = max(counts.get(note.key, 0), len(note.args))
        probes = sorted(k for k in counts if k in listed)
        verdicts = {k: [None] * counts[k] for k in probes}
        for _ in range(1 + sum(counts[k] for k in probes)):
            pending = [(k, [i for i, v in enumerate(verdicts[k]) if v is None]) for k in probes]
            pending = [(k, args) for k, args in pending if args]
            if not pending:
                break
            # One statement per argument, so an error names one argument.
            lines = [f"usdt:{path}:{k[0]}:{k[1]} {{ "
                     f"{' '.join(f'print(arg{i});' for i in args)} }}" for k, args in pending]
            status, text = _dry_run("\n".join(lines) + "\n", timeout)
            output += text
            if status == 0 and "ERROR" not in text:
                for key, args in pending:
                    for i in args:
                        verdicts[key][i] = (None, None, None)
                break
            progress = False
            for line in text.splitlines():
                match = SEMANTIC.search(line)
                if match:
                    key, args = pending[int(match.group(1)) - 1]
                    arg = UNSUPPORTED_ARG.search(match.group(2))
                    for i in ([int(arg.group(1))] if arg else args):
                        if i < len(verdicts[key]) and verdicts[key][i] is None:
                            verdicts[key][i] = match.group(2)
                            progress = True
                match = NO_ARGUMENT.search(line)
                if match and (match.group(2), match.group(3)) in verdicts:
                    i = int(match.group(1))
                    verdicts[(match.group(2), match.group(3))][i] = line.strip()
                    progress = True
            if not progress:
                for key, args in pending:
                    for i in args:
                        verdicts[key][i] = "dry run failed: " + text.strip()[-200:]
                break
        for key in sorted(listed):
            found.append(static.Site(key[0], key[1], None, verdicts.get(key, [])))
    return found, output
