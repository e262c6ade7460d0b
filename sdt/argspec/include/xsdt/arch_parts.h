// The two parts of a port that its descriptor takes from the port's other
// files: the operand grammar (operands.cpp) and what the consumers accept of
// its specs (consumers.cpp). Every arch library is compiled with
// XSDT_ARCH_NS set to its directory's name (sdt/argspec/CMakeLists.txt,
// lit-tests/tools/build-runtime.py), which is the namespace of its parts:
// one declaration for every port instead of one header each.
#ifndef XSDT_ARCH_PARTS_H
#define XSDT_ARCH_PARTS_H

#include "xsdt/arch_port.h"

#ifndef XSDT_ARCH_NS
#error "xsdt/arch_parts.h is for the sources of arches/<arch>/ (XSDT_ARCH_NS)"
#endif

namespace xsdt::XSDT_ARCH_NS {

void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::XSDT_ARCH_NS

#endif // XSDT_ARCH_PARTS_H
