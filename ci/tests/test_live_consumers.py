"""conformance/consumers/live.py: each live session traces its own copies
of the programs, never a file another tracer may attach at the same time."""
import os
import sys
import tempfile
import unittest

import helpers

sys.path.insert(0, os.path.join(os.path.dirname(helpers.CI_DIR), "conformance", "consumers"))
import live  # noqa: E402


class PrivateCopies(unittest.TestCase):
    def test_copies_are_new_files_with_their_libraries_beside_them(self):
        with tempfile.TemporaryDirectory() as tmp:
            built = os.path.join(tmp, "built")
            os.makedirs(built)
            for name, text in (("red-zone", "program a"), ("multi-site", "program b"),
                               ("libcorpus.so", "library")):
                with open(os.path.join(built, name), "w") as f:
                    f.write(text)
            # The build cache links one build into several tests' directories.
            other_test = os.path.join(tmp, "other-test")
            os.makedirs(other_test)
            os.link(os.path.join(built, "red-zone"), os.path.join(other_test, "red-zone"))
            work = os.path.join(tmp, "work")
            os.makedirs(work)
            programs = [os.path.join(built, "red-zone"), os.path.join(built, "multi-site"),
                        os.path.join(other_test, "red-zone")]

            copies = live.private_copies(programs, work)

            self.assertEqual([os.path.basename(c) for c in copies],
                             ["red-zone", "multi-site", "red-zone"])
            # One copy per directory: both programs of built/ share it.
            self.assertEqual(os.path.dirname(copies[0]), os.path.dirname(copies[1]))
            self.assertNotEqual(os.path.dirname(copies[0]), os.path.dirname(copies[2]))
            for program, copy in zip(programs, copies):
                self.assertTrue(copy.startswith(work + os.sep))
                self.assertNotEqual(os.stat(program).st_ino, os.stat(copy).st_ino)
                with open(program) as a, open(copy) as b:
                    self.assertEqual(a.read(), b.read())
            self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(copies[0]),
                                                        "libcorpus.so")))


if __name__ == "__main__":
    unittest.main()
