// The armhf operand grammar (operands.cpp), for its descriptor.
#ifndef XSDT_ARCHES_ARMHF_H
#define XSDT_ARCHES_ARMHF_H

#include "xsdt/arch_port.h"

namespace xsdt::armhf {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs
// (consumers.cpp).
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::armhf

#endif // XSDT_ARCHES_ARMHF_H
