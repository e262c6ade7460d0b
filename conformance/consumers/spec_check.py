"""Compares what a static consumer parsed at each site with the note's spec
(as readelf prints it) and with the probes the source defines (the oracle's
log): every probe listed, every argument there, with the spec's size, sign
and location in the consumer's own spelling."""
import notes as notes_module


def _site_of(sites, note):
    """The consumer's reading of one note: same probe and address, or, for
    a consumer that does not say where (bpftrace), the probe's only one."""
    mine = [s for s in sites if s.key == note.key]
    exact = [s for s in mine if s.address == note.address]
    if exact:
        return exact[0]
    return mine[0] if mine and all(s.address is None for s in mine) else None


def compare(consumer, paths, sites, expected):
    """(findings, agreed, at_limits, unchecked, specified)."""
    findings, at_limits, agreed, unchecked, specified = [], [], 0, 0, 0
    listed = {s.key for s in sites}
    for key in sorted(expected):
        if key not in listed:
            findings.append(f"{key[0]}:{key[1]}: not listed by {consumer.NAME}")
    note_list = [n for path in paths for n in notes_module.read(path) if n.key in expected]
    for note in note_list:
        probe = f"{note.key[0]}:{note.key[1]}@{note.address:#x}"
        argc = len(expected[note.key][0])
        if len(note.args) != argc:
            findings.append(f"{probe}: the note has {len(note.args)} specs; the source "
                            f"passed {argc} arguments")
            continue
        specified += argc
        site = _site_of(sites, note)
        if site is None:
            if note.key in listed:
                findings.append(f"{probe}: site not listed by {consumer.NAME}")
            continue
        for index, spec in enumerate(note.args):
            reading = site.args if isinstance(site.args, str) else (
                site.args[index] if index < len(site.args) else None)
            problem = _differs(consumer, spec, reading)
            if problem is None:
                agreed += 1
                if consumer.render(spec) is None:
                    unchecked += 1
                continue
            text = f"{probe} arg{index} `{spec.text}`: {problem}"
            why = next((w for w in (limit(spec, index, reading)
                                    for limit in consumer.KNOWN_LIMITS) if w), None)
            (at_limits if why else findings).append(f"{text}: {why}" if why else text)
    return findings, agreed, at_limits, unchecked, specified


def _differs(consumer, spec, reading):
    """None when the reading is the spec; else what differs."""
    if reading is None:
        return "not parsed"
    if isinstance(reading, str):
        return f"not parsed ({reading})"
    size, signed, location = reading
    want = consumer.render(spec)
    if spec.size is not None and size is not None and size != spec.size:
        return f"read as {size} bytes"
    if signed is not None and signed != spec.signed:
        return f"read as {'signed' if signed else 'unsigned'}"
    if want is not None and location is not None and location != want:
        return f"read at `{location}`, not `{want}`"
    return None
