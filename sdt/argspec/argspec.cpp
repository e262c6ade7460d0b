// The spec layer: `[-]SIZE[f]@OPERAND` and space-separated argument lists.
// The operand after '@' is the arch's (its descriptor's grammar).
#include "xsdt/argspec.h"
#include "xsdt/arch_port.h"

namespace xsdt {
namespace detail {

RegisterInfo require_register(Arch arch, std::string_view name,
                              std::size_t position) {
  if (auto reg = lookup_register(arch, name))
    return *reg;
  fail("unknown " + std::string(arch_name(arch)) + " register",
       arch.descriptor().register_prefix + std::string(name), position);
}

void require_address_register(const RegisterInfo &reg, std::size_t position) {
  if (reg.cls == RegisterClass::Vector)
    fail("a floating-point register cannot address memory", reg.name,
         position);
}

void set_base(ArgLocation &loc, const RegisterInfo &reg) {
  loc.base_reg = reg.name;
  loc.base = reg;
}

void set_index(ArgLocation &loc, const RegisterInfo &reg, int scale) {
  loc.index_reg = reg.name;
  loc.index = reg;
  loc.scale = scale;
}

void mark_symbolic(ArgLocation &loc, std::string_view why) {
  loc.kind = LocationKind::Symbolic;
  loc.symbolic_reason = std::string(why) + ": " + loc.operand;
}

namespace {

ArgLocation parse_spec_or_throw(std::string_view spec, std::size_t origin,
                                Arch arch);

ArgLocation parse_spec(std::string_view spec, std::size_t origin, Arch arch) {
  try {
    return parse_spec_or_throw(spec, origin, arch);
  } catch (Failure &f) {
    f.error.spec = spec;
    throw;
  }
}

// Whether spec starts with a size prefix, `[-]DIGITS[f]@`. Without one it is
// the SDT v1 spelling, an operand alone; gdb reads it (as a `long`), so the
// parser does too. The prefix test is gdb's (stap-probe.c), widened to any
// digits so that `16@%rax` is a bad size rather than a bad operand.
bool has_size_prefix(std::string_view spec) {
  std::size_t i = spec.starts_with('-') ? 1 : 0;
  std::size_t digits = i;
  while (i < spec.size() && is_digit(spec[i]))
    ++i;
  if (i == digits)
    return false;
  if (i < spec.size() && spec[i] == 'f')
    ++i;
  return i < spec.size() && spec[i] == '@';
}

ArgLocation parse_spec_or_throw(std::string_view spec, std::size_t origin,
                                Arch arch) {
  ArgLocation loc;
  loc.spec = spec;
  if (!spec.empty() && !has_size_prefix(spec)) {
    loc.sized = false;
    loc.size = arch.descriptor().word_bits / 8;
    loc.is_signed = true;
    loc.operand = spec;
    Lexer lx(loc.operand, origin);
    parse_operand_or_expression(lx, arch, loc);
    return loc;
  }
  std::size_t i = 0;
  if (i < spec.size() && spec[i] == '-') {
    loc.is_signed = true;
    ++i;
  }
  std::size_t size_at = i;
  while (i < spec.size() && is_digit(spec[i]))
    ++i;
  std::string_view size = spec.substr(size_at, i - size_at);
  if (size.empty())
    fail("expected the argument size (1, 2, 4 or 8)", spec.substr(0, 1),
         origin + size_at);
  if (size != "1" && size != "2" && size != "4" && size != "8")
    fail("argument size must be 1, 2, 4 or 8", size, origin + size_at);
  loc.size = size[0] - '0';
  if (i < spec.size() && spec[i] == 'f') {
    loc.is_float = true;
    ++i;
  }
  if (i >= spec.size())
    fail("missing '@' and operand after the argument size", spec, origin);
  if (spec[i] != '@')
    fail("expected '@' after the argument size", spec.substr(i, 1), origin + i);
  ++i;
  loc.operand = spec.substr(i);
  if (loc.operand.empty())
    fail("missing operand after '@'", spec, origin);
  Lexer lx(loc.operand, origin + i);
  parse_operand_or_expression(lx, arch, loc);
  return loc;
}

std::vector<SpecText> split(std::string_view args) {
  std::vector<SpecText> specs;
  if (args.empty() || args[0] == ':')
    return specs;
  auto push = [&](std::size_t start, std::size_t end) {
    if (start == end)
      fail("empty argument spec (specs are separated by single spaces)", " ",
           end < args.size() ? end : end - 1);
    if (specs.size() == kMaxArgs)
      fail("more than 12 arguments", args.substr(start, end - start), start);
    specs.push_back(SpecText{args.substr(start, end - start), start});
  };
  // gdb reads spaces inside parentheses as part of an expression
  // (`8@$100-(  ($8+$10) -$50)+$3`); only parentheses that close count.
  std::vector<int> in_parens(args.size() + 1, 0);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == '(') {
      open.push_back(i);
    } else if (args[i] == ')' && !open.empty()) {
      ++in_parens[open.back() + 1];
      --in_parens[i];
      open.pop_back();
    }
  }
  int depth = 0; // aarch64 writes `[sp, 16]` with a space inside brackets
  int parens = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    parens += in_parens[i];
    if (args[i] == '[')
      ++depth;
    else if (args[i] == ']' && depth > 0)
      --depth;
    else if (args[i] == ' ' && depth == 0 && parens == 0) {
      push(start, i);
      start = i + 1;
    }
  }
  push(start, args.size());
  return specs;
}

} // namespace
} // namespace detail

std::string ParseError::to_string() const {
  std::string at = "at position " + std::to_string(position);
  if (!token.empty())
    return "bad token '" + token + "' " + at + ": " + message;
  if (!spec.empty())
    return at + ", the end of '" + spec + "': " + message;
  return at + ": " + message;
}

std::string_view kind_name(LocationKind kind) {
  switch (kind) {
  case LocationKind::Register:
    return "register";
  case LocationKind::Memory:
    return "memory";
  case LocationKind::Immediate:
    return "immediate";
  case LocationKind::Symbolic:
    return "symbolic";
  }
  return "unknown";
}

Parsed<ArgLocation> parse_arg_spec(std::string_view spec, Arch arch) {
  try {
    return detail::parse_spec(spec, 0, arch);
  } catch (const detail::Failure &f) {
    return f.error;
  }
}

Parsed<std::vector<SpecText>> split_arg_specs(std::string_view args) {
  try {
    return detail::split(args);
  } catch (const detail::Failure &f) {
    return f.error;
  }
}

Parsed<std::vector<ArgLocation>> parse_arg_specs(std::string_view args,
                                                 Arch arch) {
  try {
    std::vector<ArgLocation> locs;
    for (const SpecText &spec : detail::split(args))
      locs.push_back(detail::parse_spec(spec.text, spec.position, arch));
    return locs;
  } catch (const detail::Failure &f) {
    return f.error;
  }
}

} // namespace xsdt
