"""ci/arch_facts.py: what the lit configurations take from an arch.json."""
import json
import os
import shutil
import tempfile
import unittest

from helpers import CI_DIR

import arch_facts

REPO = os.path.dirname(CI_DIR)

EXPECT = {"site_nop": "13 00 00 00", "site_trap": "73 00 10 00",
          "site_foreign": "13 00 10 00", "sys_sdt_site": "01 00", "sys_sdt_trap": "02 90"}


class ArchFacts(unittest.TestCase):
    def setUp(self):
        self.repo = tempfile.mkdtemp(prefix="test-arch-facts-")
        self.addCleanup(shutil.rmtree, self.repo)

    def write(self, data, name="toy"):
        os.makedirs(os.path.join(self.repo, "arches", name))
        with open(os.path.join(self.repo, "arches", name, "arch.json"), "w") as f:
            json.dump(data, f)
        return arch_facts.load(self.repo, name)

    def test_traits_with_and_without_the_emulator(self):
        facts = self.write({"traits": ["a-b", "c"], "emulated_traits": ["qemu-bug"],
                            "expect": EXPECT})
        self.assertEqual(facts.name, "toy")
        self.assertEqual(facts.traits(emulated=False), ["a-b", "c"])
        self.assertEqual(facts.traits(emulated=True), ["a-b", "c", "qemu-bug"])

    def test_trait_not_in_lit_feature_form_is_an_error(self):
        facts = self.write({"traits": ["Has_Space"], "expect": EXPECT})
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "trait 'Has_Space'"):
            facts.traits(emulated=False)

    def test_derived_feature_when_sys_sdt_site_is_the_patch_nop(self):
        self.assertEqual(self.write({"expect": EXPECT}).derived_features(), [])
        same = dict(EXPECT, sys_sdt_site=EXPECT["site_nop"])
        self.assertEqual(self.write({"expect": same}, "fixed").derived_features(),
                         ["sys-sdt-site-is-patch-nop"])

    def test_expect_bytes_have_one_form_and_one_width(self):
        facts = self.write({"expect": dict(EXPECT, site_nop="0x13 0 0 0")})
        with self.assertRaisesRegex(arch_facts.ArchFactsError,
                                    r"expect.site_nop\" is not hex bytes"):
            facts.all_expect_bytes()
        facts = self.write({"expect": dict(EXPECT, site_trap="73 00")}, "short")
        with self.assertRaisesRegex(arch_facts.ArchFactsError,
                                    "expect.site_trap is not as long as expect.site_nop"):
            facts.all_expect_bytes()

    def test_a_variant_replaces_keys_and_merges_objects_one_level(self):
        self.write({"cflags": ["-mnarrow"], "traits": ["a", "b"],
                    "expect": dict(EXPECT, icache_flush_syscall=7),
                    "codegen": {"prefixes": ["p"], "branches": {"ret": ["ret"], "jump": ["b"]}},
                    "variants": {"wide": {"cflags": ["-mwide"], "traits": ["a"],
                                         "expect": {"site_nop": "00 f0 20 e3"},
                                         "codegen": {"branches": {"ret": ["pop"]}}}}})
        base = arch_facts.load(self.repo, "toy")
        self.assertEqual(base.fact("cflags", kind=list), ["-mnarrow"])
        self.assertNotIn("variants", base.data)
        wide = arch_facts.load(self.repo, "toy", "wide")
        self.assertEqual(wide.name, "toy")
        self.assertEqual(wide.fact("cflags", kind=list), ["-mwide"])
        self.assertEqual(wide.traits(emulated=False), ["a"])
        # One level: expect keeps the base's other members ...
        self.assertEqual(wide.expect_bytes("site_nop"), "00 f0 20 e3")
        self.assertEqual(wide.expect_bytes("site_trap"), EXPECT["site_trap"])
        self.assertEqual(wide.fact("expect", "icache_flush_syscall", kind=int), 7)
        # ... and a nested object is replaced whole.
        self.assertEqual(wide.data["codegen"], {"prefixes": ["p"], "branches": {"ret": ["pop"]}})
        self.assertNotIn("variants", wide.data)
        self.assertEqual(arch_facts.load(self.repo, "toy", "").data, base.data)

    def test_unknown_or_malformed_variants_are_errors(self):
        self.write({"expect": EXPECT, "variants": {"wide": {}}})
        with self.assertRaisesRegex(arch_facts.ArchFactsError, r"no variant 'narrow' \(variants: wide\)"):
            arch_facts.load(self.repo, "toy", "narrow")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "\"variants\" must map"):
            self.write({"expect": EXPECT, "variants": ["wide"]}, "listed")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "\"variants\" must map"):
            self.write({"expect": EXPECT, "variants": {"Wide": {}}}, "upper")

    def test_missing_and_mistyped_fields_are_named(self):
        facts = self.write({"char_signed": "yes", "expect": {}})
        with self.assertRaisesRegex(arch_facts.ArchFactsError, r"no \"expect.site_nop\""):
            facts.expect_bytes("site_nop")
        with self.assertRaisesRegex(arch_facts.ArchFactsError,
                                    r"\"char_signed\" must be a bool"):
            facts.fact("char_signed", kind=bool)
        self.assertEqual(facts.fact("expect", "icache_flush_syscall", kind=int, default=-1),
                         -1)

    def test_trap_signals(self):
        facts = self.write({"expect": EXPECT}, "plain")
        self.assertEqual(facts.trap_signal(), "SIGTRAP")
        self.assertIsNone(facts.trap_race_signal())
        facts = self.write({"expect": {**EXPECT, "trap_race_signal": "SIGILL"}}, "racing")
        self.assertEqual(facts.trap_race_signal(), "SIGILL")
        facts = self.write({"expect": {**EXPECT, "trap_race_signal": "SIGHUP"}}, "hup")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "must be SIGTRAP or SIGILL"):
            facts.trap_race_signal()
        facts = self.write({"expect": {**EXPECT, "trap_signal": "SIGILL",
                                       "trap_race_signal": "SIGILL"}}, "twice")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "is the trap signal SIGILL"):
            facts.trap_race_signal()

    def test_stack_pointer_spec(self):
        facts = self.write({"data_model": "LP64",
                            "expect": {**EXPECT, "stack_pointer": "%rsp"}}, "wide")
        self.assertEqual(facts.stack_pointer_spec(), "8@%rsp")
        facts = self.write({"data_model": "ILP32", "expect": {**EXPECT, "stack_pointer": "sp"}},
                           "narrow")
        self.assertEqual(facts.stack_pointer_spec(), "4@sp")
        facts = self.write({"data_model": "LP64", "expect": {**EXPECT, "stack_pointer": "$sp"}},
                           "dollar")
        self.assertEqual(facts.stack_pointer_spec(), "8@$sp")
        facts = self.write({"data_model": "ILP32", "expect": EXPECT}, "none")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, r"no \"expect.stack_pointer\""):
            facts.stack_pointer_spec()
        facts = self.write({"data_model": "LP64", "expect": {**EXPECT, "stack_pointer": "[sp]"}},
                           "bad")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "not a register name"):
            facts.stack_pointer_spec()

    def test_missing_or_damaged_file(self):
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "cannot read"):
            arch_facts.load(self.repo, "nosuch")
        os.makedirs(os.path.join(self.repo, "arches", "bad"))
        with open(os.path.join(self.repo, "arches", "bad", "arch.json"), "w") as f:
            f.write("[1, 2]")
        with self.assertRaisesRegex(arch_facts.ArchFactsError, "not a JSON object"):
            arch_facts.load(self.repo, "bad")

    def test_helpers(self):
        self.assertEqual(arch_facts.byte_count("0f 1f 44 00 00"), 5)
        self.assertEqual(arch_facts.c_initializer("0f 1f"), "0x0f,0x1f")
        self.assertEqual(arch_facts.shell_quote("it's"), "'it'\\''s'")

    def test_every_arch_of_the_repo_is_complete(self):
        for name in sorted(os.listdir(os.path.join(REPO, "arches"))):
            if not os.path.exists(os.path.join(REPO, "arches", name, "arch.json")):
                continue  # a shared directory (arches/x86)
            with self.subTest(arch=name):
                facts = arch_facts.load(REPO, name)
                facts.all_expect_bytes()
                facts.features(emulated=True)
                facts.stack_pointer_spec()


if __name__ == "__main__":
    unittest.main()
