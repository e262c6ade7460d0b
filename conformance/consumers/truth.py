"""The value oracle's log (ORACLE_LOG, conformance/oracle/oracle.c): what
the source passed at each probe, for a tracer outside the process.

  provider PROVIDER                  a provider of the program under test
  expect PROVIDER NAME ARGC KIND:SIZE:BITS...

KIND i: an integer or pointer, BITS its value (sign-extended to 64 bits when
its type is signed); f: a float or double, BITS its IEEE bits. A tracer's
value equals the source's when both agree modulo 2^(8*SIZE).
"""
import collections


class Value:
    def __init__(self, text):
        kind, size, bits = text.split(":")
        self.kind, self.size, self.bits = kind, int(size), int(bits, 16)

    def matches(self, number):
        """Whether a tracer's integer (any sign) is this value's bits."""
        mask = (1 << (8 * self.size)) - 1
        return number & mask == self.bits & mask

    def __str__(self):
        mask = (1 << (8 * self.size)) - 1
        what = "float bits" if self.kind == "f" else "value"
        return f"{self.size}-byte {what} {self.bits & mask:#x}"


def read_log(path):
    """({(provider, name): [[Value, ...] per hit]}, {providers under test})."""
    expected = collections.defaultdict(list)
    providers = set()
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[0] == "provider":
                providers.add(words[1])
                continue
            if len(words) < 4 or words[0] != "expect":
                raise ValueError(f"{path}: not an oracle log line: {line!r}")
            provider, name, argc = words[1], words[2], int(words[3])
            values = [Value(w) for w in words[4:]]
            if len(values) != argc:
                raise ValueError(f"{path}: {argc} arguments but {len(values)} values: {line!r}")
            expected[(provider, name)].append(values)
            providers.add(provider)
    return expected, providers


def compare(expected, observed, limits=()):
    """(findings, agreed, at_limits): where the hits a tracer read,
    {(provider, name): [[int or error text, ...] per hit]}, differ from the
    oracle's truth (strings), the number of arguments that agree, and the
    differences that one of the consumer's known limits explains (strings;
    each limit is a function (Value, reading) -> why or None, the reading an
    int, or a string saying why the tracer did not read the argument). Hits
    of one probe are matched as multisets (threads may hit in any order)."""
    findings, agreed, at_limits = [], 0, []
    for key in sorted(set(expected) | set(observed)):
        probe = f"{key[0]}:{key[1]}"
        want, got = expected.get(key, []), observed.get(key, [])
        if len(want) != len(got):
            findings.append(f"{probe}: {len(got)} hits read, the source made {len(want)}")
            continue
        remaining = list(got)
        for values in want:
            match = next((hit for hit in remaining if len(hit) == len(values) and all(
                isinstance(n, int) and v.matches(n) for v, n in zip(values, hit))), None)
            if match is not None:
                remaining.remove(match)
                agreed += len(values)
                continue
            # Report against the closest hit: the first whose arguments the
            # tracer read all agree (the others it did not read), else the
            # first with this many arguments.
            hit = next((h for h in remaining if len(h) == len(values) and all(
                not isinstance(n, int) or v.matches(n) for v, n in zip(values, h))),
                next((h for h in remaining if len(h) == len(values)),
                     remaining[0] if remaining else []))
            if hit in remaining:
                remaining.remove(hit)
            if len(hit) != len(values):
                findings.append(f"{probe}: {len(hit)} of {len(values)} arguments read")
                continue
            for i, (v, n) in enumerate(zip(values, hit)):
                if not isinstance(n, int):
                    # A known limit may explain an argument the tracer did
                    # not read (bpftrace's arg6, perf's immediates).
                    why = next((w for w in (limit(v, n) for limit in limits) if w), None)
                    text = f"{probe} arg{i}: not read ({n}); the source passed {v}"
                    if why:
                        at_limits.append(f"{text}: {why}")
                    else:
                        findings.append(text)
                elif not v.matches(n):
                    why = next((w for w in (limit(v, n) for limit in limits) if w), None)
                    text = f"{probe} arg{i}: read {n:#x}; the source passed {v}"
                    if why:
                        at_limits.append(f"{text}: {why}")
                    else:
                        findings.append(text)
                else:
                    agreed += 1
    return findings, agreed, at_limits
