// Evaluating the D subset at a hit: each value against what the program's
// text says it must be (C's arithmetic, DTrace's buckets), computed by hand.
#include "d_eval.h"

#include <gtest/gtest.h>

#include <cstring>

namespace xsdt::trace {
namespace {

// The value of the first trace() of `a:b { trace(EXPR); }` at hit.
struct Evaluated {
  EvalError error;
  EvalValue value;
  std::string text;
};

Evaluated eval(const std::string &expr, const HitContext &hit) {
  static std::vector<Program> keep; // the value's text may point into it
  keep.push_back(parse_program("a:b { trace(" + expr + "); }", "-n"));
  const Program &p = keep.back();
  EvalScratch scratch;
  Evaluated r{};
  r.error = evaluate(p, p.actions[0].arguments[0], hit, scratch, &r.value);
  if (r.value.type == Type::String)
    r.text.assign(r.value.text, r.value.length);
  return r;
}

const char kHello[] = "hello";

long read_from_memory(std::uintptr_t address, char *out, std::size_t size) {
  if (address == 0)
    return -1;
  const char *from = reinterpret_cast<const char *>(address);
  std::size_t n = 0;
  while (n < size && from[n]) {
    out[n] = from[n];
    ++n;
  }
  return static_cast<long>(n);
}

HitContext sample_hit() {
  static const std::uint64_t args[] = {7, static_cast<std::uint64_t>(-3),
                                       reinterpret_cast<std::uintptr_t>(kHello),
                                       0};
  HitContext hit;
  hit.provider = "app";
  hit.module = "prog";
  hit.function = "serve";
  hit.name = "request";
  hit.args = args;
  hit.argc = 4;
  hit.tid = 11;
  hit.pid = 10;
  hit.timestamp = 123456789;
  hit.read_string = read_from_memory;
  return hit;
}

TEST(Evaluate, ArgumentsAndBuiltins) {
  HitContext hit = sample_hit();
  EXPECT_EQ(eval("arg0", hit).value.number, 7);
  EXPECT_EQ(eval("arg1", hit).value.number, -3);
  EXPECT_EQ(eval("arg9", hit).value.number, 0); // past argc
  EXPECT_EQ(eval("tid", hit).value.number, 11);
  EXPECT_EQ(eval("pid", hit).value.number, 10);
  EXPECT_EQ(eval("timestamp", hit).value.number, 123456789);
  EXPECT_EQ(eval("probeprov", hit).text, "app");
  EXPECT_EQ(eval("probemod", hit).text, "prog");
  EXPECT_EQ(eval("probefunc", hit).text, "serve");
  EXPECT_EQ(eval("probename", hit).text, "request");
}

TEST(Evaluate, ArithmeticAsInC) {
  HitContext hit = sample_hit();
  EXPECT_EQ(eval("arg0 * 3 + arg1", hit).value.number, 18);
  EXPECT_EQ(eval("arg1 / 2", hit).value.number, -1); // truncates to zero
  EXPECT_EQ(eval("arg1 % 2", hit).value.number, -1);
  EXPECT_EQ(eval("arg1 >> 1", hit).value.number, -2); // arithmetic shift
  EXPECT_EQ(eval("1 << 62", hit).value.number, std::int64_t{1} << 62);
  EXPECT_EQ(eval("(arg0 & 6) | 8 ^ 1", hit).value.number, (7 & 6) | (8 ^ 1));
  EXPECT_EQ(eval("~arg0", hit).value.number, ~std::int64_t{7});
  EXPECT_EQ(eval("-arg1", hit).value.number, 3);
  EXPECT_EQ(eval("arg1 < arg0", hit).value.number, 1); // signed
  EXPECT_EQ(eval("arg0 > 6 ? 100 : 200", hit).value.number, 100);
  EXPECT_EQ(eval("0x7fffffffffffffff + 1", hit).value.number, INT64_MIN);
}

TEST(Evaluate, LogicalOperatorsShortCircuit) {
  HitContext hit = sample_hit();
  EXPECT_EQ(eval("arg3 && arg0 / arg3", hit).error, EvalError::None);
  EXPECT_EQ(eval("arg0 || arg0 / arg3", hit).error, EvalError::None);
  EXPECT_EQ(eval("arg0 && arg0 / arg3", hit).error, EvalError::DivisionByZero);
  EXPECT_EQ(eval("arg0 && 2", hit).value.number, 1);
}

TEST(Evaluate, StringsReadAndCompared) {
  HitContext hit = sample_hit();
  EXPECT_EQ(eval("stringof(arg2)", hit).text, "hello");
  EXPECT_EQ(eval("stringof(arg2) == \"hello\"", hit).value.number, 1);
  EXPECT_EQ(eval("stringof(arg2) < \"help\"", hit).value.number, 1);
  EXPECT_EQ(eval("probename != \"request\"", hit).value.number, 0);
  EXPECT_EQ(eval("stringof(arg3)", hit).error, EvalError::BadAddress);
  EXPECT_EQ(eval("stringof(arg2) == stringof(arg2) && stringof(arg2) == "
                 "stringof(arg2) && stringof(arg2) != \"\"",
                 hit)
                .error,
            EvalError::TooManyStrings);
}

TEST(Evaluate, DivisionByZeroAndTheOneOverflow) {
  HitContext hit = sample_hit();
  EXPECT_EQ(eval("arg0 / arg3", hit).error, EvalError::DivisionByZero);
  EXPECT_EQ(eval("arg0 % arg3", hit).error, EvalError::DivisionByZero);
  EXPECT_EQ(eval("(-0x7fffffffffffffff - 1) / -1", hit).value.number,
            INT64_MIN);
}

TEST(Buckets, QuantizeIsPowersOfTwo) {
  EXPECT_EQ(quantize_label(quantize_bucket(0)), 0);
  EXPECT_EQ(quantize_label(quantize_bucket(1)), 1);
  EXPECT_EQ(quantize_label(quantize_bucket(2)), 2);
  EXPECT_EQ(quantize_label(quantize_bucket(3)), 2);
  EXPECT_EQ(quantize_label(quantize_bucket(4)), 4);
  EXPECT_EQ(quantize_label(quantize_bucket(1000)), 512);
  EXPECT_EQ(quantize_label(quantize_bucket(-1)), -1);
  EXPECT_EQ(quantize_label(quantize_bucket(-3)), -2);
  EXPECT_EQ(quantize_label(quantize_bucket(INT64_MAX)), std::int64_t{1} << 62);
  EXPECT_EQ(quantize_label(quantize_bucket(INT64_MIN)), INT64_MIN);
  EXPECT_EQ(quantize_bucket(INT64_MIN), 0);
  EXPECT_EQ(quantize_bucket(INT64_MAX), kQuantizeBuckets - 1);
  for (int b = 1; b < kQuantizeBuckets; ++b)
    EXPECT_LT(quantize_label(b - 1), quantize_label(b)) << b;
}

TEST(Buckets, LquantizeHasUnderAndOverflow) {
  Aggregation agg;
  agg.lower = 0;
  agg.upper = 100;
  agg.step = 10;
  EXPECT_EQ(lquantize_buckets(agg), 12);
  EXPECT_EQ(lquantize_bucket(agg, -1), 0);
  EXPECT_EQ(lquantize_bucket(agg, 0), 1);
  EXPECT_EQ(lquantize_bucket(agg, 9), 1);
  EXPECT_EQ(lquantize_bucket(agg, 10), 2);
  EXPECT_EQ(lquantize_bucket(agg, 99), 10);
  EXPECT_EQ(lquantize_bucket(agg, 100), 11);
  agg.upper = 95; // a last bucket cut short: [90, 95)
  EXPECT_EQ(lquantize_buckets(agg), 12);
  EXPECT_EQ(lquantize_bucket(agg, 94), 10);
  EXPECT_EQ(lquantize_bucket(agg, 95), 11);
}

} // namespace
} // namespace xsdt::trace
