// Which USDT consumers (gdb, libbpf, bcc, perf, SystemTap) read an argument
// spec, and what a probe loses when one of them rejects an argument. The
// grammar of each arch is its descriptor's (xsdt/consumer_grammar.h); the
// rules every arch shares are here: the size field (`f`, a missing SIZE@)
// and what follows a rejection, which is each consumer's own, not an
// arch's. The rules describe the grammar each consumer's source defines for
// the arch; libbcc and perf only run that grammar on a host of that arch.
#ifndef XSDT_INSPECT_CONSUMERS_H
#define XSDT_INSPECT_CONSUMERS_H

#include "xsdt/argspec.h"
#include "xsdt/consumer_grammar.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::inspect {

// "gdb", "libbpf", "bcc", "perf", "stap".
std::string_view consumer_name(Consumer c);
std::string_view verdict_name(Verdict v); // "accepted", "misread", ...
// Every consumer, in the order of Consumer.
const std::array<Consumer, kConsumerCount> &all_consumers();

struct ConsumerVerdict {
  Consumer consumer = Consumer::Gdb;
  Verdict verdict = Verdict::Accepted;
  std::string reason; // empty when accepted without a note
  std::string source; // where the rule comes from
};

// One parsed spec of `arch`, judged by every consumer (Consumer order).
// An arch without a consumer grammar yields Unknown everywhere.
std::vector<ConsumerVerdict> judge_arg(const ArgLocation &loc, Arch arch);

// What a rejection costs a probe in each consumer.
enum class RejectionScope {
  Argument,         // that argument alone (perf skips it; stap fails the
                    // script that reads it)
  ArgumentAndLater, // that argument and every later one (gdb, libbcc)
  Probe,            // the whole probe (libbpf cannot attach it)
};
RejectionScope rejection_scope(Consumer c);

struct ProbeConsumerReport {
  Consumer consumer = Consumer::Gdb;
  std::vector<std::size_t> rejected; // argument indexes, in order
  std::vector<std::size_t> lost;     // every argument the consumer loses
  bool probe_lost = false;           // RejectionScope::Probe and a rejection
};

// The arguments of one probe, in order: per consumer, what it rejects and
// what it loses with them.
std::vector<ProbeConsumerReport>
judge_probe(const std::vector<std::vector<ConsumerVerdict>> &args);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_CONSUMERS_H
