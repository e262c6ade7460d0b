// Fuzzes the arg evaluator (xsdt/argeval.h): a spec parsed in one arch's
// grammar, compiled, then evaluated against a register file and a fake
// memory that holds one small window. Input:
//
//   ARCH ' ' SPEC '\n' TAIL
//
// ARCH is an arch name or alias (parse_arch), so the text seeds read as
// what they test. TAIL is binary and may be short or absent (missing bytes
// are 0): a flags byte (bit 1: move the window to the address read, see
// check_compiled), the window's base address (8 bytes, little-endian),
// the window's length (mod 33) and bytes, then 16 bytes that overwrite the
// compiled arg's fields when flag bit 0 is set (evaluate() promises false,
// not a crash, for a malformed arg), then bytes XORed into the register
// file, whose default is a pattern that differs per register and per byte.
//
// Besides "no crash, no sanitizer report", for every arg compile_arg()
// accepts it checks evaluate() against a model computed from the
// ArgLocation with 128-bit arithmetic: the one memory read asks for exactly
// `size` bytes at base + index * scale + displacement (wrapped at 32 bits
// where the arch or the operand says so), the value is the register's bits
// or the window's bytes in the arch's byte order, sign-extended for a
// signed spec and zero-extended otherwise; a failed read leaves *out as it
// was; as_double agrees with the bits.
#include "fuzz_support.h"
#include "xsdt/arch_port.h"
#include "xsdt/arch_registry.h"
#include "xsdt/argeval.h"
#include "xsdt/argspec.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace {

using xsdt::Arch;
using xsdt::CompiledArg;
using xsdt::CompiledKind;
using xsdt::EvalValue;

constexpr std::size_t kMaxWindow = 32;

// The fake memory: `size` bytes at `base`; anything else is unreadable.
// Every request is recorded, so the harness can compare it with the model.
struct FakeMemory {
  std::uint64_t base = 0;
  unsigned char bytes[kMaxWindow] = {};
  std::size_t size = 0;
  int reads = 0;
  std::uint64_t last_addr = 0;
  std::size_t last_n = 0;

  static bool read(void *ctx, std::uint64_t addr, void *dst, std::size_t n) {
    auto *m = static_cast<FakeMemory *>(ctx);
    ++m->reads;
    m->last_addr = addr;
    m->last_n = n;
    // addr - base wraps for an address below the window, giving a huge
    // offset that fails the test, so no overflow check is needed.
    const std::uint64_t offset = addr - m->base;
    if (offset > m->size || n > m->size - offset)
      return false;
    // dst is the evaluator's buffer: ASan sees a write past it.
    std::memcpy(dst, m->bytes + offset, n);
    return true;
  }
};

// Reads the input front to back; past its end every byte is 0.
struct Reader {
  const std::uint8_t *p;
  std::size_t left;
  std::uint8_t byte() {
    if (left == 0)
      return 0;
    --left;
    return *p++;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t{byte()} << (8 * i);
    return v;
  }
};

std::uint64_t mask_of(unsigned bytes) {
  return bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
}

// The value evaluate() promises for the low `size` bytes of raw: sign- or
// zero-extended, written out case by case rather than with extend_value's
// xor trick.
std::uint64_t extended(std::uint64_t raw, unsigned size, bool is_signed) {
  const std::uint64_t low = raw & mask_of(size);
  if (!is_signed || size >= 8)
    return low;
  const bool negative = (low >> (8 * size - 1)) & 1;
  return negative ? low | ~mask_of(size) : low;
}

void check_value(const CompiledArg &arg, std::uint64_t raw,
                 const EvalValue &v) {
  XSDT_FUZZ_REQUIRE(v.bits == extended(raw, arg.size, arg.is_signed));
  if (arg.is_float) {
    XSDT_FUZZ_REQUIRE(!arg.is_signed);
    double want;
    if (arg.size == 4) {
      const auto b = static_cast<std::uint32_t>(v.bits);
      float f;
      std::memcpy(&f, &b, sizeof f);
      want = f;
    } else {
      std::memcpy(&want, &v.bits, sizeof want);
    }
    XSDT_FUZZ_REQUIRE(std::isnan(want) ? std::isnan(v.as_double)
                                       : want == v.as_double);
  } else if (arg.is_signed) {
    XSDT_FUZZ_REQUIRE(v.as_double ==
                      static_cast<double>(static_cast<std::int64_t>(v.bits)));
  } else {
    XSDT_FUZZ_REQUIRE(v.as_double == static_cast<double>(v.bits));
  }
}

// The register's bits from its descriptor entry (not the compiled copy).
std::uint64_t field(const xsdt::RegisterFile &regs,
                    const std::optional<xsdt::RegisterInfo> &r) {
  if (!r || r->cls == xsdt::RegisterClass::Zero)
    return 0;
  const std::uint64_t v = regs.regs[r->dwarf] >> r->bit_offset;
  return v & (r->bit_width >= 64 ? ~std::uint64_t{0}
                                 : (std::uint64_t{1} << r->bit_width) - 1);
}

// rebase: after a memory read, move the window to the address asked for
// (a few bytes before it, from the window's given base) and evaluate again,
// so that reads succeed without the input having to guess the address.
void check_compiled(const xsdt::ArgLocation &loc, Arch arch,
                    const CompiledArg &arg, const xsdt::RegisterFile &regs,
                    FakeMemory &memory, bool rebase) {
  XSDT_FUZZ_REQUIRE(arg.size == loc.size);
  XSDT_FUZZ_REQUIRE(arg.is_float == loc.is_float);
  const EvalValue sentinel{0x5a5a5a5a5a5a5a5a, -1.5};
  EvalValue out = sentinel;
  memory.reads = 0;
  const bool ok = xsdt::evaluate(arg, regs, {&FakeMemory::read, &memory}, &out);

  switch (loc.kind) {
  case xsdt::LocationKind::Immediate:
    XSDT_FUZZ_REQUIRE(ok && memory.reads == 0);
    check_value(arg, static_cast<std::uint64_t>(loc.immediate), out);
    return;
  case xsdt::LocationKind::Register:
    XSDT_FUZZ_REQUIRE(ok && memory.reads == 0);
    // A zero register compiles to the constant 0. Otherwise gdb's
    // widening: the containing register from the sub-register's offset up,
    // not only its named bits (argeval.h), so `-4@%ax` on i386 is %eax.
    check_value(arg,
                loc.base->cls == xsdt::RegisterClass::Zero
                    ? 0
                    : regs.regs[loc.base->dwarf] >> loc.base->bit_offset,
                out);
    return;
  case xsdt::LocationKind::Memory: {
    XSDT_FUZZ_REQUIRE(memory.reads == 1);
    XSDT_FUZZ_REQUIRE(memory.last_n == static_cast<std::size_t>(loc.size));
    const xsdt::ArchDescriptor &d = arch.descriptor();
    // 128 bits: no wrap-around before the arch's own.
    unsigned __int128 addr = field(regs, loc.base);
    if (loc.index && loc.index->cls != xsdt::RegisterClass::Zero) {
      std::uint64_t index = field(regs, loc.index);
      // aarch64's `sxtw`: the 32-bit index is sign-extended (the
      // architecture's rule; the only such extend of the four grammars).
      if (loc.operand.find("sxtw") != std::string::npos &&
          loc.index->bit_width == 32 && (index >> 31) != 0)
        index |= ~std::uint64_t{0xffffffff};
      addr += static_cast<unsigned __int128>(index) *
              static_cast<unsigned>(loc.scale);
    }
    addr +=
        static_cast<unsigned __int128>(static_cast<__int128>(loc.displacement));
    const auto named32 = [&](const std::optional<xsdt::RegisterInfo> &r) {
      return r && r->cls != xsdt::RegisterClass::Zero && r->bit_width == 32;
    };
    const bool wrap32 =
        d.word_bits == 32 || (d.narrow_registers_narrow_address &&
                              (named32(loc.base) || named32(loc.index)));
    const std::uint64_t want_addr =
        static_cast<std::uint64_t>(addr) & (wrap32 ? 0xffffffffu : ~0ull);
    XSDT_FUZZ_REQUIRE(memory.last_addr == want_addr);
    if (rebase) {
      memory.base = want_addr - (memory.base & 7);
      check_compiled(loc, arch, arg, regs, memory, false);
      return;
    }
    const std::uint64_t offset = want_addr - memory.base;
    const bool readable =
        offset <= memory.size &&
        static_cast<std::size_t>(loc.size) <= memory.size - offset;
    XSDT_FUZZ_REQUIRE(ok == readable);
    if (!ok) {
      XSDT_FUZZ_REQUIRE(std::memcmp(&out, &sentinel, sizeof out) == 0);
      return;
    }
    std::uint64_t raw = 0;
    for (int i = 0; i < loc.size; ++i) {
      const int shift = 8 * (d.big_endian ? loc.size - 1 - i : i);
      raw |= std::uint64_t{memory.bytes[offset + i]} << shift;
    }
    check_value(arg, raw, out);
    return;
  }
  case xsdt::LocationKind::Symbolic:
    break;
  }
  std::fprintf(stderr, "a symbolic location compiled: %s\n", loc.spec.c_str());
  std::abort();
}

// A compiled arg with fields from the input: evaluate() must answer false
// or a value of the arg's size, and read at most `size` bytes, once.
void check_malformed(CompiledArg arg, Reader &in,
                     const xsdt::RegisterFile &regs, FakeMemory &memory) {
  arg.kind = static_cast<CompiledKind>(in.byte());
  arg.size = in.byte();
  const std::uint8_t flags = in.byte();
  arg.is_signed = flags & 1;
  arg.is_float = flags & 2;
  arg.address32 = flags & 4;
  arg.big_endian = flags & 8;
  arg.base_reg = static_cast<std::int16_t>(in.byte() | (in.byte() << 8));
  arg.base_bit_offset = in.byte();
  arg.base_bit_width = in.byte();
  arg.index_reg = static_cast<std::int16_t>(in.byte() | (in.byte() << 8));
  arg.index_bit_width = in.byte();
  arg.scale = in.byte();
  arg.displacement = static_cast<std::int64_t>(in.u64());
  EvalValue out{};
  memory.reads = 0;
  if (!xsdt::evaluate(arg, regs, {&FakeMemory::read, &memory}, &out)) {
    XSDT_FUZZ_REQUIRE(memory.reads <= 1);
    return;
  }
  XSDT_FUZZ_REQUIRE(arg.size == 1 || arg.size == 2 || arg.size == 4 ||
                    arg.size == 8);
  if (!arg.is_signed || arg.is_float)
    XSDT_FUZZ_REQUIRE((out.bits & ~mask_of(arg.size)) == 0);
  XSDT_FUZZ_REQUIRE(memory.reads <= 1);
  if (memory.reads == 1)
    XSDT_FUZZ_REQUIRE(memory.last_n == arg.size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos)
    return 0;
  std::optional<Arch> arch = xsdt::parse_arch(text.substr(0, space));
  if (!arch)
    return 0;
  std::string_view spec = text.substr(space + 1);
  const std::size_t newline = spec.find('\n');
  std::size_t tail_at = size;
  if (newline != std::string_view::npos) {
    tail_at = space + 1 + newline + 1;
    spec = spec.substr(0, newline);
  }
  Reader in{data + tail_at, size - tail_at};

  const std::uint8_t flags = in.byte();
  FakeMemory memory;
  memory.base = in.u64();
  memory.size = in.byte() % (kMaxWindow + 1);
  for (std::size_t i = 0; i < memory.size; ++i)
    memory.bytes[i] = in.byte();
  std::uint8_t perturb[16 + 8];
  for (std::uint8_t &b : perturb)
    b = in.byte();
  xsdt::RegisterFile regs;
  for (int r = 0; r < xsdt::kRegisterFileSize; ++r) {
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b)
      v |= std::uint64_t((r * 8 + b) * 37 % 251 ^ in.byte()) << (8 * b);
    regs.regs[r] = v;
  }

  auto loc = xsdt::parse_arg_spec(spec, *arch);
  if (!loc)
    return 0;
  auto compiled = xsdt::compile_arg(*loc, *arch);
  if (!compiled) {
    const xsdt::ParseError &e = compiled.error();
    XSDT_FUZZ_REQUIRE(e.position <= loc->spec.size());
    XSDT_FUZZ_REQUIRE(!e.message.empty());
    (void)e.to_string();
    return 0;
  }
  check_compiled(*loc, *arch, *compiled, regs, memory, flags & 2);
  if (flags & 1) {
    Reader p{perturb, sizeof perturb};
    check_malformed(*compiled, p, regs, memory);
  }
  return 0;
}
