/* 160 KiB of padding in .text, linked between mprotect.c and far.c: more
 * than two pages of any page size up to 64 KiB, so that the sites of the
 * two files are always on two separate runs of pages (two mprotect pairs
 * per batch). It is never executed. */
__asm__(".text\n"
        ".globl fault_pad\n"
        "fault_pad:\n"
        ".skip 163840\n");
