// xsdt-arch-specific: the probe-level rules at the end are shown on x86-64
// specs (a rejection's cost does not depend on the arch).
// The consumer-grammar rules (sdt/inspect/consumers.h and each arch's
// consumers.cpp) against verdicts read off the consumers' own parsers and
// the measured facts (shared sdt-facts §7, §8), which each arch keeps in
// arches/<arch>/tests/consumer-verdicts.tsv: one row per spec and consumer,
// naming where its expectation comes from; none is taken from xsdt-inspect's
// output.
#include "consumers.h"

#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace xsdt::inspect {
namespace {

struct Row {
  std::string arch;
  std::string spec;
  Consumer consumer = Consumer::Gdb;
  Verdict expected = Verdict::Unknown;
  std::string why;   // the source of the expectation
  std::string where; // file:line
  std::string error; // a row that cannot be read: the test fails with it
};

std::ostream &operator<<(std::ostream &os, const Row &r) {
  return os << r.where << ": " << r.arch << " '" << r.spec << "' "
            << consumer_name(r.consumer) << " (" << r.why << ")";
}

std::optional<Consumer> consumer_named(std::string_view name) {
  for (Consumer c : all_consumers())
    if (consumer_name(c) == name)
      return c;
  return std::nullopt;
}

std::optional<Verdict> verdict_named(std::string_view name) {
  for (Verdict v : {Verdict::Accepted, Verdict::Rejected, Verdict::Misread})
    if (verdict_name(v) == name)
      return v;
  return std::nullopt;
}

std::vector<std::string> split_tabs(const std::string &line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, '\t');)
    fields.push_back(field);
  return fields;
}

// Every row of every arch's file; an unreadable one becomes a row whose
// test fails with the reason.
std::vector<Row> load_rows() {
  namespace fs = std::filesystem;
  std::vector<Row> rows;
  std::vector<fs::path> files;
  for (const fs::directory_entry &arch_dir :
       fs::directory_iterator(XSDT_ARCHES_DIR)) {
    fs::path file = arch_dir.path() / "tests" / "consumer-verdicts.tsv";
    if (fs::exists(file))
      files.push_back(file);
  }
  std::sort(files.begin(), files.end());
  for (const fs::path &file : files) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty() || line[0] == '#')
        continue;
      Row row;
      row.arch = file.parent_path().parent_path().filename().string();
      row.where = file.string() + ":" + std::to_string(number);
      const std::vector<std::string> fields = split_tabs(line);
      if (fields.size() != 4) {
        row.error = "expected 4 tab-separated fields (spec, consumer, verdict, "
                    "source), found " +
                    std::to_string(fields.size());
      } else {
        row.spec = fields[0];
        row.why = fields[3];
        const auto consumer = consumer_named(fields[1]);
        const auto verdict = verdict_named(fields[2]);
        if (!consumer)
          row.error = "unknown consumer '" + fields[1] + "'";
        else if (!verdict)
          row.error = "unknown verdict '" + fields[2] + "'";
        else {
          row.consumer = *consumer;
          row.expected = *verdict;
        }
      }
      rows.push_back(row);
    }
  }
  return rows;
}

const std::vector<Row> &rows() {
  static const std::vector<Row> all = load_rows();
  return all;
}

using enum Consumer;

class ConsumerRule : public ::testing::TestWithParam<Row> {};

TEST_P(ConsumerRule, Verdict) {
  const Row &row = GetParam();
  ASSERT_TRUE(row.error.empty()) << row.where << ": " << row.error;
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

// Named by arch and line (aarch64_12), so that an edit of one table leaves
// the names of the others' rows alone.
INSTANTIATE_TEST_SUITE_P(Table, ConsumerRule, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Row> &info) {
                           const std::string &w = info.param.where;
                           return info.param.arch + "_" +
                                  w.substr(w.rfind(':') + 1);
                         });

// Every arch of the build has its table of verdicts, and every table is an
// arch of the build.
TEST(ConsumerRule, EveryArchHasVerdicts) {
  for (Arch arch : all_arches()) {
    const std::string name(arch_name(arch));
    EXPECT_TRUE(std::any_of(rows().begin(), rows().end(),
                            [&](const Row &r) { return r.arch == name; }))
        << "no rows in arches/" << name << "/tests/consumer-verdicts.tsv";
  }
  for (const Row &row : rows())
    EXPECT_TRUE(parse_arch(row.arch)) << row.where << ": no arch " << row.arch;
}

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
