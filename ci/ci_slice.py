"""CI's slice of the conformance suite (ci/matrix.py --preset ctest): which
cells each toolchain runs and which tests each of those cells runs.

The README's main job runs every test in every cell of the default matrix;
CI cannot (docs/suite.md, "CI's slice"). The slice keeps every test, every
opt level and every link mode on every arch, and spends the time where the
outcome can change:

- Cells: each compiler of an arch (and variant) runs -O2 PIE; one of them
  runs one other opt level (PIE), and one runs one other link mode (-O2).
  Both turn with the arch's place in the list, so that over the arches
  every compiler meets every opt level and every link mode.
- The checks of what the compiler emits and what the program then does
  (catalog/, sites/, specs/, values/, run/) run in every cell.
- The checks of the SDT(9) API's compile-time forms (sdt-api/) run once
  per compiler, in its -O2 PIE cell.
- Every other test (what the headers accept, compat/; consumers, the
  runtime, jump sites, notes, faults, the dtrace generator, link/) runs
  once per arch and variant, in one of the arch's -O2 cells (a compiler
  and a link mode; compat/ in a PIE one), turned the same way. compat/ was
  per compiler until 2026-12-02 (its 7-standard sweeps were the largest
  per-compiler cost); CI's toolchain gate ran it for its candidate on
  every arch until the same day.

A reference implementation runs -O2 PIE only (its known bugs are judged
there), by one compiler of each arch variant, turning with the arch: the
catalog/ and every other test its adapter names as a known bug, the tests
whose outcome can fail CI for a reference (its other failures are findings,
shown in the matrix, never a failure; every test in that cell until
2026-12-02: over 80 % of the references' CI time; the README's main job
still runs every test in every reference cell). A compiler outside the
slice's list (--slice-compilers; e.g. a candidate compiler run alone) runs
every cell of the slice with every test. Test names are lit's ("<suite> :: <path>");
the filters are regexes that lit searches in them.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "lit-tests", "tools"))
from template_instances import INSTANCES_FILE, generated_tests  # noqa: E402

OPTS = ["-O0", "-O1", "-O2", "-O3", "-Os"]
LINKS = ["pie", "nopie", "static", "shared"]
CATALOG_DIR = "catalog"
EVERY_CELL_DIRS = (CATALOG_DIR, "sites", "specs", "values", "run")
PER_COMPILER_DIRS = ("sdt-api",)
# The tests whose checks no link mode changes: what the headers accept and
# emit at compile time, and what xsdt-dtrace makes of a provider file.
LINK_INDEPENDENT_DIRS = ("compat", "dtrace", "sdt-api")
SHARED_SLOT_OPT = "-O2"
# lit's own directories that hold no conformance test.
NOT_TESTS = ("tools",)


def cells(role, compiler_index=None, compiler_count=1, turn=0):
    """The (opt, link) pairs the slice runs for an implementation's role and
    one compiler of an arch (compiler_index of compiler_count; None: a
    compiler outside the slice, which runs them all)."""
    base = (SHARED_SLOT_OPT, "pie")
    if role != "subject":
        # A reference implementation: -O2 PIE by one compiler of each arch
        # variant, turning with the arch (since 2026-12-02; by each compiler
        # before), so that over the arches each compiler meets it on half
        # of them; the README's main job runs it with both everywhere.
        if compiler_index is None or turn % compiler_count == compiler_index:
            return [base]
        return []
    opts = [opt for opt in OPTS if opt != SHARED_SLOT_OPT]
    links = [link for link in LINKS if link != "pie"]
    if compiler_index is None:
        return [base] + [(opt, "pie") for opt in opts] + \
            [(SHARED_SLOT_OPT, link) for link in links]
    # One other opt level per arch variant, run by one of its compilers:
    # the compiler turns with the arch, and the level every time each
    # compiler has had its turn, so that over the arches every compiler
    # meets every level (the README's main job runs every level everywhere).
    # The link modes dealt out among the compilers.
    other = []
    if turn % compiler_count == compiler_index:
        other = [(opts[(turn // compiler_count) % len(opts)], "pie")]
    # One other link mode per arch variant (since 2026-12-02; each mode on
    # every arch before), run by one compiler: the compiler turns every
    # len(links) arches and the mode with the arch and with that count, so
    # that over the arches every compiler meets every mode, and a shared
    # test, which takes the link slot on every len(links)-th arch
    # (slot_of), meets another mode each time.
    dealt = []
    if (turn // len(links)) % compiler_count == compiler_index:
        dealt = [(SHARED_SLOT_OPT, links[(turn + turn // len(links)) % len(links)])]
    return [base] + other + dealt


def arch_variants(repo):
    """Every (arch, variant) of repo/arches in a fixed order: arches by name,
    each followed by its variants by name. Its index turns the slots."""
    import toolchains  # ci/: reads arch.json and its variants
    return [(a["arch"], v) for a in toolchains.load_arches(repo)
            for v in [""] + sorted(a["variants"])]


def shared_tests(suite_dir):
    """The tests that run once per arch variant: {path under the suite:
    script}, the instances of a directory's templates among them (lit-
    tests/tools/template_instances.py)."""
    kept = EVERY_CELL_DIRS + PER_COMPILER_DIRS + NOT_TESTS
    found = {}
    for path in glob.glob(os.path.join(suite_dir, "**", "*.test"), recursive=True):
        relative = os.path.relpath(path, suite_dir)
        if relative.split(os.sep)[0] not in kept:
            with open(path, encoding="utf-8") as f:
                found[relative.replace(os.sep, "/")] = f.read()
    for path in glob.glob(os.path.join(suite_dir, "**", INSTANCES_FILE), recursive=True):
        directory = os.path.dirname(path)
        relative = os.path.relpath(directory, suite_dir)
        if relative.split(os.sep)[0] not in kept:
            for name, script in generated_tests(directory).items():
                found[os.path.join(relative, name).replace(os.sep, "/")] = script
    return dict(sorted(found.items()))


_DIRECTIVE = re.compile(r"^\W*(REQUIRES|UNSUPPORTED):(.*)$", re.M)


_AXIS_FEATURE = re.compile(r"^(link|compiler|opt)-[\w-]+$")
_BOOLEAN_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[\w.+-]+)")


def _axis_value(item, features):
    """True or False for a directive item made only of these axes' features
    (link-pie || link-shared, !compiler-clang), None for any other item:
    it may hold on any slot. lit's grammar: ||, &&, ! and parentheses."""
    tokens = _BOOLEAN_TOKEN.findall(item)
    if "".join(tokens) != item.replace(" ", "") or not all(
            t in ("||", "&&", "!", "(", ")") or _AXIS_FEATURE.match(t) for t in tokens):
        return None
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else None

    def take():
        position[0] += 1
        return tokens[position[0] - 1]

    def either():
        value = both()
        while peek() == "||":
            take()
            value = both() or value
        return value

    def both():
        value = negation()
        while peek() == "&&":
            take()
            value = negation() and value
        return value

    def negation():
        token = take()
        if token == "!":
            return not negation()
        if token == "(":
            value = either()
            take()  # ")"
            return value
        return token in features

    try:
        value = either()
    except IndexError:
        return None
    return value if position[0] == len(tokens) else None


def slot_allowed(text, family, link):
    """Whether a test's REQUIRES and UNSUPPORTED lines let it run in a slot
    (compiler family, link mode) at the slots' opt level. Only the items
    made of these axes' features are read (link-shared, compiler-gcc,
    opt-O0 || opt-O2); any other item may hold on any slot."""
    features = {f"link-{link}", f"compiler-{family}", f"opt{SHARED_SLOT_OPT}"}
    for kind, items in _DIRECTIVE.findall(text):
        for item in (i.strip() for i in items.split(",")):
            value = _axis_value(item, features)
            if value is None:
                continue
            if kind == "REQUIRES" and not value:
                return False
            if kind == "UNSUPPORTED" and value:
                return False
    return True


def slot_of(test, text, turn, slots, families):
    """The slot (compiler index, link) where one shared test runs: its
    place in the list turned by the arch's, over the slots its directives
    allow (all of them when none is); a link-independent test in a PIE
    slot. families: the compiler family of each compiler index."""
    allowed = [s for s in slots if slot_allowed(text, families[s[0]], s[1])] or slots
    if test.split("/")[0] in LINK_INDEPENDENT_DIRS:
        allowed = [s for s in allowed if s[1] == "pie"] or allowed
    return allowed[turn % len(allowed)]


def cell_filter(suite_dir, role, opt, link, compiler_index, compiler_families, rotation,
                known_bugs=()):
    """The lit --filter of one cell of the slice.

    compiler_index: the cell's compiler's place in the slice's compilers
    (compiler_families, e.g. ["gcc", "clang"]), or None when it is not one
    of them (it then runs every test of its cells); rotation: the arch
    variant's place in arch_variants(); known_bugs: a reference's known-bug
    entries ("catalog/x.test gcc-*", conformance/impls/*.h)."""
    if compiler_index is None:
        return None
    if role != "subject":
        named = sorted({re.escape(known.split()[0]) + "$" for known in known_bugs})
        return f":: (?:{'|'.join([CATALOG_DIR + '/'] + named)})"
    dirs = list(EVERY_CELL_DIRS)
    if (opt, link) == (SHARED_SLOT_OPT, "pie"):
        dirs += PER_COMPILER_DIRS
    chosen = []
    if opt == SHARED_SLOT_OPT:
        count = len(compiler_families)
        slots = [(i, l) for i in range(count)
                 for o, l in cells(role, i, count, rotation) if o == SHARED_SLOT_OPT]
        for index, (test, text) in enumerate(shared_tests(suite_dir).items()):
            if slot_of(test, text, index + rotation, slots,
                       compiler_families) == (compiler_index, link):
                chosen.append(re.escape(test) + "$")
    parts = [f"(?:{'|'.join(dirs)})/"] + chosen
    return f":: (?:{'|'.join(parts)})"


def and_filters(*regexes):
    """One regex that lit's search matches where every given one does."""
    present = [r for r in regexes if r]
    if len(present) < 2:
        return present[0] if present else None
    return "^" + "".join(f"(?=.*?(?:{r}))" for r in present)
