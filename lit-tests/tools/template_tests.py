"""The lit format of a directory with generated tests: its hand-written
tests and the instances of its templates (template_instances.py)."""
import os

import lit.formats
import lit.Test

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
        for filename in sorted(os.listdir(source_dir)):
            path = os.path.join(source_dir, filename)
            if (filename.startswith(".") or os.path.isdir(path)
                    or os.path.splitext(filename)[1] not in localConfig.suffixes
                    or filename in localConfig.excludes):
                continue
            if filename in generated:
                raise TemplateError(f"{path}: also an instance of {INSTANCES_FILE}")
            yield lit.Test.Test(testSuite, path_in_suite + (filename,), localConfig)
        for filename, text in sorted(generated.items()):
            yield InstanceTest(testSuite, path_in_suite + (filename,), localConfig, text)
