"""The known-bug catalog of a matrix run: per implementation and catalog
test, the cells that hit it, and the check that every known bug of a
reference implementation is still hit where its test ran."""
from cell_plan import matches
from cell_run import BAD

CATALOG_PREFIX = "catalog/"

def catalog_summary(cell_documents, impls):
    """Per implementation and catalog test: the cells that hit it (failed),
    passed it, or could not run it. Then the known-bug check: every known
    bug of a reference adapter must be hit where its test ran with a
    matching compiler. Returns (catalog, problems)."""
    catalog = {}
    # The catalog's tests, and any other test that an adapter names as a
    # known bug (lit-tests/dtrace: SystemTap's generator).
    known_tests = {known.split()[0] for impl in impls for known in impl["known_bugs"]}
    for key, cell in cell_documents.items():
        for test in cell.get("tests", []):
            if not (test["name"].startswith(CATALOG_PREFIX) or test["name"] in known_tests):
                continue
            entry = catalog.setdefault(cell["implementation"], {}).setdefault(
                test["name"], {"hit": [], "passed": [], "not_applicable": 0})
            if test["code"] in BAD:
                entry["hit"].append(key)
            elif test["code"] in ("PASS", "XFAIL"):
                entry["passed"].append(key)
            else:
                entry["not_applicable"] += 1
    problems = []
    for impl in impls:
        for known in impl["known_bugs"]:
            test, *compilers = known.split()
            ran = [(key, cell) for key, cell in cell_documents.items()
                   if cell["implementation"] == impl["name"]
                   and matches(cell["compiler"], compilers)
                   and any(t["name"] == test and t["code"] not in ("UNSUPPORTED",)
                           for t in cell.get("tests", []))]
            if not ran:
                continue  # not in this run's cells: nothing to say
            hit = [key for key, cell in ran if any(
                t["name"] == test and t["code"] in BAD for t in cell["tests"])]
            if not hit:
                problems.append(
                    f"known bug {test} of {impl['name']} not reproduced: it passed in all "
                    f"{len(ran)} cells where it ran ({', '.join(k for k, _ in ran[:4])}"
                    f"{', ...' if len(ran) > 4 else ''}); the catalog test lost its teeth "
                    f"or {impl['name']} changed")
    return catalog, problems
