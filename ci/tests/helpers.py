"""Shared by the ci/ unit tests: the ci/ modules on sys.path, fixtures."""
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
CI_DIR = os.path.dirname(TESTS_DIR)
FIXTURES = os.path.join(TESTS_DIR, "fixtures")
if CI_DIR not in sys.path:
    sys.path.insert(0, CI_DIR)


def fixture_path(name):
    return os.path.join(FIXTURES, name)


def read_fixture_text(name):
    with open(fixture_path(name), encoding="utf-8") as f:
        return f.read()


def load_fixture(name="results-clang-14.json"):
    """A fresh copy each time: tests doctor it."""
    with open(fixture_path(name)) as f:
        return copy.deepcopy(json.load(f))


def load_script(file_name, module_name):
    """A ci/ script whose file name is not a module name (toolchain-gate,
    merge-results.py), loaded as a module."""
    path = os.path.join(CI_DIR, file_name)
    loader = importlib.machinery.SourceFileLoader(module_name, path)
    spec = importlib.util.spec_from_loader(module_name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load_gate():
    return load_script("toolchain-gate", "toolchain_gate")


def write_documents(directory, named_documents):
    """Writes each (file name, results document) as JSON in directory and
    returns the paths; a document given as a str is a path, used as is."""
    paths = []
    for name, document in named_documents:
        path = os.path.join(directory, name)
        if isinstance(document, str):
            path = document
        else:
            with open(path, "w") as f:
                json.dump(document, f)
        paths.append(path)
    return paths


def find_test(document, cell_key, test_name):
    for test in document["cells"][cell_key]["tests"]:
        if test["name"] == test_name:
            return test
    raise KeyError(f"{cell_key}: no test {test_name}")


def as_compiler(document, compiler, version):
    """The same results as if another compiler version had produced them."""
    renamed = {}
    for key, cell in document["cells"].items():
        cell["compiler"] = compiler
        if cell.get("compiler_version"):
            cell["compiler_version"] = version
        arch, _, rest = key.split(".", 2)
        renamed[f"{arch}.{compiler}.{rest}"] = cell
    document["cells"] = renamed
    return document
