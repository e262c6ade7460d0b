"""What the consumers that read a binary without running it (readelf, bcc's
tplist, perf's SDT cache, bpftrace's dry run, SystemTap's elaboration) have
in common: the program's files, and the program run once for the oracle's
log of the probes its source defines."""
import os
import subprocess


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def binaries(argv):
    """The ELF files of a program: the executables on its command line and
    the shared libraries beside them (a shared-link cell's probes are in
    one)."""
    found = []
    for word in argv:
        if os.path.isfile(word) and is_elf(word):
            found.append(os.path.abspath(word))
            folder = os.path.dirname(os.path.abspath(word))
            found += [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                      if ".so" in n and is_elf(os.path.join(folder, n))]
    return list(dict.fromkeys(found))


def run_for_log(argv, emulator, oracle_log, timeout):
    """Runs the program (under the cell's emulator) with ORACLE_LOG; returns
    (exit status, its output)."""
    env = dict(os.environ, ORACLE_LOG=oracle_log)
    proc = subprocess.run(emulator.split() + argv, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


class Site:
    """One probe site as a consumer reads it: args is a list of
    (size, signed, location text) per argument the consumer parsed, or a
    string saying why it did not."""

    def __init__(self, provider, name, address, args):
        self.provider, self.name, self.address, self.args = provider, name, address, args

    @property
    def key(self):
        return (self.provider, self.name)
