// A made-up architecture for the tests of the generic layer (the spec
// layer, the portability rules, the evaluator): a descriptor built with the
// grammar toolkit of xsdt/arch_port.h, as a port would build one, but whose
// syntax and numbering belong to no real arch, so that the generic tests
// depend on none of arches/. It is not in the registry.
//
// Two variants share one grammar. "fixture" has 64-bit words; "fixture32"
// has 32-bit words and no w views. Operands (register prefix '%'):
//
//   %r0 .. %r7    general registers, DWARF 0..7, one word wide
//   %w0 .. %w7    their low 32 bits ("fixture" only)
//   %b0 .. %b7    their low byte
//   %h0 .. %h3    bits 8..15 of r0..r3 (high bytes)
//   %fp           an alias of r7 (which the arch's own rule rejects)
//   %pc           the program counter (DWARF 8)
//   %v0 .. %v3    vector registers (DWARF 16..19)
//   %zr           a hard-wired zero register
//   %r40          a general register with DWARF 40, past the register file
//   %n0  %x0      views of r0 no port may have: no bits; bits 60..67
//   42  -7  0x10  1+2  sym        immediates, expressions, symbols
//   #42                           an immediate with '#'
//   [%r1]  [%r1, 16]  [%r1, #16]  base + displacement
//   [%r1, %r2]  [%r1, %r2*4, -8]  base + index * scale + displacement
//   [1234]  [%r1, sym]            absolute; symbolic displacement
//
// The arch's own portability rules: an alias (%fp) is not portable, and an
// index scaled by more than 1 is rejected before the generic index rule.
#ifndef XSDT_ARGSPEC_TESTS_FIXTURE_ARCH_H
#define XSDT_ARGSPEC_TESTS_FIXTURE_ARCH_H

#include "xsdt/arch_port.h"

namespace xsdt::tests {

extern const ArchDescriptor kFixtureDescriptor;   // "fixture", 64-bit
extern const ArchDescriptor kFixture32Descriptor; // "fixture32", 32-bit

inline constexpr Arch kFixture{kFixtureDescriptor};
inline constexpr Arch kFixture32{kFixture32Descriptor};

// The reason fixture32 gives for a value wider than a register.
inline constexpr const char *kFixture32WideReason =
    "values wider than a word live in memory";

} // namespace xsdt::tests

#endif // XSDT_ARGSPEC_TESTS_FIXTURE_ARCH_H
