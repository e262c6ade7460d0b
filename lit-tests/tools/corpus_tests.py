"""Generated lit tests: one per corpus program, for the checks that are the
same for every program.

A directory whose checks are mechanical (sites/, specs/, run/) names a
template in its lit.local.cfg: a lit test script in which %program stands
for a program of conformance/corpus/programs.toml. The format yields
<dir>/<program>.test for every program, named as a hand-written test would
be (reports and lit --filter see no difference), and runs the template with
%program replaced. A hand-written <dir>/<program>.test replaces the
generated one, for a program that needs other steps; other hand-written
tests of the directory run as usual. A program's `requires` and
`unsupported` (lit boolean expressions over the cell's features) make its
generated tests UNSUPPORTED where they do not hold, as REQUIRES and
UNSUPPORTED lines would.
"""
import os

import lit.formats
import lit.Test
import lit.TestRunner
from lit.BooleanExpression import BooleanExpression


def handwritten_tests(test_suite, path_in_suite, local_config):
    """The file names of the directory's own tests, as lit's ShTest finds
    them: its suffixes, not hidden, not excluded, not directories."""
    source_dir = test_suite.getSourcePath(path_in_suite)
    for filename in sorted(os.listdir(source_dir)):
        path = os.path.join(source_dir, filename)
        if (filename.startswith(".") or os.path.isdir(path)
                or os.path.splitext(filename)[1] not in local_config.suffixes
                or filename in local_config.excludes):
            continue
        yield filename


class ProgramTest(lit.Test.Test):
    """A generated test: its script is the template."""

    def __init__(self, suite, path_in_suite, config, template, program):
        super().__init__(suite, path_in_suite, config)
        self.template = template
        self.program = program

    def getSourcePath(self):
        return self.template


class CorpusProgramTests(lit.formats.ShTest):
    def __init__(self, template):
        super().__init__(execute_external=True)
        self.template = template

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        handwritten = set()
        for filename in handwritten_tests(testSuite, path_in_suite, localConfig):
            handwritten.add(filename)
            yield lit.Test.Test(testSuite, path_in_suite + (filename,), localConfig)
        for program in sorted(localConfig.corpus_programs):
            filename = f"{program}.test"
            if filename not in handwritten:
                yield ProgramTest(testSuite, path_in_suite + (filename,), localConfig,
                                  self.template, program)

    def execute(self, test, litConfig):
        if not isinstance(test, ProgramTest):
            return super().execute(test, litConfig)
        entry = test.config.corpus_programs[test.program]
        features = test.config.available_features
        requires = entry.get("requires")
        if requires and not BooleanExpression.evaluate(requires, features):
            return lit.Test.Result(
                lit.Test.UNSUPPORTED,
                f"corpus program {test.program} requires: {requires}")
        unsupported = entry.get("unsupported")
        if unsupported and BooleanExpression.evaluate(unsupported, features):
            return lit.Test.Result(
                lit.Test.UNSUPPORTED,
                f"corpus program {test.program} is unsupported with: {unsupported}")
        return lit.TestRunner.executeShTest(test, litConfig, self.execute_external,
                                            [("%program", test.program)])
