// The D subset's parser: what it builds of the programs it runs, and the
// place and message of each refusal.
#include "d_program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace xsdt::trace {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Program parse(const std::string &text) { return parse_program(text, "-n"); }

// The error's "LINE:COL: message" for a program parse_program refuses.
std::string refusal(const std::string &text) {
  try {
    parse_program(text, "-n");
  } catch (const ProgramError &e) {
    return std::to_string(e.location().line) + ":" +
           std::to_string(e.location().column) + ": " + e.message();
  }
  return "accepted";
}

TEST(Parser, TheIssuesExample) {
  Program p = parse(
      "myapp:::request /arg0 > 100/ { @lat[probename] = quantize(arg1); }");
  ASSERT_EQ(p.clauses.size(), 1u);
  const Clause &c = p.clauses[0];
  EXPECT_THAT(c.probes, ElementsAre("myapp:::request"));
  ASSERT_GE(c.predicate, 0);
  const Expr &pred = p.exprs[c.predicate];
  EXPECT_EQ(pred.kind, Expr::Kind::Binary);
  EXPECT_EQ(pred.op, Op::Greater);
  EXPECT_EQ(p.exprs[pred.operands[0]].builtin, Builtin::Arg);
  EXPECT_EQ(p.exprs[pred.operands[0]].value, 0);
  EXPECT_EQ(p.exprs[pred.operands[1]].value, 100);
  ASSERT_EQ(c.actions.size(), 1u);
  const Action &a = p.actions[c.actions[0]];
  EXPECT_EQ(a.kind, Action::Kind::Aggregate);
  ASSERT_EQ(p.aggregations.size(), 1u);
  EXPECT_EQ(p.aggregations[0].name, "lat");
  EXPECT_EQ(p.aggregations[0].function, AggregatingFunction::Quantize);
  EXPECT_THAT(p.aggregations[0].keys, ElementsAre(Type::String));
  ASSERT_EQ(a.keys.size(), 1u);
  EXPECT_EQ(p.exprs[a.keys[0]].builtin, Builtin::ProbeName);
  ASSERT_EQ(a.arguments.size(), 1u);
  EXPECT_EQ(p.exprs[a.arguments[0]].value, 1); // arg1
}

TEST(Parser, SeveralDescriptionsGlobsAndSpecialClauses) {
  Program p =
      parse("BEGIN { printf(\"go\\n\"); }\n"
            "app:*:req*, app:name, lib*:mod:f?n:x[0-9] { @ = count(); }\n"
            "END { printa(@); }");
  ASSERT_EQ(p.clauses.size(), 3u);
  EXPECT_THAT(p.clauses[0].probes, ElementsAre("BEGIN"));
  EXPECT_THAT(p.clauses[1].probes,
              ElementsAre("app:*:req*", "app:name", "lib*:mod:f?n:x[0-9]"));
  EXPECT_EQ(p.clauses[1].loc.line, 2);
  EXPECT_EQ(p.clauses[1].loc.column, 1);
  EXPECT_TRUE(p.is_special("END"));
  EXPECT_EQ(p.actions[p.clauses[0].actions[0]].format, "go\n");
  EXPECT_EQ(p.aggregations[0].name, "");
}

TEST(Parser, OperatorsBindAsInC) {
  Program p = parse("a:b { trace(1 + 2 * 3 == 7 && !0 ? arg2 << 1 : -arg3); }");
  const Action &a = p.actions[0];
  const Expr &ternary = p.exprs[a.arguments[0]];
  ASSERT_EQ(ternary.kind, Expr::Kind::Ternary);
  const Expr &condition = p.exprs[ternary.operands[0]];
  EXPECT_EQ(condition.op, Op::LogicalAnd);
  const Expr &equal = p.exprs[condition.operands[0]];
  EXPECT_EQ(equal.op, Op::Equal);
  const Expr &sum = p.exprs[equal.operands[0]];
  EXPECT_EQ(sum.op, Op::Add);
  EXPECT_EQ(p.exprs[sum.operands[1]].op, Op::Mul);
  EXPECT_EQ(p.exprs[ternary.operands[1]].op, Op::ShiftLeft);
  EXPECT_EQ(p.exprs[ternary.operands[2]].op, Op::Negate);
}

TEST(Parser, DivisionInAPredicateNeedsParentheses) {
  Program p = parse("a:b /(arg0 / 2) > 3/ { trace(arg0 / 2); }");
  const Expr &pred = p.exprs[p.clauses[0].predicate];
  EXPECT_EQ(pred.op, Op::Greater);
  EXPECT_EQ(p.exprs[pred.operands[0]].op, Op::Div);
  EXPECT_EQ(p.exprs[p.actions[0].arguments[0]].op, Op::Div);
}

TEST(Parser, StringsCompareWithStringsAndStringofReadsAnAddress) {
  Program p = parse("a:b /stringof(arg1) == \"GET\" && probename != \"x\"/ "
                    "{ @[stringof(arg1), arg0] = sum(arg2); "
                    "printf(\"%s %d %5u|%-4x|%%\\n\", stringof(arg1), arg0, "
                    "arg2, arg3); }");
  const Aggregation &agg = p.aggregations[0];
  EXPECT_EQ(agg.function, AggregatingFunction::Sum);
  EXPECT_THAT(agg.keys, ElementsAre(Type::String, Type::Int));
}

TEST(Parser, EveryAggregatingFunction) {
  Program p = parse(
      "a:b { @c = count(); @s = sum(arg0); @mi = min(arg0); "
      "@ma = max(arg0); @av = avg(arg0); @q = quantize(arg0); "
      "@l = lquantize(arg0, 0, 100, 10); @l2 = lquantize(arg1, -5, 5); }");
  ASSERT_EQ(p.aggregations.size(), 8u);
  EXPECT_EQ(p.aggregations[6].function, AggregatingFunction::LQuantize);
  EXPECT_EQ(p.aggregations[6].lower, 0);
  EXPECT_EQ(p.aggregations[6].upper, 100);
  EXPECT_EQ(p.aggregations[6].step, 10);
  EXPECT_EQ(p.aggregations[7].lower, -5);
  EXPECT_EQ(p.aggregations[7].step, 1);
}

TEST(Parser, ConstantsInEveryBase) {
  Program p = parse("a:b { trace(0x1F + 017 + 10ULL); }");
  const Expr &sum = p.exprs[p.actions[0].arguments[0]];
  const Expr &left = p.exprs[sum.operands[0]];
  EXPECT_EQ(p.exprs[left.operands[0]].value, 31);
  EXPECT_EQ(p.exprs[left.operands[1]].value, 15);
  EXPECT_EQ(p.exprs[sum.operands[1]].value, 10);
}

TEST(Parser, CommentsAndAnInterpreterLine) {
  Program p =
      parse("#!/usr/bin/env xsdt-trace -s\n/* x */ a:b // y\n{ exit(0); }");
  ASSERT_EQ(p.clauses.size(), 1u);
  EXPECT_EQ(p.actions[0].kind, Action::Kind::Exit);
}

TEST(Refusals, NameTheirPlace) {
  EXPECT_EQ(refusal("a:b { trace(arg0) }\nc:d { self->x = 1; }"),
            "2:7: 'self' is not supported by xsdt-trace: thread-local "
            "variables are not supported");
  EXPECT_EQ(refusal("a:b {\n  printf(\"%f\", arg0);\n}"),
            "2:10: printf format: conversion %f is not supported (integers: "
            "%d %i %u %x %X %o %c %p; strings: %s)");
  EXPECT_THAT(
      refusal("a:b { printf(\"%d %d\", arg0); }"),
      HasSubstr("1:7: printf's format has 2 conversions for 1 arguments"));
  EXPECT_THAT(refusal("a:b { printf(\"%d\", probename); }"),
              HasSubstr("1:20: printf's conversion %d wants an integer"));
  EXPECT_THAT(refusal("a:b { x = 1; }"),
              HasSubstr("1:7: 'x' is not an action"));
  EXPECT_THAT(refusal("a:b { trace(copyinstr(arg0)); }"),
              HasSubstr("1:13: 'copyinstr' is not supported by xsdt-trace: "
                        "read a C string with stringof(argN)"));
  EXPECT_THAT(refusal("a:b { trace(arg12); }"),
              HasSubstr("1:13: 'arg12': a probe has at most 12 arguments"));
  EXPECT_THAT(refusal("a:b { @x = count(); @x = sum(arg0); }"),
              HasSubstr("1:21: @x is used with another function"));
  EXPECT_THAT(
      refusal("a:b { @x[arg0] = count(); }\nc:d { @x[probename] = count(); }"),
      HasSubstr("2:7: @x is used with another function, keys or range "
                "than at line 1, column 7"));
  EXPECT_THAT(refusal("a:b { @ = stddev(arg0); }"),
              HasSubstr("1:11: 'stddev' is not supported"));
  EXPECT_THAT(refusal("a:b { @ = lquantize(arg0, 10, 0, 1); }"),
              HasSubstr("1:11: lquantize needs lower < upper"));
  EXPECT_THAT(
      refusal("a:b { @ = lquantize(arg0, arg1, 10); }"),
      HasSubstr("1:27: lquantize's bounds and step must be integer constants"));
  EXPECT_THAT(refusal("a:b /probename/ { }"),
              HasSubstr("1:6: a predicate must be an integer"));
  EXPECT_THAT(refusal("a:b /arg0 == \"x\"/ { }"),
              HasSubstr("1:11: comparing a string with an integer"));
  EXPECT_THAT(refusal("a:b { trace(1.5); }"),
              HasSubstr("1:13: '1.5' is not an integer constant"));
  EXPECT_THAT(refusal("a:b { trace(\"x); }"),
              HasSubstr("1:13: unterminated string"));
  EXPECT_THAT(refusal("a:b { trace(1); "),
              HasSubstr("expected '}' to end the clause"));
  EXPECT_THAT(
      refusal("a:b:c:d:e { }"),
      HasSubstr("1:1: probe description 'a:b:c:d:e' has more than four parts"));
  EXPECT_THAT(refusal("syscall::read:entry { }"),
              HasSubstr("is not a user probe"));
  EXPECT_THAT(refusal("profile-997 { }"), HasSubstr("is not a user probe"));
  EXPECT_THAT(refusal(""), HasSubstr("1:1: the program has no clause"));
  EXPECT_THAT(
      refusal("a:b { printa(@nope); }"),
      HasSubstr("1:14: printa of @nope, which no clause before it assigns"));
  EXPECT_THAT(refusal("#include <x.h>\na:b { }"),
              HasSubstr("1:1: preprocessor lines are not supported"));
  EXPECT_THAT(refusal("a:b { trace(*arg0); }"),
              HasSubstr("1:13: pointers are not supported"));
  EXPECT_THAT(refusal("a:b { trace(arg0++); }"),
              HasSubstr("1:17: '++' is not supported"));
  EXPECT_THAT(
      refusal("a:b { @n[arg0] = count(); }\nEND { printa(\"%s %@d\", @n); }"),
      HasSubstr("2:14: printa's conversion 1 does not fit @n"));
}

TEST(Refusals, TheMessageNamesTheSource) {
  try {
    parse_program("a:b { oops(); }", "script.d");
    FAIL() << "accepted";
  } catch (const ProgramError &e) {
    EXPECT_STREQ(e.what(), "script.d:1:7: error: 'oops' is not an action "
                           "xsdt-trace supports (printf, trace, printa, exit, "
                           "@aggregation = ...)");
  }
}

} // namespace
} // namespace xsdt::trace
