// libxsdt, AArch64: USDT jump mode's stub and its entry (machdep.h,
// UsdtJumpPort). A USDT site is one `nop` (arch/usdt.h), which the SDT(9)
// jump encoder turns into `b stub` with one aligned store (B and NOP may
// replace one another while other threads run them). Each site's stub is
// 48 bytes, the template below with its branch back and two literals
// filled in:
//
//   stp x16, x17, [sp, #-32]!   AAPCS64 has no red zone: below sp is free
//   str x30, [sp, #16]
//   ldr x16, cell
//   ldr x17, entry
//   blr x17                     the entry below, for this CPU's vector state
//   ldr x30, [sp, #16]
//   ldp x16, x17, [sp], #32
//   b site + 4
//   cell: .quad  entry: .quad
//
// The entry saves every general register into a RegisterFile in DWARF
// order (x0-x30, then the interrupted sp), NZCV and FPSR, and the vector
// registers a C++ handler may change: q0-q31 whole (the ABI keeps only
// the low halves of v8-v15), or, where the CPU has SVE, z0-z31, p0-p15 and
// FFR, since a write to a q register (the handler's, or a restore of q)
// zeroes the rest of its z register. FPCR is not saved: libxsdt does not
// change it and a handler must not (SME's streaming state neither).
#include "usdt_jump.h"
#include "machdep.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sys/auxv.h>

static_assert(offsetof(xsdt::rt::UsdtJumpCell, pc) ==
              xsdt::rt::kUsdtJumpCellPcOffset);

// The stub, copied per site. The assembler encodes it; write_stub fills in
// the branch at kBranchBack and the literals.
asm(".text\n .p2align 3\n"
    ".globl xsdt_usdt_jump_stub_template\n"
    ".hidden xsdt_usdt_jump_stub_template\n"
    "xsdt_usdt_jump_stub_template:\n"
    " stp x16, x17, [sp, #-32]!\n"
    " str x30, [sp, #16]\n"
    " ldr x16, 1f\n"
    " ldr x17, 2f\n"
    " blr x17\n"
    " ldr x30, [sp, #16]\n"
    " ldp x16, x17, [sp], #32\n"
    " b .\n"
    "1: .quad 0\n"
    "2: .quad 0\n"
    ".globl xsdt_usdt_jump_stub_template_end\n"
    ".hidden xsdt_usdt_jump_stub_template_end\n"
    "xsdt_usdt_jump_stub_template_end:\n");

// The entry's frame, from its sp: the RegisterFile (33 slots, 0..264), NZCV
// and FPSR (264, 272), a frame record (288) so that a backtrace from the
// handler walks on into the interrupted code, then the vectors. The stub's
// 32 bytes are above it: x16, x17, the interrupted x30; the interrupted sp
// is above those. x16 holds the cell.
#define XSDT_ENTRY_FRAME "816"
#define XSDT_ENTRY_SAVE_GPRS                                                   \
  "sub sp, sp, #" XSDT_ENTRY_FRAME "\n"                                        \
  "stp x0, x1, [sp, #0]\n stp x2, x3, [sp, #16]\n"                             \
  "stp x4, x5, [sp, #32]\n stp x6, x7, [sp, #48]\n"                            \
  "stp x8, x9, [sp, #64]\n stp x10, x11, [sp, #80]\n"                          \
  "stp x12, x13, [sp, #96]\n stp x14, x15, [sp, #112]\n"                       \
  "ldr x0, [sp, #816]\n ldr x1, [sp, #824]\n"                                  \
  "stp x0, x1, [sp, #128]\n"                                                   \
  "stp x18, x19, [sp, #144]\n stp x20, x21, [sp, #160]\n"                      \
  "stp x22, x23, [sp, #176]\n stp x24, x25, [sp, #192]\n"                      \
  "stp x26, x27, [sp, #208]\n stp x28, x29, [sp, #224]\n"                      \
  "ldr x0, [sp, #832]\n add x1, sp, #848\n stp x0, x1, [sp, #240]\n"           \
  "mrs x0, nzcv\n mrs x1, fpsr\n stp x0, x1, [sp, #264]\n"                     \
  "stp x29, x30, [sp, #288]\n add x29, sp, #288\n"
// x19-x29 come back from the call as they were; x16, x17 and x30 are the
// stub's to restore.
#define XSDT_ENTRY_CALL                                                        \
  "mov x0, x16\n sub x1, x29, #288\n bl xsdt_usdt_jump_hit\n"
#define XSDT_ENTRY_RESTORE_GPRS                                                \
  "ldp x0, x1, [sp, #264]\n msr nzcv, x0\n msr fpsr, x1\n"                     \
  "ldp x29, x30, [sp, #288]\n"                                                 \
  "ldp x0, x1, [sp, #0]\n ldp x2, x3, [sp, #16]\n"                             \
  "ldp x4, x5, [sp, #32]\n ldp x6, x7, [sp, #48]\n"                            \
  "ldp x8, x9, [sp, #64]\n ldp x10, x11, [sp, #80]\n"                          \
  "ldp x12, x13, [sp, #96]\n ldp x14, x15, [sp, #112]\n"                       \
  "ldr x18, [sp, #144]\n"                                                      \
  "add sp, sp, #" XSDT_ENTRY_FRAME "\n ret\n"

#define XSDT_ALL_32                                                            \
  ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,"     \
  "24,25,26,27,28,29,30,31\n"
#define XSDT_ENTRY_BEGIN(name)                                                 \
  ".text\n .p2align 4\n .globl " name "\n .hidden " name "\n"                  \
  ".type " name ", %function\n" name ":\n"
#define XSDT_ENTRY_END(name) ".size " name ", .-" name "\n"

// Without SVE: q0-q31 at 304 (512 bytes).
#define XSDT_SAVE_Q XSDT_ALL_32 " str q\\n, [sp, #304+16*\\n]\n .endr\n"
#define XSDT_RESTORE_Q XSDT_ALL_32 " ldr q\\n, [sp, #304+16*\\n]\n .endr\n"
// With SVE: the z registers below the frame (32 vector lengths), the
// predicates and FFR below them (17 predicate lengths, in 3 vector lengths
// to keep sp 16-byte aligned).
#define XSDT_ALL_16 ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
#define XSDT_SAVE_Z                                                            \
  "addvl sp, sp, #-32\n" XSDT_ALL_32 " str z\\n, [sp, #\\n, mul vl]\n .endr\n"
#define XSDT_RESTORE_Z                                                         \
  XSDT_ALL_32 " ldr z\\n, [sp, #\\n, mul vl]\n .endr\n"                        \
              "addvl sp, sp, #16\n addvl sp, sp, #16\n"
#define XSDT_SAVE_P                                                            \
  "addvl sp, sp, #-3\n" XSDT_ALL_16 " str p\\n, [sp, #\\n, mul vl]\n .endr\n"  \
  "rdffr p0.b\n str p0, [sp, #16, mul vl]\n"
#define XSDT_RESTORE_P                                                         \
  "ldr p0, [sp, #16, mul vl]\n wrffr p0.b\n" XSDT_ALL_16                       \
  " ldr p\\n, [sp, #\\n, mul vl]\n .endr\n addvl sp, sp, #3\n"

asm(XSDT_ENTRY_BEGIN("xsdt_usdt_jump_entry_neon")
        XSDT_ENTRY_SAVE_GPRS XSDT_SAVE_Q XSDT_ENTRY_CALL XSDT_RESTORE_Q
            XSDT_ENTRY_RESTORE_GPRS
                XSDT_ENTRY_END("xsdt_usdt_jump_entry_neon"));
asm(XSDT_ENTRY_BEGIN(
    "xsdt_usdt_jump_entry_sve") ".arch_extension sve\n" XSDT_ENTRY_SAVE_GPRS
        XSDT_SAVE_Z XSDT_SAVE_P XSDT_ENTRY_CALL XSDT_RESTORE_P XSDT_RESTORE_Z
            XSDT_ENTRY_RESTORE_GPRS XSDT_ENTRY_END("xsdt_usdt_jump_entry_sve"));

extern "C" const unsigned char xsdt_usdt_jump_stub_template[];
extern "C" const unsigned char xsdt_usdt_jump_stub_template_end[];
extern "C" void xsdt_usdt_jump_entry_neon();
extern "C" void xsdt_usdt_jump_entry_sve();

namespace xsdt::rt::machdep {
namespace {

constexpr std::size_t kStubSize = 48;
constexpr std::size_t kBranchBack = 28, kCellSlot = 32, kEntrySlot = 40;
constexpr std::uint32_t kBranchToSelf = 0x14000000; // b .
// B's reach: a signed 26-bit word offset, +-128 MiB.
constexpr std::int64_t kBranchReach = std::int64_t{1} << 27;

std::uintptr_t entry_for_this_cpu() {
#ifdef HWCAP_SVE
  if (getauxval(AT_HWCAP) & HWCAP_SVE)
    return reinterpret_cast<std::uintptr_t>(&xsdt_usdt_jump_entry_sve);
#endif
  return reinterpret_cast<std::uintptr_t>(&xsdt_usdt_jump_entry_neon);
}

bool write_stub(unsigned char *out, std::uintptr_t at, const void *cell,
                std::uintptr_t resume) {
  const std::int64_t back =
      static_cast<std::int64_t>(resume - (at + kBranchBack));
  if (back < -kBranchReach || back >= kBranchReach || (back & 3) != 0)
    return false;
  // The template is what the assembler made of the code above; a layout
  // that differs from the offsets here is refused, never patched.
  std::uint32_t self = 0;
  std::memcpy(&self, xsdt_usdt_jump_stub_template + kBranchBack, 4);
  if (xsdt_usdt_jump_stub_template_end - xsdt_usdt_jump_stub_template !=
          static_cast<std::ptrdiff_t>(kStubSize) ||
      self != kBranchToSelf)
    return false;
  static const std::uintptr_t entry = entry_for_this_cpu();
  const auto cell_addr = reinterpret_cast<std::uintptr_t>(cell);
  const std::uint32_t branch =
      kBranchToSelf | (static_cast<std::uint32_t>(back >> 2) & 0x03ffffffu);
  std::memcpy(out, xsdt_usdt_jump_stub_template, kStubSize);
  std::memcpy(out + kBranchBack, &branch, 4);
  std::memcpy(out + kCellSlot, &cell_addr, 8);
  std::memcpy(out + kEntrySlot, &entry, 8);
  return true;
}

// The branch is the site's own nop: a stub within B's reach, less the
// stub's size and a margin.
constexpr UsdtJumpPort kPort{
    .branch_offset = 0,
    .stub_size = kStubSize,
    .reach = (std::uintptr_t{1} << 27) - (1 << 20),
    .saved_registers = 32, // x0..x30, sp
    .write_stub = write_stub,
};

} // namespace

const UsdtJumpPort *usdt_jump_port() { return &kPort; }

} // namespace xsdt::rt::machdep
