"""The registry of consumers that check.py runs: one module per consumer.
Each has NAME, PACKAGE (the Debian package that installs it), LIMIT_MARKERS
(what the consumer prints when a target is beyond it), KNOWN_LIMITS,
executable(emulated) (None when not installed) and supports(emulated) (None,
or why the consumer cannot read this cell's arch). A consumer that runs the
program (gdb) has read(argv, emulator, oracle_log, timeout); one that reads
the files (STATIC) has sites(paths, timeout) and render(spec)."""
import importlib

MODULES = ["gdb", "readelf", "bcc", "perf", "bpftrace", "stap"]


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


def unsupported(consumer, emulated):
    """None when the consumer reads this cell's arch; else why not."""
    return consumer.supports(emulated)
