// Internal to xsdt_argspec: the per-architecture operand grammars. Each
// fills the location fields of `loc` (kind, registers, displacement,
// immediate) from the operand under `lx`, or fails with detail::Failure.
#ifndef XSDT_ARGSPEC_OPERANDS_H
#define XSDT_ARGSPEC_OPERANDS_H

#include "lexer.h"
#include "xsdt/argspec.h"

#include <string_view>

namespace xsdt::detail {

// AT&T syntax, both x86-64 and i386.
void parse_x86_operand(Lexer &lx, Arch arch, ArgLocation &loc);
void parse_aarch64_operand(Lexer &lx, ArgLocation &loc);
void parse_riscv64_operand(Lexer &lx, ArgLocation &loc);

// Looks `name` up and fails, naming it, when `arch` has no such register.
RegisterInfo require_register(Arch arch, std::string_view name,
                              std::size_t position);

void set_base(ArgLocation &loc, const RegisterInfo &reg);
void set_index(ArgLocation &loc, const RegisterInfo &reg, int scale);
void mark_symbolic(ArgLocation &loc, std::string_view why);

} // namespace xsdt::detail

#endif // XSDT_ARGSPEC_OPERANDS_H
