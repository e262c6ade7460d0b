// libxsdt, x86-64: USDT jump mode's stub and its entry (machdep.h,
// UsdtJumpPort). A USDT site is `nop; nopw10` (arch/usdt.h); its branch is
// the SDT(9) jump over the nopw10 (`e9 rel32`), to a stub of 48 bytes:
//
//   lea -128(%rsp), %rsp     past the red zone, where a leaf keeps data
//   push %rax
//   movabs $cell, %rax
//   call *entry(%rip)        the entry below, for this CPU's vector state
//   pop %rax
//   lea 128(%rsp), %rsp      (lea: the flags stay as they are)
//   jmp site + 11
//   entry: .quad
//
// The entry saves the flags, every general register into a RegisterFile
// in DWARF order (the interrupted %rsp computed, %rip from the cell), and
// the vector registers a C++ handler may change: %xmm0-15, or all of
// %ymm0-15 where the OS keeps AVX state (a handler's vzeroupper, or
// glibc's AVX2 memcpy, would clear the upper halves the interrupted code
// may hold), or %zmm0-31 and %k0-7 with AVX-512 (upper halves kept clean
// where they were, see XSDT_READ_XINUSE). The x87 and MXCSR state
// are not saved: libxsdt does not change them and a handler must not.
#include "usdt_jump.h"
#include "machdep.h"

#include <cpuid.h>
#include <cstddef>
#include <cstdint>
#include <cstring>

static_assert(offsetof(xsdt::rt::UsdtJumpCell, pc) ==
              xsdt::rt::kUsdtJumpCellPcOffset);

// %rbx holds the entry's frame: [rbx] %rbx, +8 the flags, +16 the return
// into the stub, +24 the stub's saved %rax; the interrupted %rsp is
// rbx + 160 (those 32 bytes and the red zone's 128). The RegisterFile is
// at %rsp (33 slots), the vectors at %rsp + 320.
#define XSDT_ENTRY_SAVE_GPRS                                                   \
  "pushfq\n push %rbx\n mov %rsp, %rbx\n"                                      \
  "sub $(320 + \\VECTOR_BYTES), %rsp\n and $-64, %rsp\n"                       \
  "mov %rdx, 8(%rsp)\n mov 24(%rbx), %rdx\n mov %rdx, 0(%rsp)\n"               \
  "mov %rcx, 16(%rsp)\n mov (%rbx), %rdx\n mov %rdx, 24(%rsp)\n"               \
  "mov %rsi, 32(%rsp)\n mov %rdi, 40(%rsp)\n mov %rbp, 48(%rsp)\n"             \
  "lea 160(%rbx), %rdx\n mov %rdx, 56(%rsp)\n"                                 \
  "mov %r8, 64(%rsp)\n mov %r9, 72(%rsp)\n mov %r10, 80(%rsp)\n"               \
  "mov %r11, 88(%rsp)\n mov %r12, 96(%rsp)\n mov %r13, 104(%rsp)\n"            \
  "mov %r14, 112(%rsp)\n mov %r15, 120(%rsp)\n"                                \
  "mov 16(%rax), %rdx\n mov %rdx, 128(%rsp)\n"
// The callee-saved registers come back from the call as they were.
#define XSDT_ENTRY_CALL_AND_RESTORE_GPRS                                       \
  "cld\n mov %rax, %rdi\n mov %rsp, %rsi\n call xsdt_usdt_jump_hit\n"          \
  "\\RESTORE_VECTORS\n"                                                        \
  "mov 8(%rsp), %rdx\n mov 16(%rsp), %rcx\n mov 32(%rsp), %rsi\n"              \
  "mov 40(%rsp), %rdi\n mov 64(%rsp), %r8\n mov 72(%rsp), %r9\n"               \
  "mov 80(%rsp), %r10\n mov 88(%rsp), %r11\n"                                  \
  "mov %rbx, %rsp\n pop %rbx\n popfq\n ret\n"

// One entry per vector state, from one macro of the assembler.
asm(".macro XSDT_USDT_JUMP_ENTRY name, VECTOR_BYTES, SAVE_VECTORS, "
    "RESTORE_VECTORS\n"
    ".text\n .p2align 4\n .globl \\name\n .hidden \\name\n"
    ".type \\name, @function\n"
    "\\name:\n" XSDT_ENTRY_SAVE_GPRS
    "\\SAVE_VECTORS\n" XSDT_ENTRY_CALL_AND_RESTORE_GPRS
    ".size \\name, .-\\name\n"
    ".endm\n");

asm(".macro XSDT_SSE_SAVE\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " movdqa %xmm\\n, 320+16*\\n(%rsp)\n .endr\n .endm\n"
    ".macro XSDT_SSE_RESTORE\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " movdqa 320+16*\\n(%rsp), %xmm\\n\n .endr\n .endm\n"
    // The AVX and AVX-512 entries read XINUSE first (xgetbv 1, where the
    // CPU has it; else every component counts as in use) into the slot
    // after the vectors, and save and restore only what is in use: a
    // component in its initial state is zero, and comes back so. They also
    // keep the upper halves clean for the handler and, where they were
    // clean, for the program: Intel cores since Skylake give every
    // legacy-SSE instruction a false dependency on dirty upper halves (the
    // handler's cvtsi2sd took 88 % of a 148 ns hit on a Sapphire Rapids
    // when the entry restored whole registers), so the entry clears them
    // (vzeroupper) before the call, and halves that were clean come back
    // as vzeroupper and the 128-bit registers leave them.
    // XINUSE bit 2: the upper halves of %ymm0-15; bit 6: bits 511:256 of
    // %zmm0-15; bit 7: %zmm16-31.
    ".macro XSDT_READ_XINUSE at\n"
    " mov %rax, %r11\n mov $-1, %eax\n"
    " cmpb $0, xsdt_usdt_jump_xinuse(%rip)\n je 1f\n"
    " mov $1, %ecx\n xgetbv\n"
    "1: mov %eax, \\at(%rsp)\n mov %r11, %rax\n .endm\n"
    ".macro XSDT_XMM_SAVE stride\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa %xmm\\n, 320+\\stride*\\n(%rsp)\n .endr\n .endm\n"
    ".macro XSDT_XMM_RESTORE stride\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa 320+\\stride*\\n(%rsp), %xmm\\n\n .endr\n .endm\n"
    ".macro XSDT_AVX_SAVE\n"
    " XSDT_READ_XINUSE 320+512\n"
    " testl $0x4, 320+512(%rsp)\n jnz 4f\n XSDT_XMM_SAVE 32\n jmp 5f\n"
    "4:\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa %ymm\\n, 320+32*\\n(%rsp)\n .endr\n"
    "5: vzeroupper\n .endm\n"
    ".macro XSDT_AVX_RESTORE\n"
    " testl $0x4, 320+512(%rsp)\n jnz 2f\n vzeroupper\n"
    " XSDT_XMM_RESTORE 32\n jmp 3f\n"
    "2:\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa 320+32*\\n(%rsp), %ymm\\n\n .endr\n"
    "3:\n .endm\n"
    ".macro XSDT_AVX512_SAVE\n"
    " XSDT_READ_XINUSE 320+2112\n"
    " testl $0x44, 320+2112(%rsp)\n jnz 4f\n XSDT_XMM_SAVE 64\n jmp 5f\n"
    "4:\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa64 %zmm\\n, 320+64*\\n(%rsp)\n .endr\n"
    "5: testl $0x80, 320+2112(%rsp)\n jz 6f\n"
    ".irp n, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    " vmovdqa64 %zmm\\n, 320+64*\\n(%rsp)\n .endr\n"
    "6:\n"
    ".irp n, 0,1,2,3,4,5,6,7\n kmovq %k\\n, 320+2048+8*\\n(%rsp)\n .endr\n"
    " vzeroupper\n .endm\n"
    ".macro XSDT_AVX512_RESTORE\n"
    " testl $0x44, 320+2112(%rsp)\n jnz 2f\n vzeroupper\n"
    " XSDT_XMM_RESTORE 64\n jmp 3f\n"
    "2:\n"
    ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    " vmovdqa64 320+64*\\n(%rsp), %zmm\\n\n .endr\n"
    "3: testl $0x80, 320+2112(%rsp)\n jz 7f\n"
    ".irp n, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    " vmovdqa64 320+64*\\n(%rsp), %zmm\\n\n .endr\n jmp 8f\n"
    // Zero, as they were: the handler may have used them (glibc's EVEX
    // string functions do).
    "7:\n"
    ".irp n, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    " vpxord %xmm\\n, %xmm\\n, %xmm\\n\n .endr\n"
    "8:\n"
    ".irp n, 0,1,2,3,4,5,6,7\n kmovq 320+2048+8*\\n(%rsp), %k\\n\n .endr\n"
    " .endm\n");

// 1 when this CPU has xgetbv with ecx = 1 (XINUSE), read by the entries;
// set before the first stub is written, so before any entry runs.
extern "C" {
[[gnu::visibility("hidden")]] unsigned char xsdt_usdt_jump_xinuse = 0;
}

namespace xsdt::rt::machdep {
namespace {

extern "C" void xsdt_usdt_jump_entry_sse();
extern "C" void xsdt_usdt_jump_entry_avx();
extern "C" void xsdt_usdt_jump_entry_avx512();

// The entry for the vector state the OS keeps for this process (XCR0).
std::uintptr_t entry_for_this_cpu() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  std::uint64_t xcr0 = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE)) {
    unsigned lo = 0, hi = 0;
    asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (std::uint64_t{hi} << 32) | lo;
  }
  if (xcr0 && __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & (1u << 2)))
    xsdt_usdt_jump_xinuse = 1; // CPUID.(EAX=0DH,ECX=1):EAX[2], XGETBV 1
  if ((xcr0 & 0xe6) == 0xe6) // SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
    return reinterpret_cast<std::uintptr_t>(&xsdt_usdt_jump_entry_avx512);
  if ((xcr0 & 0x6) == 0x6)
    return reinterpret_cast<std::uintptr_t>(&xsdt_usdt_jump_entry_avx);
  return reinterpret_cast<std::uintptr_t>(&xsdt_usdt_jump_entry_sse);
}

constexpr std::size_t kStubSize = 48;
constexpr std::size_t kCallEnd = 22, kJumpEnd = 36, kEntrySlot = 40;

bool fits_rel32(std::int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

bool write_stub(unsigned char *out, std::uintptr_t at, const void *cell,
                std::uintptr_t resume) {
  const std::int64_t back = static_cast<std::int64_t>(resume - (at + kJumpEnd));
  if (!fits_rel32(back))
    return false;
  static const std::uintptr_t entry = entry_for_this_cpu();
  const auto rel_back = static_cast<std::int32_t>(back);
  const std::int32_t to_slot = static_cast<std::int32_t>(kEntrySlot - kCallEnd);
  const auto cell_addr = reinterpret_cast<std::uintptr_t>(cell);
  unsigned char *p = out;
  const unsigned char head[] = {0x48, 0x8d, 0x64, 0x24, 0x80, // lea -128(%rsp)
                                0x50,                         // push %rax
                                0x48, 0xb8};                  // movabs ..,%rax
  std::memcpy(p, head, sizeof head), p += sizeof head;
  std::memcpy(p, &cell_addr, 8), p += 8;
  *p++ = 0xff, *p++ = 0x15; // call *disp32(%rip)
  std::memcpy(p, &to_slot, 4), p += 4;
  const unsigned char tail[] = {0x58, // pop %rax
                                0x48, 0x8d, 0xa4, 0x24,
                                0x80, 0x00, 0x00, 0x00, // lea 128(%rsp)
                                0xe9};                  // jmp rel32
  std::memcpy(p, tail, sizeof tail), p += sizeof tail;
  std::memcpy(p, &rel_back, 4), p += 4;
  while (p < out + kEntrySlot)
    *p++ = 0xcc;
  std::memcpy(p, &entry, 8);
  return true;
}

// The branch is `e9 rel32` from the nopw10 at site + 1: a stub within
// 2 GiB less the stub's own size and a margin.
constexpr UsdtJumpPort kPort{
    .branch_offset = 1,
    .stub_size = kStubSize,
    .reach = (std::uintptr_t{1} << 31) - (1 << 20),
    .saved_registers = 17, // rax..r15, rip
    .write_stub = write_stub,
};

} // namespace

const UsdtJumpPort *usdt_jump_port() { return &kPort; }

} // namespace xsdt::rt::machdep

asm("XSDT_USDT_JUMP_ENTRY xsdt_usdt_jump_entry_sse, 256, XSDT_SSE_SAVE, "
    "XSDT_SSE_RESTORE\n"
    "XSDT_USDT_JUMP_ENTRY xsdt_usdt_jump_entry_avx, 576, XSDT_AVX_SAVE, "
    "XSDT_AVX_RESTORE\n"
    "XSDT_USDT_JUMP_ENTRY xsdt_usdt_jump_entry_avx512, 2176, "
    "XSDT_AVX512_SAVE, XSDT_AVX512_RESTORE\n");
