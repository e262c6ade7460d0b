"""The registry of consumers that check.py runs: one module per consumer,
each with NAME, PACKAGE (the Debian package that installs it), LIMIT_MARKERS
(what the consumer prints when a target is beyond it), executable(emulated)
and read(argv, emulator, oracle_log, timeout)."""
import importlib

MODULES = ["gdb"]


def names():
    return [importlib.import_module(m).NAME for m in MODULES]


def get(name):
    for module in MODULES:
        consumer = importlib.import_module(module)
        if consumer.NAME == name:
            return consumer
    raise KeyError(name)


def missing(consumer, emulated):
    """None when the consumer can run here; else what to install."""
    if consumer.executable(emulated):
        return None
    return f"not installed (apt-get install {consumer.PACKAGE})"
