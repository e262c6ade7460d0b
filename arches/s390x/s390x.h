// The s390x operand grammar (operands.cpp), for its descriptor.
#ifndef XSDT_ARCHES_S390X_H
#define XSDT_ARCHES_S390X_H

#include "xsdt/arch_port.h"

namespace xsdt::s390x {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs
// (consumers.cpp).
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::s390x

#endif // XSDT_ARCHES_S390X_H
