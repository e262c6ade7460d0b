"""gdb as a consumer: lists the probes (info probes), stops at every site
(break -probe-stap) and reads $_probe_argc and $_probe_argN, natively or
through qemu-user's gdb stub (gdb-multiarch), while the program writes the
oracle's log of what its source passed (ORACLE_LOG)."""
import os
import shutil
import socket
import subprocess
import tempfile

NAME = "gdb"
PACKAGE = "gdb-multiarch"
# gdb 13 on a target without stap argument hooks says so once.
LIMIT_MARKERS = ["SystemTap SDT probe support is not fully implemented"]
INFERIOR_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gdb_inferior.py")


def negated_overflow(value, number):
    """gdb parses a bare immediate -9223372036854775808 (INT64_MIN, as clang
    writes that constant on arches whose immediates have no prefix:
    `-8@-9223372036854775808`) as the negation of a literal it clamps to
    INT64_MAX, and reads -9223372036854775807. The same bits are a double
    -0.0 passed as its IEEE bits."""
    if not isinstance(number, int):
        return None
    if value.size == 8 and value.bits & ((1 << 64) - 1) == 1 << 63 and \
            number & ((1 << 64) - 1) == (1 << 63) + 1:
        return "gdb reads the immediate -9223372036854775808 as -INT64_MAX"
    return None


# Differences between what gdb reads and the source's value that are gdb's
# own (check.py reports them apart from findings).
KNOWN_LIMITS = [negated_overflow]


def executable(emulated):
    """gdb-multiarch reads every arch; plain gdb the host's only."""
    names = ["gdb-multiarch"] + ([] if emulated else ["gdb"])
    return next((shutil.which(n) for n in names if shutil.which(n)), None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sysroot_of(emulator):
    """The -L directory of a qemu-user command line, else "/"."""
    words = emulator.split()
    return words[words.index("-L") + 1] if "-L" in words[:-1] else "/"


def read(argv, emulator, oracle_log, timeout):
    """Runs argv under gdb; returns (events, gdb's output). events are the
    lines of gdb_inferior.py's output, split into words."""
    gdb = executable(bool(emulator))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "gdb.out")
        env = dict(os.environ, ORACLE_LOG=oracle_log, XSDT_GDB_OUT=out)
        command = [gdb, "-batch", "-nx", "-iex", "set debuginfod enabled off",
                   "-ex", "set startup-with-shell off"]
        stub = None
        if emulator:
            port = free_port()
            stub = subprocess.Popen(emulator.split() + ["-g", str(port)] + argv, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            env["XSDT_GDB_REMOTE"] = f"localhost:{port}"
            # The sysroot prefixes every library path gdb reads from the
            # target, the program's own directory too: a library beside the
            # program (shared link) is found by its name there.
            folders = ":".join(dict.fromkeys(os.path.dirname(os.path.abspath(a))
                                             for a in argv if os.path.isfile(a)))
            command += ["-ex", f"set sysroot {sysroot_of(emulator)}",
                        "-ex", f"set solib-search-path {folders}",
                        "-ex", f"file {argv[0]}", "-x", INFERIOR_SCRIPT]
        else:
            command += ["-x", INFERIOR_SCRIPT, "--args"] + argv
        try:
            proc = subprocess.run(command, env=env, capture_output=True, text=True,
                                  timeout=timeout)
            output = proc.stdout + proc.stderr
        finally:
            if stub:
                try:
                    output_stub, _ = stub.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    stub.kill()
                    output_stub, _ = stub.communicate()
                output += output_stub or ""
        events = []
        if os.path.exists(out):
            with open(out) as f:
                events = [line.split() for line in f if line.strip()]
        return events, output


def supports(arch):
    """gdb-multiarch reads every arch this suite builds."""
    return None
