// The reach of the riscv64 jump: jal (imm20, in halfwords) reaches
// -1 MiB .. +1 MiB - 2 from the jump itself (RISC-V unprivileged ISA,
// 2.5.1); the jump replaces the 4-byte nop only.
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(Riscv64, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("riscv64"), "4-byte nop",
      {-(std::int64_t{1} << 20), (std::int64_t{1} << 20) - 2, 2});
}

// riscv64-linux-gnu-as (.option norvc): `j .+8` is 0080006f,
// `j .-0x80000` 8008006f.
TEST(Riscv64, JumpBytes) {
  const Arch arch = *parse_arch("riscv64");
  tests::expect_jump_bytes(arch, "4-byte nop", 8, {0x6f, 0x00, 0x80, 0x00});
  tests::expect_jump_bytes(arch, "4-byte nop", -0x80000,
                           {0x6f, 0x00, 0x08, 0x80});
}

} // namespace
} // namespace xsdt
