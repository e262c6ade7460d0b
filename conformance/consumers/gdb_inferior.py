"""Runs inside gdb (gdb -x): stops at every stapsdt probe of the program and
of each library it loads, and writes what gdb reads there.

Output (the file $XSDT_GDB_OUT), one line per event:
  probe PROVIDER NAME ADDRESS            a probe gdb lists (info probes stap)
  hit PROVIDER NAME ARGC VALUE...        a stop at a probe: $_probe_argc and
                                         each $_probe_argN as an integer, or
                                         error:<gdb's message>
  warning TEXT                           what gdb said about the probes
The inferior is started (run) or continued (a remote target, already
attached) by this script; libraries are followed through gdb's solib events.
"""
import os

import gdb

out = open(os.environ["XSDT_GDB_OUT"], "w")
known = {}        # address -> (provider, name)
breakpoints = set()  # "provider:name" with a breakpoint


def emit(line):
    out.write(line + "\n")
    out.flush()


def scan_probes():
    """Adds the probes gdb lists now (new objfiles bring more) and sets one
    breakpoint per provider:name not yet covered."""
    text = gdb.execute("info probes stap", to_string=True)
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 5 or fields[0] != "stap":
            continue
        provider, name, where = fields[1], fields[2], int(fields[3], 16)
        if where not in known:
            known[where] = (provider, name)
            emit(f"probe {provider} {name} {where:#x}")
        key = f"{provider}:{name}"
        if key not in breakpoints:
            breakpoints.add(key)
            gdb.Breakpoint(f"-probe-stap {key}", internal=True)


def current_pc():
    """The stopped thread's pc, read from its register."""
    return int(gdb.parse_and_eval("(unsigned long) $pc"))


def read_hit():
    pc = current_pc()
    provider, name = known.get(pc, ("?", f"{pc:#x}"))
    try:
        argc = int(gdb.parse_and_eval("$_probe_argc"))
    except gdb.error as error:
        emit(f"hit {provider} {name} error:{str(error).replace(' ', '_')}")
        return
    values = []
    for i in range(argc):
        try:
            values.append(str(int(gdb.parse_and_eval(f"$_probe_arg{i}"))))
        except gdb.error as error:
            values.append("error:" + str(error).replace(" ", "_"))
    emit(" ".join(["hit", provider, name, str(argc)] + values))


def exited(event):
    code = getattr(event, "exit_code", None)
    emit(f"exit {code if code is not None else '?'}")


gdb.events.exited.connect(exited)
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set breakpoint pending on")
gdb.execute("set stop-on-solib-events 1")
remote = os.environ.get("XSDT_GDB_REMOTE")
scan_probes()
if remote:
    gdb.execute(f"target remote {remote}", to_string=True)
    command = "continue"
else:
    command = "run"
while True:
    try:
        gdb.execute(command, to_string=True)
    except gdb.error as error:
        emit(f"warning {error}")
        break
    command = "continue"
    inferior = gdb.selected_inferior()
    if inferior.pid == 0 or not inferior.threads():
        break  # the inferior exited
    # A solib event (a library came or went) or a probe breakpoint. The pc
    # comes from the register: a frame may not unwind where a solib event
    # stops (s390x's ld.so: "PC not saved").
    scan_probes()
    pc = current_pc()
    if pc in known:
        read_hit()
out.close()
