"""The SDT notes of ELF files as binutils' readelf prints them: the spec
text each consumer is compared with, read by a tool other than ours."""
import re
import subprocess

SPEC = re.compile(r"^(-?)(\d+)(f?)@(.+)$")


class Arg:
    """One argument spec, SIZE@LOCATION with an optional sign and f."""

    def __init__(self, text):
        self.text = text
        match = SPEC.match(text)
        if match:
            self.signed = match.group(1) == "-"
            self.size = int(match.group(2))
            self.float = match.group(3) == "f"
            self.location = match.group(4)
        else:  # A spec without a size (SDT v1): gdb's signed word.
            self.signed, self.size, self.float, self.location = True, None, False, text


class Probe:
    def __init__(self, path, provider, name, address, args):
        self.path, self.provider, self.name = path, provider, name
        self.address, self.args = address, args

    @property
    def key(self):
        return (self.provider, self.name)


# Specs are separated by spaces, but an ARM memory operand has one inside
# its brackets: `-8@[r3, #0] 1@r2` is two specs.
ARG_WORD = re.compile(r"[^\s\[]*\[[^\]]*\]\S*|\S+")


def split_args(text):
    return ARG_WORD.findall(text)


def read(path, readelf="readelf"):
    """Every stapsdt note of PATH, in file order; raises OSError or
    subprocess.CalledProcessError when readelf cannot read it."""
    out = subprocess.run([readelf, "-n", "--wide", path], capture_output=True, text=True,
                         check=True).stdout
    return _by_note(out, path)


def _by_note(out, path):
    """One Probe per NT_STAPSDT block of readelf's output (a probe without
    arguments has no Arguments: line)."""
    probes = []
    for block in out.split("NT_STAPSDT")[1:]:
        fields = {}
        for line in block.replace("\t", "\n").splitlines():
            line = line.strip()
            for key in ("Provider", "Name", "Location", "Arguments"):
                if line.startswith(key + ":") and key not in fields:
                    fields[key] = line.split(":", 1)[1].strip()
        if "Provider" not in fields or "Location" not in fields:
            continue
        address = int(fields["Location"].split()[0].rstrip(","), 16)
        args = [Arg(a) for a in split_args(fields.get("Arguments", ""))]
        probes.append(Probe(path, fields["Provider"], fields.get("Name", ""), address, args))
    return probes


def file_offset_to_address(path, offset, readelf="readelf"):
    """The virtual address of a file offset, through PATH's LOAD segments
    (perf names a uprobe site by its file offset); the offset itself when no
    segment holds it."""
    out = subprocess.run([readelf, "-lW", path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        words = line.split()
        if words[:1] == ["LOAD"]:
            start, vaddr, size = int(words[1], 16), int(words[2], 16), int(words[4], 16)
            if start <= offset < start + size:
                return offset - start + vaddr
    return offset
