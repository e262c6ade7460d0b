#include "consumers.h"

#include "xsdt/arch_port.h"

namespace xsdt::inspect {
namespace {

// The size field, read by each consumer's generic code before the arch's
// operand grammar: gdb stap-probe.c stap_probe::parse_arguments takes
// [-]N@ and nothing else; libbpf usdt.c parse_usdt_arg (every arch) starts
// with sscanf ' %d @'; every bcc parser (usdt_args.cc) wants '@' right
// after the number; perf util/probe-file.c reads the size itself (measured,
// sdt-facts §8: `8f@` read as u64 bits); SystemTap accepts `f` (measured).
std::optional<Ruling> float_ruling(Consumer c) {
  switch (c) {
  case Consumer::Gdb:
    return Ruling{Verdict::Rejected,
                  "gdb 13 reads the size as [-]N@ only "
                  "(stap_probe::parse_arguments): 'Nf@' is no operand"};
  case Consumer::Libbpf:
    return Ruling{Verdict::Rejected,
                  "libbpf's ' %d @' stops at the f (parse_usdt_arg)"};
  case Consumer::Bcc:
    return Ruling{Verdict::Rejected,
                  "bcc's parsers want '@' right after the size "
                  "(usdt_args.cc)"};
  case Consumer::Perf:
  case Consumer::Stap:
    return std::nullopt;
  }
  return std::nullopt;
}

const char *float_note(Consumer c) {
  return c == Consumer::Perf ? "perf reads the IEEE bits as an integer (u64)"
                             : nullptr;
}

// An operand without SIZE@ (SDT v1).
std::optional<Ruling> unsized_ruling(Consumer c) {
  switch (c) {
  case Consumer::Libbpf:
    return Ruling{Verdict::Rejected,
                  "libbpf needs SIZE@ (parse_usdt_arg: ' %d @')"};
  case Consumer::Perf:
    return Ruling{Verdict::Unknown,
                  "perf's reading of a spec without SIZE@ was not read"};
  case Consumer::Gdb:  // a signed word (stap_get_expected_argument_type)
  case Consumer::Bcc:  // the arch's parser decides
  case Consumer::Stap: // SDT v1, still read (measured)
    return std::nullopt;
  }
  return std::nullopt;
}

// A gdb expression (operators and parentheses over the arch's operands,
// ArgLocation::expression): stap-probe.c's own syntax (stap_parse_argument),
// which no other consumer's parser has.
std::optional<Ruling> expression_ruling(Consumer c) {
  switch (c) {
  case Consumer::Gdb:
    return Ruling{Verdict::Accepted,
                  "gdb evaluates it (stap_parse_argument's operators)"};
  case Consumer::Libbpf:
    return Ruling{Verdict::Rejected,
                  "libbpf reads one operand, no operators (parse_usdt_arg)"};
  case Consumer::Bcc:
    return Ruling{Verdict::Rejected,
                  "bcc reads one operand, no operators (usdt_args.cc)"};
  case Consumer::Perf:
    return Ruling{Verdict::Rejected,
                  "perf skips it: its regexes match one operand "
                  "(arch_sdt_arg_parse_op)"};
  case Consumer::Stap:
    return Ruling{Verdict::Unknown,
                  "SystemTap's tapsets.cxx was not read for expressions"};
  }
  return std::nullopt;
}

} // namespace

std::string_view consumer_name(Consumer c) {
  switch (c) {
  case Consumer::Gdb:
    return "gdb";
  case Consumer::Libbpf:
    return "libbpf";
  case Consumer::Bcc:
    return "bcc";
  case Consumer::Perf:
    return "perf";
  case Consumer::Stap:
    return "stap";
  }
  return "?";
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
  case Verdict::Accepted:
    return "accepted";
  case Verdict::Misread:
    return "misread";
  case Verdict::Rejected:
    return "rejected";
  case Verdict::Unknown:
    return "unknown";
  }
  return "?";
}

const std::array<Consumer, kConsumerCount> &all_consumers() {
  static constexpr std::array<Consumer, kConsumerCount> kAll = {
      Consumer::Gdb, Consumer::Libbpf, Consumer::Bcc, Consumer::Perf,
      Consumer::Stap};
  return kAll;
}

std::vector<ConsumerVerdict> judge_arg(const ArgLocation &loc, Arch arch) {
  const ConsumerGrammar *grammar = arch.descriptor().consumer_grammar;
  std::vector<ConsumerVerdict> out;
  for (Consumer c : all_consumers()) {
    ConsumerVerdict v;
    v.consumer = c;
    auto set = [&v](const Ruling &r) {
      v.verdict = r.verdict;
      v.reason = r.reason ? r.reason : "";
    };
    if (!grammar) {
      set({Verdict::Unknown, "no consumer grammar for this arch"});
      out.push_back(std::move(v));
      continue;
    }
    const ConsumerRules &rules = grammar->rules[static_cast<std::size_t>(c)];
    v.source = rules.source ? rules.source : "";
    if (rules.unsupported) {
      set({Verdict::Rejected, rules.unsupported});
    } else if (auto r = loc.is_float ? float_ruling(c) : std::nullopt) {
      set(*r);
    } else if (auto u = !loc.sized ? unsized_ruling(c) : std::nullopt) {
      set(*u);
    } else if (loc.expression) {
      set(*expression_ruling(c));
    } else {
      set(rules.operand ? rules.operand(loc) : Ruling{});
      if (loc.is_float && v.verdict == Verdict::Accepted && v.reason.empty())
        if (const char *note = float_note(c))
          v.reason = note;
    }
    out.push_back(std::move(v));
  }
  return out;
}

RejectionScope rejection_scope(Consumer c) {
  switch (c) {
  case Consumer::Gdb: // parse_arguments throws: the later ones are not parsed
  case Consumer::Bcc: // measured, sdt-facts §8
    return RejectionScope::ArgumentAndLater;
  case Consumer::Libbpf: // parse_usdt_spec fails, the attach with it
    return RejectionScope::Probe;
  case Consumer::Perf: // SDT_ARG_SKIP: the argument is left out
  case Consumer::Stap:
    return RejectionScope::Argument;
  }
  return RejectionScope::Argument;
}

std::vector<ProbeConsumerReport>
judge_probe(const std::vector<std::vector<ConsumerVerdict>> &args) {
  std::vector<ProbeConsumerReport> out;
  for (Consumer c : all_consumers()) {
    ProbeConsumerReport r;
    r.consumer = c;
    const auto k = static_cast<std::size_t>(c);
    for (std::size_t i = 0; i < args.size(); ++i)
      if (args[i][k].verdict == Verdict::Rejected)
        r.rejected.push_back(i);
    if (!r.rejected.empty()) {
      switch (rejection_scope(c)) {
      case RejectionScope::Argument:
        r.lost = r.rejected;
        break;
      case RejectionScope::ArgumentAndLater:
        for (std::size_t i = r.rejected.front(); i < args.size(); ++i)
          r.lost.push_back(i);
        break;
      case RejectionScope::Probe:
        for (std::size_t i = 0; i < args.size(); ++i)
          r.lost.push_back(i);
        r.probe_lost = true;
        break;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace xsdt::inspect
