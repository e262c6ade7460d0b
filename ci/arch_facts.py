"""What the test suites take from an arch's data file, arches/<arch>/arch.json.

The lit configurations (lit-tests/lit.cfg.py, sdt/inspect/tests/lit.cfg.py)
and ci/port-status read an arch's traits and its expected bytes here, so
that each rule about the file is written once. docs/porting.md lists the
fields.

  * traits are lit features: a test gates on `jump-trap-first` or
    `icache-flush-syscall`, never on an arch name. "emulated_traits" apply
    only when the cell runs under an emulator (a QEMU bug, say). Some
    features are derived from the expected bytes rather than declared (see
    derived_features), so that the data file cannot contradict itself.
  * "expect" is the tests' own copy of the ISA's bytes, written down by the
    porter from the architecture manual, apart from libxsdt's tables, so
    that the tests check the library and do not echo it.
"""
import glob
import json
import os
import re

# The byte sequences of "expect" every arch gives, and their meaning.
EXPECT_BYTES = {
    "site_nop": "the patch NOP at every xsdt USDT site (where its note points)",
    "site_trap": "the site's bytes while a probe is enabled in trap mode",
    "site_foreign": "a NOP of the same size that is not the site NOP",
    "sys_sdt_site": "the NOP that <sys/sdt.h> emits at its sites",
    "sys_sdt_trap": "the trap a tracer writes over a <sys/sdt.h> site",
}
# Optional, all three or none: an SDT(9) jump site that is not the USDT
# site (x86-64's 10-byte NOP behind the USDT site's 1-byte nop), its bytes
# in trap mode, and a NOP of its size that is not it. Default: site_nop,
# site_trap and site_foreign.
JUMP_BYTES = {
    "jump_site": "site_nop",
    "jump_trap": "site_trap",
    "jump_foreign": "site_foreign",
}
TRAIT_FORM = r"[a-z0-9]+(-[a-z0-9]+)*"
BYTES_FORM = r"[0-9a-f]{2}( [0-9a-f]{2})*"


class ArchFactsError(ValueError):
    """arch.json is missing, is not JSON, or a field has the wrong form."""


class ArchFacts:
    """One arch's data file, checked field by field as it is asked."""

    def __init__(self, path, data):
        self.path = path
        self.name = os.path.basename(os.path.dirname(os.path.abspath(path)))
        self.data = data

    def fact(self, *keys, kind=str, default=None):
        """The value at keys (a path into nested objects), of the kind given.

        A missing value is `default` when there is one; otherwise, or when
        the value has another kind, ArchFactsError names the field.
        """
        value = self.data
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if value is None and default is not None:
            return default
        well_formed = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is list:
            well_formed = well_formed and all(isinstance(v, str) for v in value)
        if not well_formed:
            expected = "list of strings" if kind is list else kind.__name__
            field = '.'.join(keys)
            raise ArchFactsError(f"{self.path}: no \"{field}\"" if value is None else
                                 f"{self.path}: \"{field}\" must be a {expected}")
        return value

    def expect_bytes(self, key):
        """An "expect" byte sequence ("0f 1f 44 00 00"), checked for its form."""
        value = self.fact("expect", key)
        if not re.fullmatch(BYTES_FORM, value):
            raise ArchFactsError(f"{self.path}: \"expect.{key}\" is not hex bytes separated "
                                 f"by spaces: {value!r}")
        return value

    def all_expect_bytes(self):
        """Every sequence of EXPECT_BYTES, with the trap and the foreign NOP
        as long as the site NOP (what a site holds in turn)."""
        expect = {key: self.expect_bytes(key) for key in EXPECT_BYTES}
        for key in ("site_trap", "site_foreign"):
            if len(expect[key]) != len(expect["site_nop"]):
                raise ArchFactsError(f"{self.path}: expect.{key} is not as long as "
                                     "expect.site_nop")
        return expect

    def jump_bytes(self, key):
        """expect.jump_site or expect.jump_trap: an SDT(9) jump site's NOP
        and its bytes in trap mode, the USDT site's where the arch gives
        none; the two as long as each other."""
        given = [k for k in JUMP_BYTES if self.fact("expect", k, default="") != ""]
        if not given:
            return self.expect_bytes(JUMP_BYTES[key])
        if len(given) != len(JUMP_BYTES):
            raise ArchFactsError(f"{self.path}: expect.{given[0]} without "
                                 + " and ".join(f"expect.{k}" for k in JUMP_BYTES
                                                if k not in given))
        for other in JUMP_BYTES:
            if byte_count(self.expect_bytes(other)) != byte_count(self.expect_bytes("jump_site")):
                raise ArchFactsError(f"{self.path}: expect.{other} is not as long as "
                                     "expect.jump_site")
        return self.expect_bytes(key)

    def jump_nop_head(self):
        """What every disabled SDT(9) jump site starts with: the whole jump
        site NOP, or the head of one that names its target (expect.jump_nop)."""
        return self.fact("expect", "jump_nop", "head", default=self.jump_bytes("jump_site"))

    def jump_trap_head(self):
        """The same bytes of a jump site in trap mode."""
        trap = self.jump_bytes("jump_trap").split()
        return " ".join(trap[:byte_count(self.jump_nop_head())])

    def trap_signal(self):
        """expect.trap_signal, the signal a trap raises in an untraced
        process: "SIGTRAP" (the default) or "SIGILL"."""
        signal = self.fact("expect", "trap_signal", default="SIGTRAP")
        if signal not in ("SIGTRAP", "SIGILL"):
            raise ArchFactsError(f"{self.path}: \"expect.trap_signal\" must be SIGTRAP or "
                                 f"SIGILL: {signal!r}")
        return signal

    def stack_pointer_spec(self):
        """The stack pointer as an argument spec names it: SIZE@NAME, the
        size of a pointer ("data_model") and expect.stack_pointer as the
        arch's grammar spells the register ("%rsp", "sp", "1", "$sp")."""
        sizes = {"LP64": 8, "ILP32": 4}
        model = self.fact("data_model")
        if model not in sizes:
            raise ArchFactsError(f"{self.path}: \"data_model\" must be LP64 or ILP32: {model!r}")
        name = self.fact("expect", "stack_pointer")
        if not re.fullmatch(r"[%$]?[a-z0-9]+", name):
            raise ArchFactsError(f"{self.path}: \"expect.stack_pointer\" is not a register "
                                 f"name: {name!r}")
        return f"{sizes[model]}@{name}"

    def trap_race_signal(self):
        """expect.trap_race_signal, the second signal a trap may raise when
        another thread removed it between the hit and the kernel's read of
        the instruction ("SIGILL"), or None where a trap raises one signal
        only (the default)."""
        signal = self.fact("expect", "trap_race_signal", kind=str, default="")
        if signal and signal not in ("SIGTRAP", "SIGILL"):
            raise ArchFactsError(f"{self.path}: \"expect.trap_race_signal\" must be SIGTRAP or "
                                 f"SIGILL: {signal!r}")
        if signal and signal == self.trap_signal():
            raise ArchFactsError(f"{self.path}: \"expect.trap_race_signal\" is the trap "
                                 f"signal {signal}")
        return signal or None

    def jump_nop_cflags(self):
        """expect.jump_nop, for an arch whose disabled jump site names its
        target (a brcl 0,target on z/Architecture): the bytes before the offset ("head"),
        the offset's size in bytes, its unit (the target is site + offset *
        unit) and byte order. As -DEXPECT_JUMP_NOP_* for test programs; []
        when the arch's jump sites hold one NOP."""
        if self.fact("expect", "jump_nop", kind=dict, default={}) == {}:
            return []
        head = self.fact("expect", "jump_nop", "head")
        if not re.fullmatch(BYTES_FORM, head):
            raise ArchFactsError(f"{self.path}: \"expect.jump_nop.head\" is not hex bytes")
        size = self.fact("expect", "jump_nop", "offset_bytes", kind=int)
        unit = self.fact("expect", "jump_nop", "offset_unit", kind=int)
        order = self.fact("expect", "jump_nop", "offset_order")
        if size not in (1, 2, 4) or unit < 1 or order not in ("big", "little"):
            raise ArchFactsError(f"{self.path}: \"expect.jump_nop\": offset_bytes 1, 2 or 4, "
                                 "offset_unit >= 1, offset_order big or little")
        if byte_count(head) + size != byte_count(self.jump_bytes("jump_site")):
            raise ArchFactsError(f"{self.path}: expect.jump_nop is not as long as "
                                 "the jump site's NOP")
        return [f"-DEXPECT_JUMP_NOP_HEAD={c_initializer(head)}",
                f"-DEXPECT_JUMP_NOP_OFFSET_BYTES={size}",
                f"-DEXPECT_JUMP_NOP_OFFSET_UNIT={unit}",
                f"-DEXPECT_JUMP_NOP_OFFSET_BIG_ENDIAN={int(order == 'big')}"]

    def traits(self, emulated):
        """The declared traits, with the emulated ones when emulated."""
        traits = self.fact("traits", kind=list, default=[])
        if emulated:
            traits = traits + self.fact("emulated_traits", kind=list, default=[])
        for trait in traits:
            if not re.fullmatch(TRAIT_FORM, trait):
                raise ArchFactsError(f"{self.path}: trait {trait!r} is not lower-case words "
                                     "joined by -")
        return traits

    def derived_features(self):
        """Features that follow from the expected bytes:

        sys-sdt-site-is-patch-nop  <sys/sdt.h>'s site NOP is the patch NOP
                                   (one NOP instruction of one size)
        """
        expect = self.all_expect_bytes()
        features = []
        if expect["sys_sdt_site"] == expect["site_nop"]:
            features.append("sys-sdt-site-is-patch-nop")
        return features

    def features(self, emulated):
        return self.traits(emulated) + self.derived_features()


def load(repo, arch, variant=None):
    """The facts of repo/arches/<arch>/arch.json, in `variant` when one is
    named; ArchFactsError says why not."""
    path = os.path.join(repo, "arches", arch, "arch.json")
    return load_file(path, variant)


def load_file(path, variant=None):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as error:
        raise ArchFactsError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ArchFactsError(f"{path}: not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ArchFactsError(f"{path}: not a JSON object")
    return ArchFacts(path, variant_data(path, data, variant))


def variants(path, data):
    """arch.json's "variants": {name: overrides}, checked for its form. A
    variant is a second instruction set of the arch that its compilers emit
    with other flags, tested as a toolchain variant of every compiler of the
    arch."""
    found = data.get("variants", {})
    if not isinstance(found, dict) or not all(
            isinstance(v, dict) and re.fullmatch(TRAIT_FORM, k) for k, v in found.items()):
        raise ArchFactsError(f"{path}: \"variants\" must map lower-case names to objects")
    return found


def variant_data(path, data, variant):
    """The arch's data in `variant` ("" or None: the base). Each key of the
    variant replaces the base's, except that two objects merge one level
    deep: the variant's members replace the base's members of the same
    name, the others stay (a variant's "expect" keeps the base's
    icache_flush_syscall). "variants" itself is no variant's fact."""
    overrides = variants(path, data)
    merged = {k: v for k, v in data.items() if k != "variants"}
    if not variant:
        return merged
    if variant not in overrides:
        known = ", ".join(sorted(overrides)) or "none"
        raise ArchFactsError(f"{path}: no variant {variant!r} (variants: {known})")
    for key, value in overrides[variant].items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def byte_count(byte_string):
    """How many bytes "0f 1f 44 00 00" names."""
    return len(byte_string.split())


def c_initializer(byte_string):
    """"0f 1f" as a C initializer list: 0x0f,0x1f."""
    return ",".join(f"0x{b}" for b in byte_string.split())


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def sys_sdt_include(work_dir):
    """A private include directory that holds SystemTap's <sys/sdt.h> alone,
    or None when systemtap-sdt-dev is not installed.

    Debian installs sys/sdt.h in the host's multiarch include directory,
    which must not be on a cross compiler's path (its other headers are the
    host's): the directory holds links to sdt.h and sdt-config.h only.
    """
    found = next((d for d in ["/usr/include"] + sorted(glob.glob("/usr/include/*-linux-gnu*"))
                  if os.path.exists(os.path.join(d, "sys", "sdt.h"))), None)
    if found is None:
        return None
    include = os.path.join(work_dir, "sys-sdt-include")
    os.makedirs(os.path.join(include, "sys"), exist_ok=True)
    for header in ("sdt.h", "sdt-config.h"):
        target = os.path.join(found, "sys", header)
        link = os.path.join(include, "sys", header)
        if os.path.exists(target) and os.path.realpath(link) != os.path.realpath(target):
            # A fresh link renamed over the old one: other runs may read it.
            fresh = f"{link}.{os.getpid()}"
            os.symlink(target, fresh)
            os.replace(fresh, link)
    return include
