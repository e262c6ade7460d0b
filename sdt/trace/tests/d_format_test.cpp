// printf formats of the D subset: conversions found, and the text made of
// values, against what C's printf prints for the same values.
#include "d_format.h"

#include <gtest/gtest.h>

namespace xsdt::trace {
namespace {

Value number(std::int64_t n) { return {Type::Int, n, ""}; }
Value text(const std::string &s) { return {Type::String, 0, s}; }

TEST(Format, ConversionsAndTheirTypes) {
  std::vector<Conversion> c;
  std::string problem;
  ASSERT_TRUE(parse_format("%d|%-5s|%%|%08llx|%@u", &c, &problem)) << problem;
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].letter, 'd');
  EXPECT_EQ(c[1].wants, Type::String);
  EXPECT_EQ(c[1].spec, "-5");
  EXPECT_EQ(c[2].spec, "08");
  EXPECT_EQ(c[2].letter, 'x');
  EXPECT_TRUE(c[3].aggregation);
}

TEST(Format, RefusesWhatItCannotPrint) {
  std::vector<Conversion> c;
  std::string problem;
  EXPECT_FALSE(parse_format("%f", &c, &problem));
  EXPECT_FALSE(parse_format("%*d", &c, &problem));
  EXPECT_EQ(problem, "'*' widths are not supported");
  EXPECT_FALSE(parse_format("%n", &c, &problem));
  EXPECT_FALSE(parse_format("trailing %", &c, &problem));
  EXPECT_FALSE(parse_format("%@s", &c, &problem));
}

TEST(Format, ValuesAsPrintfPrintsThem) {
  EXPECT_EQ(format_values("%d %u %x %X %o %c %s %%\n",
                          {number(-1), number(-1), number(255), number(255),
                           number(8), number('A'), text("hi")}),
            "-1 18446744073709551615 ff FF 10 A hi %\n");
  EXPECT_EQ(format_values(
                "[%5d][%-5d][%05d][%.2s][%8s]",
                {number(42), number(42), number(42), text("abc"), text("r")}),
            "[   42][42   ][00042][ab][       r]");
  EXPECT_EQ(format_values("%p", {number(0x1000)}), "0x1000");
  EXPECT_EQ(format_values("%lld %lu", {number(-7), number(7)}), "-7 7");
  EXPECT_EQ(format_values("100%% sure", {}), "100% sure");
}

TEST(Format, LongStringsAreNotCut) {
  std::string big(2000, 'x');
  EXPECT_EQ(format_values("%s", {text(big)}), big);
}

} // namespace
} // namespace xsdt::trace
