"""The inspector tests that belong to one arch, kept in its directory.

A test of one arch's operand grammar or register table through the command
line (parse-arg --arch <arch>) is part of that arch's port: it lives in
arches/<arch>/tests/inspect/*.test, beside the arch's unit tests, and moves
or goes with the arch. This format runs them in this suite as
arches/<arch>/<name>.test (lit --filter and the reports see the arch), with
the suite's configuration and substitutions; %S is their own directory.
"""
import glob
import os

import lit.Test
import lit.formats


class ArchTest(lit.Test.Test):
    """A test whose script lives under arches/<arch>/tests/inspect."""

    def __init__(self, suite, path_in_suite, config, source):
        super().__init__(suite, path_in_suite, config)
        self.source = source

    def getSourcePath(self):
        return self.source


class ArchTests(lit.formats.ShTest):
    def __init__(self, arches_dir):
        super().__init__(execute_external=False)
        self.arches_dir = arches_dir

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        pattern = os.path.join(self.arches_dir, "*", "tests", "inspect", "*.test")
        for source in sorted(glob.glob(pattern)):
            arch = os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(source))))
            yield ArchTest(testSuite, path_in_suite + (arch, os.path.basename(source)),
                           localConfig, source)
