"""The few lines that say why a lit test failed, for results.json and the report.

lit's output for a failing test is the whole RUN script, every command's
output and FileCheck's annotated input dump: often several kilobytes, most of
it noise. extract_detail() keeps what a reader needs, bounded in size:

* the value oracle's failure lines (conformance/oracle/oracle.c prints
  "oracle: MISMATCH corpus:i8 arg0 spec '-1@s10': expected -6 got -8 in CELL"),
  parsed into probe / arg / spec / expected / got;
* xsdt-inspect's check violations ("FILE: corpus:p @0x10: arg0 '-4@g(%rip)':
  needs symbol resolution: ..."), parsed into probe / arg / spec / problem;
* compiler, linker and FileCheck errors ("error:" lines, undefined
  references, backend crashes), with FileCheck's failing pattern and its
  "possible intended match" line;
* otherwise the last lines the commands printed.
"""
import re

# Bounds: results.json holds one detail per failing test of every cell, and
# a broken toolchain can fail every test of 56 cells.
MAX_LINES = 6
MAX_FINDINGS = 8
MAX_LINE_CHARS = 240

ORACLE_MISMATCH = re.compile(
    r"oracle: MISMATCH (?P<probe>\S+:\S+) arg(?P<arg>\d+) spec '(?P<spec>[^']*)': "
    r"expected (?P<expected>.*?) got (?P<got>.*?)(?: in (?P<cell>\S+))?\s*$")
# Every other failure line of the oracle (UNEXPECTED, NO HIT, NEVER HIT,
# RUNTIME, FAIL, "MISMATCH hit ...", "... and N more failures").
ORACLE_PROBLEM = re.compile(
    r"oracle: (?:MISMATCH|UNEXPECTED|NO HIT|NEVER HIT|RUNTIME|FAIL|\.\.\. and \d+ more).*")
# xsdt-inspect check: "<file>: <provider>:<name> @0x<pc>: arg<N> '<spec>': <why>".
INSPECT_SPEC_VIOLATION = re.compile(
    r"(?P<probe>[\w.$-]+:[\w.$-]+) @0x[0-9a-f]+: (?:adjusted pc 0x[0-9a-f]+: )?"
    r"arg(?P<arg>\d+) '(?P<spec>[^']*)': (?P<problem>.*)$")
INSPECT_VIOLATION = re.compile(r"[\w.$-]+:[\w.$-]+ @0x[0-9a-f]+: .*")
# Compiler, assembler, linker, FileCheck and emulator errors.
ERROR_LINE = re.compile(
    r"(\berror:|\bLLVM ERROR\b|undefined reference|cannot find|multiple definition"
    r"|Assertion .* failed|uncaught target signal|Segmentation fault|Aborted"
    r"|Traceback|Exception|Reached timeout)")
FILECHECK_ERROR = re.compile(r"error: [\w-]+: ")  # "error: CHECK-NEXT: expected string..."
EXIT_CODE = re.compile(r"^Exit Code: (-?\d+)", re.M)
# Absolute paths make lines long and differ between machines; the file name
# is what identifies the input.
ABSOLUTE_PATH = re.compile(r"(?<![\w.])(?:/[\w.+-]+)+/([\w.+-]+)")


def shorten(line, limit=MAX_LINE_CHARS):
    line = ABSOLUTE_PATH.sub(r"\1", line.strip())
    if len(line) > limit:
        line = line[:limit - 3] + "..."
    return line


def bounded_finding(match, keys):
    """A finding's fields from a regex match, each at most 120 characters."""
    finding = {key: shorten(match.group(key), 120) for key in keys}
    finding["arg"] = int(match.group("arg"))
    return finding


def split_sections(output):
    """Returns (command output, FileCheck input dump) without lit's script.

    The "Script:" block repeats every command line (with -Werror, file names
    like errors.c, ...), so it would only produce false matches.
    """
    output = re.sub(r"(?ms)^Script:\n--\n.*?^--\n", "", output, count=1)
    dumps = re.findall(r"(?ms)^Input was:\n<<<<<<\n(.*?)^>>>>>>", output)
    rest = re.sub(r"(?ms)^Input was:\n<<<<<<\n.*?^>>>>>>\n?", "", output)
    return rest, "\n".join(dumps)


def extract_detail(code, output):
    """Returns {"summary", "lines", "findings", "exit_code"?} for one test.

    summary is one line for tables; lines are at most MAX_LINES shortened
    lines; findings are the structured oracle mismatches and spec
    violations (probe, arg, spec, expected, got / problem).
    """
    output = output or ""
    rest, dump = split_sections(output)
    findings = []
    lines = []

    def add_line(text):
        text = shorten(text)
        if text and text not in lines:
            lines.append(text)

    # The oracle's lines are in the command output (when the test pipes it
    # to a file) or in FileCheck's dump of its input, behind "  3: ".
    for raw in (rest + "\n" + dump).splitlines():
        match = ORACLE_MISMATCH.search(raw)
        if match:
            finding = bounded_finding(match, ("probe", "spec", "expected", "got"))
            finding["kind"] = "value mismatch"
            if finding not in findings:
                findings.append(finding)
            continue
        problem = ORACLE_PROBLEM.search(raw)
        if problem:
            add_line(problem.group(0))

    previous = ""
    rest_lines = rest.splitlines()
    for index, raw in enumerate(rest_lines):
        spec_violation = INSPECT_SPEC_VIOLATION.search(raw)
        if spec_violation:
            finding = bounded_finding(spec_violation, ("probe", "spec", "problem"))
            finding["kind"] = "spec"
            if finding not in findings:
                findings.append(finding)
        elif INSPECT_VIOLATION.search(raw) and "oracle:" not in raw:
            add_line(INSPECT_VIOLATION.search(raw).group(0))
        elif ERROR_LINE.search(raw):
            add_line(raw)
            # FileCheck: the next line is the pattern that did not match.
            if FILECHECK_ERROR.search(raw) and index + 1 < len(rest_lines):
                add_line("pattern: " + rest_lines[index + 1])
        elif "note: possible intended match here" in previous:
            add_line("closest input: " + raw)
        previous = raw

    exit_code = EXIT_CODE.search(output)
    if code == "XPASS" and not lines and not findings:
        add_line("passed, but the test is marked XFAIL (expected to fail): "
                 "remove the XFAIL or find out why it no longer fails")
    if not lines and not findings:
        # Nothing recognisable: the last lines the commands printed.
        printed = [l for l in rest.splitlines()
                   if l.strip() and l.strip() != "--" and not l.startswith("Command Output")
                   and not EXIT_CODE.match(l)]
        for raw in printed[-MAX_LINES:]:
            add_line(raw)
        if not lines and exit_code:
            add_line(f"exit code {exit_code.group(1)}, no output")
        if not lines:
            add_line(f"{code} without output")

    detail = {"summary": summarize(findings, lines),
              "lines": lines[:MAX_LINES],
              "findings": findings[:MAX_FINDINGS]}
    hidden = max(0, len(lines) - MAX_LINES) + max(0, len(findings) - MAX_FINDINGS)
    if hidden:
        detail["truncated"] = hidden
    if exit_code:
        detail["exit_code"] = int(exit_code.group(1))
    return detail


def describe_finding(finding):
    where = f"{finding['probe']} arg{finding['arg']} spec '{finding['spec']}'"
    if finding.get("kind") == "value mismatch":
        return f"{where}: expected {finding['expected']}, got {finding['got']}"
    return f"{where}: {finding['problem']}"


def summarize(findings, lines):
    if findings:
        text = describe_finding(findings[0])
        if len(findings) > 1:
            text += f" (+{len(findings) - 1} more)"
        return shorten(text)
    return lines[0] if lines else ""
