#include "xsdt/argeval.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt {
namespace {

constexpr Arch kX64 = Arch::X86_64;
constexpr Arch kI386 = Arch::I386;
constexpr Arch kA64 = Arch::AArch64;
constexpr Arch kRv = Arch::RiscV64;

// A fake address space: one window of bytes at `base`; everything else is
// unreadable. Records the last address asked for.
struct FakeMemory {
  std::uint64_t base = 0;
  std::vector<unsigned char> bytes;
  std::uint64_t last_addr = 0;
  int reads = 0;

  static bool read(void *ctx, std::uint64_t addr, void *dst, std::size_t n) {
    auto *m = static_cast<FakeMemory *>(ctx);
    m->last_addr = addr;
    ++m->reads;
    if (addr < m->base || addr - m->base + n > m->bytes.size())
      return false;
    std::memcpy(dst, m->bytes.data() + (addr - m->base), n);
    return true;
  }
  MemoryReader reader() { return MemoryReader{&FakeMemory::read, this}; }
  void put(std::uint64_t addr, const void *src, std::size_t n) {
    std::memcpy(bytes.data() + (addr - base), src, n);
  }
};

CompiledArg must_compile(std::string_view spec, Arch arch) {
  auto loc = parse_arg_spec(spec, arch);
  if (!loc) {
    ADD_FAILURE() << spec << ": " << loc.error().to_string();
    return {};
  }
  auto c = compile_arg(loc.value(), arch);
  if (!c) {
    ADD_FAILURE() << spec << ": " << c.error().to_string();
    return {};
  }
  return c.value();
}

std::string compile_failure(std::string_view spec, Arch arch) {
  auto loc = parse_arg_spec(spec, arch);
  if (!loc) {
    ADD_FAILURE() << spec << ": " << loc.error().to_string();
    return {};
  }
  auto c = compile_arg(loc.value(), arch);
  if (c) {
    ADD_FAILURE() << spec << " compiled, expected an error";
    return {};
  }
  return c.error().message;
}

// Evaluates spec against regs and mem; fails the test if evaluation fails.
EvalValue eval(std::string_view spec, Arch arch, const RegisterFile &regs,
               FakeMemory *mem = nullptr) {
  CompiledArg c = must_compile(spec, arch);
  EvalValue v;
  MemoryReader r = mem ? mem->reader() : MemoryReader{};
  EXPECT_TRUE(evaluate(c, regs, r, &v)) << spec;
  return v;
}

RegisterFile zero_regs() {
  RegisterFile r;
  std::memset(&r, 0, sizeof r);
  return r;
}

std::uint64_t u64(std::int64_t v) { return static_cast<std::uint64_t>(v); }

// ---- compile_arg --------------------------------------------------------

TEST(Compile, RegisterFields) {
  CompiledArg c = must_compile("-4@%eax", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Register);
  EXPECT_EQ(c.size, 4);
  EXPECT_TRUE(c.is_signed);
  EXPECT_EQ(c.base_reg, 0);
  EXPECT_EQ(c.base_bit_width, 32);

  c = must_compile("1@%ah", kX64);
  EXPECT_EQ(c.base_reg, 0);
  EXPECT_EQ(c.base_bit_offset, 8);
  EXPECT_EQ(c.base_bit_width, 8);

  EXPECT_EQ(must_compile("8@%rdx", kX64).base_reg, 1);
  EXPECT_EQ(must_compile("8@%rsp", kX64).base_reg, 7);
  EXPECT_EQ(must_compile("8@%r15", kX64).base_reg, 15);
  EXPECT_EQ(must_compile("4@%ecx", kI386).base_reg, 1);
  EXPECT_EQ(must_compile("4@%edi", kI386).base_reg, 7);
  EXPECT_EQ(must_compile("8@x30", kA64).base_reg, 30);
  EXPECT_EQ(must_compile("8@sp", kA64).base_reg, 31);
  EXPECT_EQ(must_compile("8@a0", kRv).base_reg, 10);
  EXPECT_EQ(must_compile("8@t6", kRv).base_reg, 31);
}

TEST(Compile, MemoryFields) {
  CompiledArg c = must_compile("-2@16(%rdi,%rsi,2)", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Memory);
  EXPECT_EQ(c.base_reg, 5);
  EXPECT_EQ(c.index_reg, 4);
  EXPECT_EQ(c.scale, 2);
  EXPECT_EQ(c.displacement, 16);
  EXPECT_FALSE(c.address32);

  c = must_compile("-8@-64(%ebp)", kI386);
  EXPECT_EQ(c.base_reg, 5);
  EXPECT_EQ(c.displacement, -64);
  EXPECT_TRUE(c.address32);

  c = must_compile("4@[x29, -8]", kA64);
  EXPECT_EQ(c.base_reg, 29);
  EXPECT_EQ(c.displacement, -8);
  c = must_compile("4@-88(s0)", kRv);
  EXPECT_EQ(c.base_reg, 8);
  EXPECT_EQ(c.displacement, -88);
}

TEST(Compile, Immediates) {
  CompiledArg c = must_compile("-4@$-7", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
  EXPECT_EQ(c.immediate, -7);
  EXPECT_EQ(must_compile("4@42", kA64).immediate, 42);
  EXPECT_EQ(must_compile("-8@-3", kRv).immediate, -3);
}

TEST(Compile, ZeroRegistersBecomeImmediateZero) {
  CompiledArg c = must_compile("8@xzr", kA64);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
  EXPECT_EQ(c.immediate, 0);
  c = must_compile("8@zero", kRv);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
}

TEST(Compile, Rejections) {
  EXPECT_NE(compile_failure("-4@g(%rip)", kX64).find("needs symbol resolution"),
            std::string::npos);
  EXPECT_NE(compile_failure("-4@g@GOTOFF(%ecx)", kI386)
                .find("needs symbol resolution"),
            std::string::npos);
  EXPECT_NE(compile_failure("8@%xmm0", kX64).find("vector"), std::string::npos);
  EXPECT_NE(compile_failure("8@d0", kA64).find("vector"), std::string::npos);
  EXPECT_NE(compile_failure("4@8(%rip)", kX64).find("program-counter"),
            std::string::npos);
}

// ---- evaluate: immediates --------------------------------------------------

TEST(Evaluate, ImmediateEveryWidthAndSign) {
  RegisterFile r = zero_regs();
  // Compilers print unsigned constants with the top bit set as negative
  // numbers of the same width: truncation must recover them.
  EXPECT_EQ(eval("1@$-56", kX64, r).bits, 200u);
  EXPECT_EQ(eval("-1@$-56", kX64, r).bits, u64(-56));
  EXPECT_EQ(eval("2@$-1", kX64, r).bits, 0xffffu);
  EXPECT_EQ(eval("-2@$-2", kX64, r).bits, u64(-2));
  EXPECT_EQ(eval("4@$-1", kX64, r).bits, 0xffffffffu);
  EXPECT_EQ(eval("-4@$-7", kX64, r).bits, u64(-7));
  EXPECT_EQ(eval("-4@$-7", kX64, r).as_double, -7.0);
  EXPECT_EQ(eval("8@$-1", kX64, r).bits, ~std::uint64_t{0});
  EXPECT_EQ(eval("-8@-9", kA64, r).bits, u64(-9));
  EXPECT_EQ(eval("1@300", kRv, r).bits, 44u); // truncated to one byte
  EXPECT_EQ(eval("-1@127", kRv, r).bits, 127u);
  EXPECT_EQ(eval("-1@128", kRv, r).bits, u64(-128));
}

// ---- evaluate: registers ---------------------------------------------------

TEST(Evaluate, X86_64SubRegisters) {
  RegisterFile r = zero_regs();
  r.regs[0] = 0x1122334455667788; // rax
  r.regs[8] = 0x8877665544332211; // r8
  EXPECT_EQ(eval("8@%rax", kX64, r).bits, 0x1122334455667788u);
  EXPECT_EQ(eval("4@%eax", kX64, r).bits, 0x55667788u);
  EXPECT_EQ(eval("-4@%eax", kX64, r).bits, 0x55667788u);
  EXPECT_EQ(eval("2@%ax", kX64, r).bits, 0x7788u);
  EXPECT_EQ(eval("-2@%ax", kX64, r).bits, 0x7788u);
  EXPECT_EQ(eval("1@%al", kX64, r).bits, 0x88u);
  EXPECT_EQ(eval("-1@%al", kX64, r).bits, u64(-120)); // 0x88
  EXPECT_EQ(eval("1@%ah", kX64, r).bits, 0x77u);
  EXPECT_EQ(eval("-1@%ah", kX64, r).bits, 0x77u);
  EXPECT_EQ(eval("-4@%r8d", kX64, r).bits, 0x44332211u);
  EXPECT_EQ(eval("-2@%r8w", kX64, r).bits, 0x2211u);
  EXPECT_EQ(eval("1@%r8b", kX64, r).bits, 0x11u);
  EXPECT_EQ(eval("1@%r8l", kX64, r).bits, 0x11u);
  EXPECT_EQ(eval("-8@%r8", kX64, r).bits, 0x8877665544332211u);
  EXPECT_EQ(eval("-8@%r8", kX64, r).as_double,
            static_cast<double>(static_cast<std::int64_t>(0x8877665544332211)));
}

TEST(Evaluate, X86_64WidthsSignExtend) {
  RegisterFile r = zero_regs();
  r.regs[5] = 0xffffffff80000000; // rdi
  EXPECT_EQ(eval("-4@%edi", kX64, r).bits, 0xffffffff80000000u);
  EXPECT_EQ(eval("4@%edi", kX64, r).bits, 0x80000000u);
  EXPECT_EQ(eval("-4@%rdi", kX64, r).bits, 0xffffffff80000000u);
  EXPECT_EQ(eval("4@%rdi", kX64, r).bits, 0x80000000u);
  EXPECT_EQ(eval("-2@%rdi", kX64, r).bits, 0u);
  r.regs[5] = 0xfffe;
  EXPECT_EQ(eval("-2@%di", kX64, r).bits, u64(-2));
  EXPECT_EQ(eval("2@%di", kX64, r).bits, 0xfffeu);
  EXPECT_EQ(eval("-1@%dil", kX64, r).bits, u64(-2));
}

TEST(Evaluate, I386RegisterWidening) {
  RegisterFile r = zero_regs();
  r.regs[0] = 0x8000fffe; // eax
  r.regs[3] = 0x1234abcd; // ebx
  // gdb reads %ax from %eax: the low bits of the full register.
  EXPECT_EQ(eval("-2@%ax", kI386, r).bits, u64(-2));
  EXPECT_EQ(eval("2@%ax", kI386, r).bits, 0xfffeu);
  EXPECT_EQ(eval("-4@%ax", kI386, r).bits, 0xffffffff8000fffeu);
  EXPECT_EQ(eval("-4@%eax", kI386, r).bits, 0xffffffff8000fffeu);
  EXPECT_EQ(eval("4@%eax", kI386, r).bits, 0x8000fffeu);
  EXPECT_EQ(eval("1@%bl", kI386, r).bits, 0xcdu);
  EXPECT_EQ(eval("1@%bh", kI386, r).bits, 0xabu);
  EXPECT_EQ(eval("-1@%bh", kI386, r).bits, u64(-85));
}

TEST(Evaluate, AArch64AndRiscvRegisters) {
  RegisterFile r = zero_regs();
  r.regs[3] = 0xfffffffffffffff9;
  r.regs[31] = 0x7ff0;
  EXPECT_EQ(eval("-4@x3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("4@x3", kA64, r).bits, 0xfffffff9u);
  EXPECT_EQ(eval("-8@x3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("8@sp", kA64, r).bits, 0x7ff0u);
  EXPECT_EQ(eval("-4@w3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("8@xzr", kA64, r).bits, 0u);
  RegisterFile rv = zero_regs();
  rv.regs[10] = 0x1ff;
  rv.regs[0] = 0xdead; // x0 must read as zero whatever the slot holds
  EXPECT_EQ(eval("1@a0", kRv, rv).bits, 0xffu);
  EXPECT_EQ(eval("-1@a0", kRv, rv).bits, u64(-1));
  EXPECT_EQ(eval("2@a0", kRv, rv).bits, 0x1ffu);
  EXPECT_EQ(eval("8@zero", kRv, rv).bits, 0u);
}

// ---- evaluate: floats
// ----------------------------------------------------------

TEST(Evaluate, FloatsReinterpretBits) {
  RegisterFile r = zero_regs();
  float f = -1.5f;
  std::uint32_t fb;
  std::memcpy(&fb, &f, 4);
  double d = 6.25e100;
  std::uint64_t db;
  std::memcpy(&db, &d, 8);
  r.regs[0] = 0xabcd000000000000 | fb; // junk above the float's 32 bits
  r.regs[1] = db;
  EvalValue v = eval("4f@%rax", kX64, r);
  EXPECT_EQ(v.bits, fb);
  EXPECT_EQ(v.as_double, -1.5);
  v = eval("8f@%rdx", kX64, r);
  EXPECT_EQ(v.bits, db);
  EXPECT_EQ(v.as_double, 6.25e100);
  r.regs[4] = db;
  EXPECT_EQ(eval("8f@x4", kA64, r).as_double, 6.25e100);
  // A float spec is never sign-extended, even with a '-' prefix.
  v = eval("-4f@%rax", kX64, r);
  EXPECT_EQ(v.bits, fb);
  EXPECT_EQ(v.as_double, -1.5);
}

// ---- evaluate: memory
// ----------------------------------------------------------

TEST(Evaluate, MemoryEveryWidthAndNegativeDisplacement) {
  FakeMemory m;
  m.base = 0x7000;
  m.bytes.assign(64, 0);
  const unsigned char pattern[8] = {0xf0, 0xde, 0xbc, 0x9a,
                                    0x78, 0x56, 0x34, 0x82};
  m.put(0x7010, pattern, 8);
  RegisterFile r = zero_regs();
  r.regs[6] = 0x7020; // rbp
  EXPECT_EQ(eval("1@-16(%rbp)", kX64, r, &m).bits, 0xf0u);
  EXPECT_EQ(m.last_addr, 0x7010u);
  EXPECT_EQ(eval("-1@-16(%rbp)", kX64, r, &m).bits, u64(-16));
  EXPECT_EQ(eval("2@-16(%rbp)", kX64, r, &m).bits, 0xdef0u);
  EXPECT_EQ(eval("-2@-16(%rbp)", kX64, r, &m).bits, 0xffffffffffffdef0u);
  EXPECT_EQ(eval("4@-16(%rbp)", kX64, r, &m).bits, 0x9abcdef0u);
  EXPECT_EQ(eval("-4@-16(%rbp)", kX64, r, &m).bits, 0xffffffff9abcdef0u);
  EXPECT_EQ(eval("8@-16(%rbp)", kX64, r, &m).bits, 0x823456789abcdef0u);
  EXPECT_EQ(eval("-8@-16(%rbp)", kX64, r, &m).bits, 0x823456789abcdef0u);
  r.regs[7] = 0x7010; // rsp
  EXPECT_EQ(eval("-4@(%rsp)", kX64, r, &m).bits, 0xffffffff9abcdef0u);
}

TEST(Evaluate, MemorySib) {
  FakeMemory m;
  m.base = 0x1000;
  m.bytes.assign(64, 0);
  std::int16_t v = -300;
  m.put(0x1000 + 16 + 3 * 2, &v, 2);
  RegisterFile r = zero_regs();
  r.regs[5] = 0x1000; // rdi
  r.regs[4] = 3;      // rsi
  EXPECT_EQ(eval("-2@16(%rdi,%rsi,2)", kX64, r, &m).bits, u64(-300));
  EXPECT_EQ(m.last_addr, 0x1016u);
  // Scale 8 with a negative displacement.
  std::uint32_t w = 0xcafef00d;
  m.put(0x1000 + 8 * 4 - 8, &w, 4);
  r.regs[4] = 4;
  EXPECT_EQ(eval("4@-8(%rdi,%rsi,8)", kX64, r, &m).bits, 0xcafef00du);
}

TEST(Evaluate, I386AddressesWrapAt32Bits) {
  FakeMemory m;
  m.base = 0x10;
  m.bytes.assign(16, 0);
  std::uint32_t w = 0x80000001;
  m.put(0x10, &w, 4);
  RegisterFile r = zero_regs();
  r.regs[2] = 0xfffffff0; // edx
  EXPECT_EQ(eval("-4@32(%edx)", kI386, r, &m).bits, 0xffffffff80000001u);
  EXPECT_EQ(m.last_addr, 0x10u);
  // A negative displacement below 0 wraps to the top, which is unreadable.
  r.regs[2] = 0x4;
  CompiledArg c = must_compile("4@-8(%edx)", kI386);
  EvalValue out;
  EXPECT_FALSE(evaluate(c, r, m.reader(), &out));
  EXPECT_EQ(m.last_addr, 0xfffffffcu);
}

TEST(Evaluate, I386ArgumentAreaDouble) {
  FakeMemory m;
  m.base = 0xffd0;
  m.bytes.assign(96, 0);
  double d = -0.125;
  m.put(0xffd0 + 24, &d, 8);
  std::int64_t big = -4886718345;
  m.put(0xffd0 + 32, &big, 8);
  RegisterFile r = zero_regs();
  r.regs[2] = 0xffd0; // edx
  EXPECT_EQ(eval("8f@24(%edx)", kI386, r, &m).as_double, -0.125);
  EXPECT_EQ(eval("-8@32(%edx)", kI386, r, &m).bits, u64(big));
}

TEST(Evaluate, AArch64AndRiscvMemory) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(128, 0);
  std::int32_t v = -123456;
  m.put(0x4000 + 96, &v, 4);
  RegisterFile r = zero_regs();
  r.regs[31] = 0x4000; // sp
  EXPECT_EQ(eval("-4@[sp, 96]", kA64, r, &m).bits, u64(-123456));
  r.regs[1] = 0x4000 + 96;
  EXPECT_EQ(eval("-4@[x1]", kA64, r, &m).bits, u64(-123456));
  r.regs[29] = 0x4000 + 104;
  EXPECT_EQ(eval("4@[x29, -8]", kA64, r, &m).bits, 0xfffe1dc0u);
  RegisterFile rv = zero_regs();
  rv.regs[8] = 0x4000 + 96 + 88; // s0
  EXPECT_EQ(eval("-4@-88(s0)", kRv, rv, &m).bits, u64(-123456));
  EXPECT_EQ(eval("-4@-88(fp)", kRv, rv, &m).bits, u64(-123456));
}

TEST(Evaluate, MemoryReadFailure) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(8, 0);
  RegisterFile r = zero_regs();
  r.regs[0] = 0x4004; // rax: 4 readable bytes left
  CompiledArg c = must_compile("8@(%rax)", kX64);
  EvalValue out;
  out.bits = 12345;
  EXPECT_FALSE(evaluate(c, r, m.reader(), &out));
  EXPECT_EQ(out.bits, 12345u) << "a failed read must leave *out alone";
  EXPECT_TRUE(evaluate(must_compile("4@(%rax)", kX64), r, m.reader(), &out));
  // No reader at all: memory operands fail, registers still work.
  EXPECT_FALSE(evaluate(c, r, MemoryReader{}, &out));
  EXPECT_TRUE(evaluate(must_compile("8@%rax", kX64), r, MemoryReader{}, &out));
}

TEST(Evaluate, MalformedCompiledArgFails) {
  RegisterFile r = zero_regs();
  EvalValue out;
  CompiledArg c;
  c.size = 3;
  EXPECT_FALSE(evaluate(c, r, MemoryReader{}, &out));
  c.size = 4;
  c.kind = CompiledKind::Register;
  c.base_reg = kRegisterFileSize;
  EXPECT_FALSE(evaluate(c, r, MemoryReader{}, &out));
  c.base_reg = -1;
  EXPECT_FALSE(evaluate(c, r, MemoryReader{}, &out));
}

TEST(Evaluate, WorksOnEveryCorpusStyleSpec) {
  // One spec per grammar as xsdt itself emits them, end to end.
  RegisterFile r = zero_regs();
  r.regs[0] = 42;
  EXPECT_EQ(eval("-4@%rax", kX64, r).bits, 42u);
  r.regs[0] = 7;
  EXPECT_EQ(eval("-4@x0", kA64, r).bits, 7u);
  r.regs[10] = 9;
  EXPECT_EQ(eval("-4@a0", kRv, r).bits, 9u);
}

} // namespace
} // namespace xsdt
