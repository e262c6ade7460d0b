/* Fixture for xsdt-inspect's tests: one valid SDT probe and one record
 * forged by hand in top-level assembly, as a broken toolchain, a stale
 * patch or a corrupt file could leave it. Build with -DFORGE_<CASE>:
 *   NOT_NOP      a site whose bytes are not the NOP (cc...)
 *   DANGLING     a site whose probe is plain data, no definition's probe
 *   TARGET_DATA  a site whose target is data, not code
 *   MISALIGNED   a site 2 bytes past a 4-byte boundary (aarch64, riscv64)
 *   FAR          a target 1 MiB past the site (out of riscv64 jal's reach)
 *   VERSION      a definition of version 2
 *   ARGC         a definition with argc 9
 *   UNTERMINATED a definition whose provider string has no NUL in its size
 *   TRUNCATED    a definition whose size runs past the section (malformed)
 *   SHORT_SIZE   a definition size smaller than the header (malformed)
 *   SITES_SIZE   4 stray bytes in xsdt_sdt_sites (malformed) */
#include <xsdt/sdt.h>

#include "fire_stubs.h"

SDT_PROVIDER_DEFINE(forge);
SDT_PROBE_DEFINE1(forge, , , good, "int");

/* Writable data that is no definition's probe. */
__attribute__((used)) int other_data = 1;
/* The probe object of the forged definitions. */
__attribute__((used)) struct xsdt_sdt_probe forged_probe = {
    &xsdt_sdt_provider_forge, 0};

int main(int argc, char **argv) {
  (void)argv;
  SDT_PROBE1(forge, , , good, argc);
  return 0;
}

#define GOOD_PROBE "xsdt_sdt_probe_forge___good"

/* The NOP of a jump site, written out: the arch's jump-site NOP, or where
 * that one names its target through the asm goto's label (s390x's `brcl
 * 0,%l0`), the site NOP. */
#ifdef XSDT_ARCH_JUMP_SITE_NAMES_TARGET
#define FORGED_SITE_NOP XSDT_ARCH_SITE_NOP
#else
#define FORGED_SITE_NOP XSDT_ARCH_JUMP_SITE_NOP
#endif

/* Code the forged sites point at; never executed. */
__asm__(".pushsection .text.forged,\"ax\",%progbits\n"
        ".balign 16\n"
        "forged_code:\n" XSDT_ARCH_SITE_ENTER "\n" XSDT_ARCH_JUMP_SITE_HEAD "\n"
        "forged_nop: " FORGED_SITE_NOP "\n" XSDT_ARCH_SITE_LEAVE "\n"
        ".balign 4\n"
        "forged_not_nop: .fill 16, 1, 0xcc\n"
        ".balign 4\n"
        "forged_target: .4byte 0\n"
#ifdef FORGE_FAR
        ".skip 0x100000\n"
        "forged_far: .4byte 0\n"
#endif
        ".popsection\n");

/* A site record, linked to the forged code like the header's records are
 * to theirs (one output section must not mix ordered and unordered input
 * sections). */
#define FORGED_SITE(site, target, probe)                                       \
  __asm__(".pushsection xsdt_sdt_sites,\"ao\",%progbits,forged_code\n"         \
          ".balign 4\n"                                                        \
          ".4byte " site " - .\n"                                              \
          ".4byte " target " - .\n"                                            \
          ".4byte " probe " - .\n"                                             \
          ".popsection\n")

/* A definition record: its size field, its version/argc/flags/reserved
 * bytes and its strings. */
#define FORGED_DEFINITION(size, header, strings)                               \
  __asm__(".pushsection xsdt_sdt_probes,\"aR\",%progbits\n"                    \
          ".balign 4\n"                                                        \
          "1: .4byte " size "\n"                                               \
          ".4byte forged_probe - .\n"                                          \
          ".byte " header "\n" strings ".balign 4\n"                           \
          "2:\n"                                                               \
          ".popsection\n")

#define STRINGS(name)                                                          \
  ".asciz \"forge\"\n.asciz \"\"\n.asciz \"\"\n.asciz \"" name "\"\n"

#if defined(FORGE_NOT_NOP)
FORGED_SITE("forged_not_nop", "forged_target", GOOD_PROBE);
#elif defined(FORGE_DANGLING)
FORGED_SITE("forged_nop", "forged_target", "other_data");
#elif defined(FORGE_TARGET_DATA)
FORGED_SITE("forged_nop", "other_data", GOOD_PROBE);
#elif defined(FORGE_MISALIGNED)
FORGED_SITE("forged_nop + 2", "forged_target", GOOD_PROBE);
#elif defined(FORGE_FAR)
FORGED_SITE("forged_nop", "forged_far", GOOD_PROBE);
#elif defined(FORGE_VERSION)
FORGED_DEFINITION("2f - 1b", "2, 0, 0, 0", STRINGS("version"));
#elif defined(FORGE_ARGC)
FORGED_DEFINITION("2f - 1b", "1, 9, 0, 0", STRINGS("argc"));
#elif defined(FORGE_UNTERMINATED)
/* 16 bytes: the header and "abcd", no NUL. */
FORGED_DEFINITION("16", "1, 0, 0, 0", ".ascii \"abcd\"\n");
#elif defined(FORGE_TRUNCATED)
FORGED_DEFINITION("0x7ffffff0", "1, 0, 0, 0", STRINGS("truncated"));
#elif defined(FORGE_SHORT_SIZE)
FORGED_DEFINITION("8", "1, 0, 0, 0", STRINGS("short"));
#elif defined(FORGE_SITES_SIZE)
__asm__(".pushsection xsdt_sdt_sites,\"ao\",%progbits,forged_code\n"
        ".balign 4\n"
        ".4byte 0\n"
        ".popsection\n");
#else
#error "define one FORGE_<CASE>"
#endif
