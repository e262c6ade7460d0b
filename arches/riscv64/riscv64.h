// The riscv64 operand grammar (operands.cpp), for its descriptor.
#ifndef XSDT_ARCHES_RISCV64_H
#define XSDT_ARCHES_RISCV64_H

#include "xsdt/arch_port.h"

namespace xsdt::riscv64 {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs
// (consumers.cpp).
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::riscv64

#endif // XSDT_ARCHES_RISCV64_H
