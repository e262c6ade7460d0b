/* 160 KiB of padding in .text, linked between batching.c and
 * batching-far.c: more than two pages of any page size up to 64 KiB, so
 * that the sites of the two files never share a run of pages. It is never
 * executed. */
__asm__(".text\n"
        ".globl batching_pad\n"
        "batching_pad:\n"
        ".skip 163840\n");
