// xsdt-arch-specific: a table of verdicts per arch grammar, as each
// consumer's source defines them for that arch.
// The consumer-grammar rules (sdt/inspect/consumers.h and each arch's
// consumers.cpp) against verdicts read off the consumers' own parsers and
// the measured facts (shared sdt-facts §7, §8). Each row names where its
// expectation comes from; none is taken from xsdt-inspect's output.
#include "consumers.h"

#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <string>

namespace xsdt::inspect {
namespace {

struct Row {
  const char *arch;
  const char *spec;
  Consumer consumer;
  Verdict expected;
  const char *why; // the source of the expectation
};

std::ostream &operator<<(std::ostream &os, const Row &r) {
  return os << r.arch << " '" << r.spec << "' " << consumer_name(r.consumer)
            << " (" << r.why << ")";
}

using enum Consumer;
constexpr Verdict A = Verdict::Accepted, R = Verdict::Rejected,
                  M = Verdict::Misread, U = Verdict::Unknown;

const Row kRows[] = {
    // The `f` suffix (sdt-facts §8, measured).
    // gdb's expressions (gdb.arch/amd64-stap-expressions.S): gdb's own.
    {"x86_64", "8@$3+($10-$8)-$1", Gdb, A, "stap-probe.c stap_parse_argument"},
    {"x86_64", "8@$3+($10-$8)-$1", Libbpf, R, "usdt.c: one operand"},
    {"x86_64", "8@$3+($10-$8)-$1", Bcc, R, "usdt_args.cc: one operand"},
    {"x86_64", "8@$3+($10-$8)-$1", Perf, R, "perf_regs.c regex: one operand"},
    {"riscv64", "8@a0+a1", Gdb, R, "riscv-linux-tdep.c: no stap hooks"},
    {"x86_64", "8f@%r11", Gdb, R, "sdt-facts §8: gdb 13 rejects f"},
    {"x86_64", "8f@%r11", Bcc, R, "sdt-facts §8: libbcc rejects f"},
    {"x86_64", "8f@%r11", Libbpf, R, "usdt.c parse_usdt_arg ' %d @'"},
    {"x86_64", "8f@%r11", Perf, A, "sdt-facts §8: perf reads u64 bits"},
    {"x86_64", "8f@%r11", Stap, A, "sdt-facts §8: stap accepts f"},
    {"aarch64", "8f@x0", Bcc, R, "usdt_args.cc aarch64 parse: '@' check"},
    // Immediates.
    {"x86_64", "4@$42", Perf, R, "perf_regs.c x86: strchr(op, '$') skips"},
    {"x86_64", "4@$42", Libbpf, A, "usdt.c x86 ' %d @ $%ld'"},
    {"x86_64", "4@$42", Gdb, A, "stap-probe.c: '$' integer prefix"},
    {"aarch64", "4@42", Perf, R, "perf_regs.c arm64: no regex for numbers"},
    {"aarch64", "4@42", Stap, A, "sdt-facts §8: stap bare imm aarch64"},
    {"riscv64", "4@42", Stap, R, "sdt-facts §8: stap bare imm riscv64"},
    {"riscv64", "4@42", Libbpf, A, "usdt.c riscv ' %d @ %ld'"},
    {"aarch64", "4@#42", Libbpf, R, "usdt.c aarch64: %ld fails on '#'"},
    {"armhf", "4@#42", Libbpf, A, "usdt.c arm ' %d @ #%ld'"},
    {"armhf", "-4@42", Libbpf, R, "usdt.c arm: bare number is a reg name"},
    {"ppc64el", "4@i42", Perf, R, "perf_regs.c powerpc: 'i' skipped"},
    {"ppc64el", "4@i42", Bcc, A, "usdt_args.cc ppc64 ^i(-?[0-9]+)"},
    {"i386", "-8@$4886718345", Gdb, M, "sdt-facts §2: truncated to 32 bits"},
    {"x86_64", "-8@$4886718345", Gdb, A, "sdt-facts §2: i386 only"},
    // x86 register names.
    {"x86_64", "1@%r10b", Gdb, R, "sdt-facts §8: gdb rejects %r10b"},
    {"x86_64", "1@%dil", Gdb, A, "sdt-facts §8: gdb accepts %dil"},
    {"x86_64", "2@%r8w", Gdb, A, "sdt-facts §8: gdb accepts %r8w"},
    {"x86_64", "1@%r10b", Libbpf, A, "usdt.c calc_pt_regs_off has r10b"},
    {"x86_64", "1@%ah", Libbpf, R, "usdt.c calc_pt_regs_off: no ah"},
    {"x86_64", "1@%ah", Bcc, R, "usdt_args.cc registers_: no ah"},
    {"x86_64", "1@%ah", Perf, M, "perf_regs.c sdt_reg_tbl: ah -> ax"},
    // Measured by conformance/consumers/grammar_check.py (vectors/x86_64.txt).
    {"x86_64", "-4@calls.0(%rip)", Bcc, R, "measured: '.' stops the parse"},
    {"x86_64", "8@sym(%rip)", Bcc, A, "measured: tplist parses sym(%rip)"},
    {"x86_64", "-4@42", Bcc, R, "measured: a bare number is an error"},
    {"x86_64", "-4@42", Perf, R, "measured: perf skips it"},
    {"x86_64", "-4@42", Stap, R, "measured: stap -p2 fails"},
    {"x86_64", "4@%eip", Perf, R, "measured: uprobe_events has no eip"},
    {"x86_64", "-4@8(%rax,%rbx,4)", Stap, A, "measured: stap -p2 elaborates"},
    {"x86_64", "8@sym(%rip)", Stap, R, "measured: stap -p2 fails"},
    {"x86_64", "-4@-20(%rbp)", Perf, A, "perf_regs.c SDT_OP_REGEX"},
    // x86 memory forms.
    {"x86_64", "-4@-20(%rbp,%rax,8)", Libbpf, R,
     "usdt.c before 1.7: reg name 'rbp,%rax,8'"},
    {"x86_64", "-4@-20(%rbp,%rax,8)", Bcc, A, "usdt_args.cc parse_expr ','"},
    {"x86_64", "-4@-20(%rbp,%rax,8)", Perf, R, "perf_regs.c: ',' skipped"},
    {"x86_64", "-4@-4+16-16(%rbp)", Libbpf, R, "usdt.c %ld then '('"},
    {"x86_64", "-4@-4+16-16(%rbp)", Bcc, R, "usdt_args.cc NUM+IDENT only"},
    {"x86_64", "4@g(%rip)", Bcc, A, "usdt_args.cc deref_ident with ip"},
    {"x86_64", "4@g(%rip)", Libbpf, R, "usdt.c %ld before '('"},
    {"x86_64", "4@g(%rip)", Perf, R, "perf_regs.c regex: digits only"},
    // aarch64.
    {"aarch64", "-4@[sp, 96]", Libbpf, A, "usdt.c ' %d @ [ reg , %ld ]'"},
    {"aarch64", "-4@[sp, 96]", Perf, A, "perf_regs.c arm64 [sp, NUM]"},
    {"aarch64", "-4@[x29, -8]", Perf, R, "perf_regs.c arm64: [sp...] only"},
    {"aarch64", "-4@[x29, -8]", Bcc, A, "usdt_args.cc parse_mem strtoull"},
    {"aarch64", "-4@[x0, #8]", Libbpf, M, "usdt.c: [ reg ] format counts 2"},
    {"aarch64", "-4@[x0, #8]", Bcc, R, "usdt_args.cc parse_number on '#'"},
    {"aarch64", "-4@[x0, #8]", Gdb, A, "aarch64_stap_parse_special_token"},
    {"aarch64", "-4@w0", Libbpf, R, "usdt.c calc_pt_regs_off x%d or sp"},
    {"aarch64", "-4@w0", Bcc, R, "usdt_args.cc parse_register x or sp"},
    {"aarch64", "8@x30", Perf, R, "perf_regs.c ^(x[1-2]?[0-9]|3[0-1])$"},
    {"aarch64", "8@x29", Perf, A, "perf_regs.c ^(x[1-2]?[0-9]|3[0-1])$"},
    {"aarch64", "8@x30", Libbpf, A, "usdt.c reg_num < 31"},
    // riscv64.
    {"riscv64", "-4@a0", Gdb, R, "sdt-facts §7: gdb 13 no riscv64 args"},
    {"riscv64", "-4@a0", Perf, R, "util/perf_regs.c weak: SDT_ARG_SKIP"},
    {"riscv64", "-8@-88(s0)", Libbpf, A, "usdt.c ' %d @ %ld ( reg )'"},
    {"riscv64", "-8@(a0)", Libbpf, R, "usdt.c riscv: offset required"},
    {"riscv64", "-8@-88(fp)", Libbpf, R, "usdt.c calc_pt_regs_off: no fp"},
    // ppc64el.
    {"ppc64el", "-4@3", Libbpf, R, "usdt.c: no powerpc parse_usdt_arg"},
    {"ppc64el", "-4@3", Gdb, A, "ppc-linux-tdep.c: register by number"},
    {"ppc64el", "-4@3", Perf, A, "perf_regs.c powerpc ^(%r)?N$"},
    {"ppc64el", "-2@3,4", Gdb, R, "sdt-facts §7: Invalid operator ','"},
    {"ppc64el", "-2@3,4", Bcc, M, "usdt_args.cc ppc: scale_ = size"},
    {"ppc64el", "-8@0(10)", Bcc, A, "usdt_args.cc ppc breg_off"},
    // s390x.
    {"s390x", "-2@16(%r3,%r2)", Gdb, R, "sdt-facts §7: Missing indirection"},
    {"s390x", "-2@16(%r3,%r2)", Libbpf, M, "usdt.c s390x: count 3 met"},
    {"s390x", "-2@16(%r3,%r2)", Bcc, A, "usdt_args.cc s390x mem regex"},
    {"s390x", "-8@160(%r15)", Perf, R, "util/perf_regs.c weak: skip"},
    {"s390x", "4@42", Libbpf, A, "usdt.c s390x ' %d @ %ld'"},
    // armhf.
    {"armhf", "-4@r0", Bcc, R, "sdt-facts §8/porting: no 32-bit ARM parser"},
    {"armhf", "-2@ip", Gdb, R, "sdt-facts §7: Operator `i' not recognized"},
    {"armhf", "-2@ip", Libbpf, A, "usdt.c arm calc_pt_regs_off has ip"},
    {"armhf", "-4@r11", Libbpf, R, "usdt.c arm: r0..r10 then fp"},
    {"armhf", "-2@[r0, r1, lsl #1]", Gdb, R, "sdt-facts §7: Missing indir."},
    {"armhf", "-8@[sp, #8]", Libbpf, A, "usdt.c ' %d @ [ reg , #%ld ]'"},
    {"armhf", "-8@#4886718345", Gdb, M, "sdt-facts §7: 591751049"},
};

class ConsumerRule : public ::testing::TestWithParam<Row> {};

TEST_P(ConsumerRule, Verdict) {
  const Row &row = GetParam();
  auto arch = parse_arch(row.arch);
  ASSERT_TRUE(arch) << row.arch;
  auto loc = parse_arg_spec(row.spec, *arch);
  ASSERT_TRUE(loc) << loc.error().to_string();
  auto verdicts = judge_arg(*loc, *arch);
  ASSERT_EQ(verdicts.size(), kConsumerCount);
  const ConsumerVerdict &v = verdicts[static_cast<std::size_t>(row.consumer)];
  EXPECT_EQ(v.consumer, row.consumer);
  EXPECT_EQ(verdict_name(v.verdict), verdict_name(row.expected))
      << "reason: " << v.reason;
  EXPECT_FALSE(v.source.empty());
  if (v.verdict == Verdict::Rejected || v.verdict == Verdict::Misread) {
    EXPECT_FALSE(v.reason.empty()) << "a rejection names its rule";
  }
}

INSTANTIATE_TEST_SUITE_P(Table, ConsumerRule, ::testing::ValuesIn(kRows));

// Every arch of the build describes every consumer, with a source.
TEST(ConsumerGrammar, EveryArchHasOne) {
  for (Arch arch : all_arches()) {
    const ConsumerGrammar *g = arch.descriptor().consumer_grammar;
    ASSERT_NE(g, nullptr) << arch_name(arch);
    for (const ConsumerRules &rules : g->rules) {
      EXPECT_NE(rules.source, nullptr) << arch_name(arch);
      EXPECT_TRUE(rules.unsupported || rules.operand) << arch_name(arch);
    }
  }
}

std::vector<std::vector<ConsumerVerdict>> judge_all(const char *arch_text,
                                                    const char *args) {
  auto arch = parse_arch(arch_text);
  auto locs = parse_arg_specs(args, *arch);
  EXPECT_TRUE(locs);
  std::vector<std::vector<ConsumerVerdict>> out;
  for (const ArgLocation &loc : *locs)
    out.push_back(judge_arg(loc, *arch));
  return out;
}

const ProbeConsumerReport &of(const std::vector<ProbeConsumerReport> &all,
                              Consumer c) {
  return all[static_cast<std::size_t>(c)];
}

// sdt-facts §8: gdb and libbcc drop the rejected argument and every later
// one; perf skips that argument alone; libbpf fails the whole spec
// (usdt.c parse_usdt_spec returns the error).
TEST(ConsumerProbe, WhatARejectionCosts) {
  auto probe = judge_probe(judge_all("x86_64", "-4@%edi 8f@%r11 4@$42 8@%rax"));
  EXPECT_EQ(of(probe, Gdb).rejected, (std::vector<std::size_t>{1}));
  EXPECT_EQ(of(probe, Gdb).lost, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(of(probe, Bcc).lost, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(of(probe, Perf).lost, (std::vector<std::size_t>{2}));
  EXPECT_TRUE(of(probe, Libbpf).probe_lost);
  EXPECT_EQ(of(probe, Libbpf).lost, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_TRUE(of(probe, Stap).lost.empty());
}

TEST(ConsumerProbe, NothingLostWhenAllAccept) {
  auto probe = judge_probe(judge_all("x86_64", "-4@%edi 8@-8(%rbp)"));
  for (const ProbeConsumerReport &r : probe) {
    EXPECT_TRUE(r.lost.empty()) << consumer_name(r.consumer);
    EXPECT_FALSE(r.probe_lost);
  }
}

} // namespace
} // namespace xsdt::inspect
