"""Reading results.json (schema 2, written by ci/matrix.py).

Shared by ci/report.py and ci/toolchain-gate, so that both agree on what a
good, a bad and a not-applicable outcome is and on the order of the axes.

Schema 2, the parts the readers use:

    {"schema": 2, "ok": bool, "wall_seconds": float, "started_at": str,
     "tools": {...}, "source": {"commit", "dirty"},
     "cells": {"<impl>.<arch>.<compiler>.O2.pie": {
         "implementation": "xsdt", "arch", "compiler", "compiler_version",
         "opt": "-O2", "link": "pie", "toolchain",
         "status": "ok" | "failed" | "missing",
         "missing": [...], "packages": "...",            (missing cells)
         "counts": {code: n}, "ran", "sites_verified", "args_verified",
         "tests": [{"name", "code", "elapsed", "detail"?}],
         "cell_failures": [{"name", "code", "detail"}],
         "lit_warnings": [...]}}}

A detail is {"summary", "lines", "findings"} (ci/failure_detail.py).
"""
import json

SCHEMA = 2
# lit result codes. XFAIL is an expected failure that did fail: as good as
# a pass. UNSUPPORTED means the test does not apply to the cell.
GOOD_CODES = {"PASS", "XFAIL"}
BAD_CODES = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
NOT_APPLICABLE_CODES = {"UNSUPPORTED"}

# Arches have no fixed order: a port adds one (arches/<arch>/arch.json), and
# rows sort by its name.
OPT_ORDER = ["-O0", "-O1", "-O2", "-O3", "-Os", "-Oz"]
LINK_ORDER = ["pie", "nopie", "static", "shared"]


class ResultsError(Exception):
    """A results file that cannot be read as schema 2; the message says why."""


def load_results(path):
    try:
        with open(path) as f:
            document = json.load(f)
    except OSError as error:
        raise ResultsError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path}: not JSON: {error}") from None
    return check_results(document, path)


def check_results(document, origin="results"):
    if not isinstance(document, dict):
        raise ResultsError(f"{origin}: not a results.json object")
    schema = document.get("schema")
    if schema is None:
        raise ResultsError(
            f"{origin}: schema 1 results.json (per-cell counts only, no per-test "
            "outcomes); re-run ci/matrix.py to get schema 2")
    if schema != SCHEMA:
        raise ResultsError(f"{origin}: schema {schema}, this tool reads schema {SCHEMA}")
    if not isinstance(document.get("cells"), dict):
        raise ResultsError(f"{origin}: no \"cells\" object")
    for key, cell in document["cells"].items():
        for field in ("implementation", "arch", "compiler", "opt", "link", "status"):
            if field not in cell:
                raise ResultsError(f"{origin}: cell {key} has no \"{field}\"")
    return document


def ordered(value, order):
    """Sort key: known values in their order, unknown ones after, by name."""
    return (order.index(value), "") if value in order else (len(order), value)


def compiler_family(compiler):
    """"clang-14" -> "clang", "gcc-12" -> "gcc"."""
    return compiler.split("-")[0]


def compiler_sort_key(compiler):
    family, _, version = compiler.partition("-")
    return (family, int(version) if version.isdigit() else 0, compiler)


def row_key(cell):
    """The report's rows: implementation x arch x compiler."""
    return (cell["implementation"], cell["arch"], cell["compiler"])


def row_sort_key(row):
    implementation, arch, compiler = row
    return (implementation, arch, compiler_sort_key(compiler))


def column_key(cell):
    """The report's columns: link mode x opt level."""
    return (cell["link"], cell["opt"])


def column_sort_key(column):
    link, opt = column
    return (ordered(link, LINK_ORDER), ordered(opt, OPT_ORDER))


def failing_tests(cell):
    """The cell's bad tests, then its whole-cell failures (oracle 0 args, ...)."""
    return ([t for t in cell.get("tests", []) if t["code"] in BAD_CODES]
            + list(cell.get("cell_failures", [])))
