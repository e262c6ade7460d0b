"""Generated lit tests: the instances of a template, for a directory whose
tests are one pattern with a few values changed (a consumer, a program, an
argument count).

A directory that uses it has an instances.toml: each table names a template
beside it (<table>.test.in), the name of each test it makes (`test`, with
@key@ placeholders) and the values of each instance (`instances`, a list of
inline tables). A test's script is the template with every @key@ replaced
by the instance's value, its REQUIRES, XFAIL and CHECK lines included; an
instance's `requires` adds a REQUIRES line. The script is written into the
test's output directory and run from there, so that FileCheck %s reads the
CHECK lines of the instance. Hand-written tests of the directory run as
usual; one with the name of an instance is an error, as is a placeholder
an instance leaves without a value.

This module has no lit in it: ci/ci_slice.py reads the same instances
(generated_tests()) to deal the tests to CI's cells by their REQUIRES
lines; template_tests.py is the lit format.
"""
import os
import re
import tomllib

INSTANCES_FILE = "instances.toml"
PLACEHOLDER = re.compile(r"@([A-Za-z][\w-]*)@")


class TemplateError(Exception):
    pass


def instance_text(template_text, values, where):
    """The template with each @key@ replaced by values[key]; a key without a
    value is an error naming where (the test)."""
    missing = sorted({key for key in PLACEHOLDER.findall(template_text) if key not in values})
    if missing:
        raise TemplateError(f"{where}: no value for {', '.join('@' + k + '@' for k in missing)}")
    return PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), template_text)


def generated_tests(directory):
    """{file name: script} of every instance that directory/instances.toml
    lists (empty when there is none)."""
    path = os.path.join(directory, INSTANCES_FILE)
    if not os.path.isfile(path):
        return {}
    with open(path, "rb") as f:
        tables = tomllib.load(f)
    tests = {}
    for template, table in tables.items():
        template_path = os.path.join(directory, f"{template}.test.in")
        if not os.path.isfile(template_path):
            raise TemplateError(f"{path}: [{template}]: no template {template}.test.in")
        if "test" not in table or not table.get("instances"):
            raise TemplateError(f"{path}: [{template}]: needs `test` and `instances`")
        with open(template_path, encoding="utf-8") as f:
            template_text = f.read()
        for values in table["instances"]:
            name = instance_text(table["test"], values, f"{path}: [{template}]")
            if name in tests:
                raise TemplateError(f"{path}: two instances make {name}")
            script = instance_text(template_text, values, f"{path}: {name}")
            if "requires" in values:
                script += f"REQUIRES: {values['requires']}\n"
            tests[name] = script
    return tests
