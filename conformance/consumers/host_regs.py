# xsdt-arch-specific: the register names of bcc's and perf's parsers, which
# compile in the host's grammar only (x86 here).
"""The register names that bcc and perf print for an x86 argument: the
field names of the kernel's struct pt_regs (ax for %al, %ax, %eax and %rax;
r8 for %r8b, %r8w, %r8d and %r8). bcc and perf parse only the host's arch
(x86 here), so the table covers what their x86 parsers read: bcc
usdt_args.cc (X86ArgumentParser), perf arch/x86/util/perf_regs.c."""
import re

_LEGACY = {
    "ax": ("al", "ax", "eax", "rax"), "bx": ("bl", "bx", "ebx", "rbx"),
    "cx": ("cl", "cx", "ecx", "rcx"), "dx": ("dl", "dx", "edx", "rdx"),
    "si": ("sil", "si", "esi", "rsi"), "di": ("dil", "di", "edi", "rdi"),
    "bp": ("bpl", "bp", "ebp", "rbp"), "sp": ("spl", "sp", "esp", "rsp"),
    "ip": ("ip", "eip", "rip"),
}
_NAMES = {alias: field for field, aliases in _LEGACY.items() for alias in aliases}
_NUMBERED = re.compile(r"^(r(?:8|9|1[0-5]))[bwd]?$")


def field(register):
    """The pt_regs field of an AT&T register ("%eax" -> "ax"); a register
    no field holds (%ah, %xmm0) keeps its own name, which no reading of a
    field equals."""
    name = register.lstrip("%")
    match = _NUMBERED.match(name)
    return match.group(1) if match else _NAMES.get(name, name)


# The names uprobe_events' fetch arguments take on x86 (the pt_regs fields).
KERNEL_NAMES = set(_LEGACY) | {f"r{n}" for n in range(8, 16)}


MEMORY = re.compile(r"^(?P<disp>[-+]?\d+)?\((?P<base>%\w+)"
                    r"(?:,(?P<index>%\w+)(?:,(?P<scale>\d+))?)?\)$")
IMMEDIATE = re.compile(r"^\$?(?P<value>-?\d+)$")
REGISTER = re.compile(r"^%\w+$")
