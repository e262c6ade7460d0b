"""binutils' readelf as a consumer: lists the notes (readelf -n). Its
reading is the text of each spec, so only the listing and the count and
sizes of the specs are checked (against the source's arguments)."""
import shutil

import notes
import static

NAME = "readelf"
PACKAGE = "binutils"
STATIC = True
LIMIT_MARKERS = []
KNOWN_LIMITS = []


def executable(emulated):
    return shutil.which("readelf")


def supports(arch):
    return None


def render(spec):
    return spec.location


def sites(paths, timeout):
    found = []
    for path in paths:
        for note in notes.read(path):
            found.append(static.Site(note.provider, note.name, note.address,
                                     [(a.size, a.signed, a.location) for a in note.args]))
    return found, ""
