// The aarch64 operand grammar (operands.cpp), for its descriptor.
#ifndef XSDT_ARCHES_AARCH64_H
#define XSDT_ARCHES_AARCH64_H

#include "xsdt/arch_port.h"

namespace xsdt::aarch64 {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs
// (consumers.cpp).
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::aarch64

#endif // XSDT_ARCHES_AARCH64_H
