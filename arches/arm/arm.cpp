// The core registers and the portability rules of 32-bit ARM (arm.h).
//
// Register numbers (DWARF for the ARM architecture): 0..15 r0..r15.
#include "arm/arm.h"

namespace xsdt::arm {
namespace {

bool low_register(const RegisterInfo &reg) {
  return reg.cls == RegisterClass::General && reg.dwarf <= 10 &&
         reg.name == reg.full_name;
}

// ULEB128 at `at`, which it moves past; false at the end of the bytes.
bool read_uleb(std::span<const unsigned char> b, std::size_t &at,
               std::uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; at < b.size() && shift < 64; shift += 7) {
    const unsigned char byte = b[at++];
    value |= std::uint64_t{byte & 0x7fu} << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

bool skip_string(std::span<const unsigned char> b, std::size_t &at) {
  while (at < b.size())
    if (b[at++] == 0)
      return true;
  return false;
}

std::uint32_t read_le32(std::span<const unsigned char> b, std::size_t at) {
  return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 |
         std::uint32_t{b[at + 2]} << 16 | std::uint32_t{b[at + 3]} << 24;
}

// Tag_ABI_VFP_args of the "aeabi" file attributes (ARM IHI 0045, "Build
// Attributes"): 'A', then subsections of (length, vendor name, data), the
// data sub-subsections of (tag 1 = the file, size, attributes); an
// attribute is a ULEB tag and a value, a string for tags 4, 5 and 67 and
// the odd ones from 33 up, a ULEB and a string for 32, a ULEB otherwise.
// nullopt where the bytes are not that form.
std::optional<std::uint64_t> vfp_args(std::span<const unsigned char> b) {
  constexpr std::uint64_t kTagFile = 1, kTagVfpArgs = 28,
                          kTagCompatibility = 32;
  if (b.empty() || b[0] != 'A')
    return std::nullopt;
  for (std::size_t sub = 1; sub + 4 <= b.size();) {
    const std::uint32_t length = read_le32(b, sub);
    if (length < 4 || length > b.size() - sub)
      return std::nullopt;
    std::span<const unsigned char> data = b.subspan(sub + 4, length - 4);
    sub += length;
    std::size_t at = 0;
    if (!skip_string(data, at))
      return std::nullopt;
    if (std::string(reinterpret_cast<const char *>(data.data())) != "aeabi")
      continue;
    while (at + 5 <= data.size()) {
      const unsigned char tag = data[at];
      const std::uint32_t size = read_le32(data, at + 1);
      if (size < 5 || size > data.size() - at)
        return std::nullopt;
      std::span<const unsigned char> attrs = data.subspan(at + 5, size - 5);
      at += size;
      if (tag != kTagFile)
        continue;
      for (std::size_t a = 0; a < attrs.size();) {
        std::uint64_t t = 0, value = 0;
        if (!read_uleb(attrs, a, t))
          return std::nullopt;
        const bool text = t == 4 || t == 5 || t == 67 || (t > 32 && t % 2);
        if (text ? !skip_string(attrs, a) : !read_uleb(attrs, a, value))
          return std::nullopt;
        if (t == kTagCompatibility && !skip_string(attrs, a))
          return std::nullopt;
        if (t == kTagVfpArgs)
          return value;
      }
      return 0; // absent: the base standard, core registers
    }
  }
  return std::nullopt;
}

} // namespace

bool soft_float_file(std::uint32_t e_flags,
                     std::span<const unsigned char> attributes) {
  constexpr std::uint32_t kFloatHard = 0x400, kFloatSoft = 0x200;
  if (e_flags & (kFloatHard | kFloatSoft))
    return (e_flags & kFloatSoft) != 0;
  const std::optional<std::uint64_t> args = vfp_args(attributes);
  return args && *args != 1;
}

void add_core_registers(std::vector<RegisterInfo> &t) {
  for (int n = 0; n < 15; ++n) {
    const std::string name = "r" + std::to_string(n);
    detail::add_register(t, name, name, n, 0, 32);
  }
  detail::add_register(t, "r15", "r15", 15, 0, 32,
                       RegisterClass::ProgramCounter);
  struct Alias {
    const char *name;
    int number;
  };
  for (Alias a : {Alias{"sb", 9}, Alias{"sl", 10}, Alias{"fp", 11},
                  Alias{"ip", 12}, Alias{"sp", 13}, Alias{"lr", 14}})
    detail::add_register(t, a.name, "r" + std::to_string(a.number), a.number, 0,
                         32);
  detail::add_register(t, "pc", "r15", 15, 0, 32,
                       RegisterClass::ProgramCounter);
}

// libbpf reads only r0..r10, fp, ip, sp and lr (calc_pt_regs_off):
// r11..r14, sb and sl are lost on libbpf. gdb reads ip as r12, but fp as
// its own frame-base register $fp, not r11 (lit-tests/consumers: [fp, #0]
// read 0): r11 has no name both read.
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.cls != RegisterClass::General || low_register(reg))
    return std::nullopt;
  if (reg.name == "fp")
    return "register name fp: gdb reads fp as its frame base $fp, not r11; "
           "libbpf reads no r11";
  if (reg.name == "ip" || reg.name == "sp" || reg.name == "lr")
    return std::nullopt;
  return "register name " + reg.name +
         ": libbpf reads only r0..r10, fp, ip, sp and lr";
}

// '#' is what libbpf's formats require before a displacement
// (`[%15[a-z0-9] , #%ld ]`); gdb stops at an index register ("Missing
// indirection suffix").
std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "index register in " + loc.operand + ": gdb cannot read it";
  if (loc.has_displacement && loc.operand.find('#') == std::string::npos)
    return loc.operand + " without '#' before the displacement: libbpf " +
           "requires [R, #D]";
  return std::nullopt;
}

// A bare register: gdb reads rN only ("Operator `i' not recognized" for
// ip), libbpf r0..r10 and the aliases: r0..r10 is what both read. An
// immediate: libbpf reads #N only (a bare 5 is a register named 5 to it).
std::optional<std::string> location_violation(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Register && loc.base &&
      loc.base->cls == RegisterClass::General && !low_register(*loc.base))
    return "bare register " + loc.base->name +
           ": gdb reads only rN, libbpf only r0..r10 and the aliases fp, "
           "ip, sp, lr; r0..r10 is what both read";
  if (loc.kind == LocationKind::Immediate &&
      loc.operand.find('#') == std::string::npos)
    return "immediate " + loc.operand +
           " without '#': libbpf reads a bare number as a register name";
  return std::nullopt;
}

} // namespace xsdt::arm
