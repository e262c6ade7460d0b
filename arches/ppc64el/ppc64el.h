// The ppc64el operand grammar (operands.cpp), for its descriptor.
#ifndef XSDT_ARCHES_PPC64EL_H
#define XSDT_ARCHES_PPC64EL_H

#include "xsdt/arch_port.h"

namespace xsdt::ppc64el {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs
// (consumers.cpp).
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::ppc64el

#endif // XSDT_ARCHES_PPC64EL_H
