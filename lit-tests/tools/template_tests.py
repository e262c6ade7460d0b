"""The lit format of a directory with generated tests: its hand-written
tests and the instances of its templates (template_instances.py)."""
import os

import lit.formats
import lit.Test

from corpus_tests import handwritten_tests
from template_instances import INSTANCES_FILE, TemplateError, generated_tests


class InstanceTest(lit.Test.Test):
    """A generated test: its script is written where the test's output goes."""

    def __init__(self, suite, path_in_suite, config, text):
        super().__init__(suite, path_in_suite, config)
        self.text = text

    def getSourcePath(self):
        path = self.getExecPath()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        current = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                current = f.read()
        if current != self.text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.text)
        return path


class TemplateTests(lit.formats.ShTest):
    def __init__(self):
        super().__init__(execute_external=True)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        source_dir = testSuite.getSourcePath(path_in_suite)
        generated = generated_tests(source_dir)
        for filename in handwritten_tests(testSuite, path_in_suite, localConfig):
            if filename in generated:
                raise TemplateError(f"{os.path.join(source_dir, filename)}: also an "
                                    f"instance of {INSTANCES_FILE}")
            yield lit.Test.Test(testSuite, path_in_suite + (filename,), localConfig)
        for filename, text in sorted(generated.items()):
            yield InstanceTest(testSuite, path_in_suite + (filename,), localConfig, text)
