"""conformance/consumers/live.py: each live session traces its own copies
of the programs, never a file another tracer may attach at the same time."""
import os
import sys
import tempfile
import unittest
import unittest.mock

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


class KernelRefuses(unittest.TestCase):
    """An arch whose arch.json says it runs on this machine is asked: its
    sysroot's loader is executed, and a kernel that refuses it makes the
    live tracers not applicable, with the kernel's words."""

    def facts_with_loader(self, tmp, content, mode=0o755):
        sysroot = os.path.join(tmp, "sysroot")
        os.makedirs(os.path.join(sysroot, "lib"))
        loader = os.path.join(sysroot, "lib", "ld-linux.so.2")
        with open(loader, "wb") as f:
            f.write(content)
        os.chmod(loader, mode)
        return {"emulator": ["qemu-fake", "-L", sysroot],
                "runs_on": [live.consumers.host_arch()]}

    def ask(self, facts):
        live._refusals.clear()
        with unittest.mock.patch.object(live, "_arch_facts", lambda arch: facts):
            return live.runs_natively("fake32"), live.kernel_refuses("fake32")

    def test_a_loader_the_kernel_cannot_execute_is_a_refusal(self):
        with tempfile.TemporaryDirectory() as tmp:
            # Not an executable format: the kernel answers ENOEXEC.
            why, refused = self.ask(self.facts_with_loader(tmp, b"\x7fELF garbage"))
        self.assertIn("Exec format error", refused)
        self.assertIn("refuses fake32 programs", why)

    def test_a_loader_that_runs_keeps_the_arch_native(self):
        with tempfile.TemporaryDirectory() as tmp:
            why, refused = self.ask(self.facts_with_loader(tmp, b"#!/bin/sh\nexit 0\n"))
        self.assertIsNone(refused)
        self.assertIsNone(why)

    def test_an_arch_that_does_not_claim_this_machine_is_emulated(self):
        why, _ = self.ask({"emulator": ["qemu-fake", "-L", "/nonexistent"], "runs_on": []})
        self.assertIn("qemu-user has no uprobes", why)


if __name__ == "__main__":
    unittest.main()
