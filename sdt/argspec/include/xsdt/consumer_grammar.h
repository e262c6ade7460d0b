// What each USDT consumer (gdb, libbpf, bcc, perf, SystemTap) accepts of an
// arch's argument specs: one ConsumerGrammar per arch, which the arch's
// descriptor names (ArchDescriptor::consumer_grammar), in the manner of
// gdb's per-arch stap hooks. The rules are written from the consumers' own
// parsers (each ConsumerRules::source names the files and functions read);
// the generic engine that applies them, and the rules every arch shares
// (the `f` suffix, what follows a rejection), are xsdt-inspect's
// (sdt/inspect/consumers.h). Types only: no code, no dependencies.
#ifndef XSDT_CONSUMER_GRAMMAR_H
#define XSDT_CONSUMER_GRAMMAR_H

#include "xsdt/argspec.h"

#include <cstddef>

namespace xsdt {

enum class Consumer { Gdb, Libbpf, Bcc, Perf, Stap };
inline constexpr std::size_t kConsumerCount = 5;

enum class Verdict {
  Accepted, // read as the spec means it
  Misread,  // taken, but the value read is not the argument's
  Rejected, // not read (what else is lost: sdt/inspect/consumers.h)
  Unknown,  // the sources read do not settle it
};

// One consumer's ruling on one location. `reason` says why (for Accepted, an
// optional note, such as how the value is typed); a static string.
struct Ruling {
  Verdict verdict = Verdict::Accepted;
  const char *reason = nullptr;
};

struct ConsumerRules {
  // The files and functions the rules are written from, e.g.
  // "libbpf src/usdt.c parse_usdt_arg (x86)".
  const char *source = nullptr;
  // Non-null: this consumer reads no argument on this arch, and why.
  const char *unsupported = nullptr;
  // The operand as this consumer's parser reads it; null: every operand is
  // accepted. Called for locations that parsed on this arch, with the
  // generic rules (size field, `f`) already applied.
  Ruling (*operand)(const ArgLocation &loc) = nullptr;
};

struct ConsumerGrammar {
  ConsumerRules rules[kConsumerCount]; // indexed by Consumer
};

// Small predicates the arches' rule tables share.
namespace consumer_rules {

inline Ruling accepted(const char *note = nullptr) {
  return {Verdict::Accepted, note};
}
inline Ruling misread(const char *why) { return {Verdict::Misread, why}; }
inline Ruling rejected(const char *why) { return {Verdict::Rejected, why}; }
inline Ruling unknown(const char *why) { return {Verdict::Unknown, why}; }

// The register a location reads or addresses through (null for none).
inline const RegisterInfo *base_of(const ArgLocation &loc) {
  return loc.base ? &*loc.base : nullptr;
}

// SystemTap as measured (sdt-facts §8; its tapsets.cxx not read): plain
// integer registers and register-relative memory are read; anything outside
// the portable subset is unknown. An arch checks its own immediates first.
inline Ruling stap_measured(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic || loc.index ||
      loc.constant_expression)
    return unknown("outside the portable subset; SystemTap's tapsets.cxx "
                   "was not read for this form");
  if (loc.base && loc.base->cls != RegisterClass::General)
    return unknown("SystemTap's register map was not read for this name");
  return accepted();
}

} // namespace consumer_rules

} // namespace xsdt

#endif // XSDT_CONSUMER_GRAMMAR_H
