// Probe descriptions (src/probe_description.h): the one parser and matcher
// behind the SDT part's and the consumer's DTrace descriptions and the USDT
// part's "provider:name" patterns.
#include "probe_description.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using xsdt::rt::matches_everything;
using xsdt::rt::parse_probe_description;
using xsdt::rt::parse_usdt_pattern;
using xsdt::rt::ProbeDescription;

const std::string kAny;

TEST(ProbeDescription, FewerPartsNameTheLastOnes) {
  ProbeDescription d;
  ASSERT_EQ(parse_probe_description("fn:probe", &d), nullptr);
  EXPECT_EQ(d.part[0], "");
  EXPECT_EQ(d.part[2], "fn");
  EXPECT_EQ(d.part[3], "probe");
  EXPECT_TRUE(d.matches("any", "mod", "fn", "probe"));
  EXPECT_FALSE(d.matches("any", "mod", "other", "probe"));
  ASSERT_EQ(parse_probe_description("p:m:f:n", &d), nullptr);
  EXPECT_EQ(d.part[0], "p");
  EXPECT_EQ(d.part[1], "m");
}

TEST(ProbeDescription, Refusals) {
  ProbeDescription d;
  EXPECT_STREQ(parse_probe_description(nullptr, &d),
               "no description (a null pointer)");
  EXPECT_NE(parse_probe_description("", &d), nullptr);
  EXPECT_NE(parse_probe_description("a:b:c:d:e", &d), nullptr);
  EXPECT_STREQ(parse_probe_description("p:m:f:[ab", &d),
               "an unclosed '[' in a glob");
}

TEST(UsdtPattern, ProviderAndName) {
  ProbeDescription p;
  ASSERT_EQ(parse_usdt_pattern("shop:req*", &p), nullptr);
  EXPECT_TRUE(p.matches("shop", kAny, kAny, "request"));
  EXPECT_FALSE(p.matches("shop", kAny, kAny, "reply"));
  EXPECT_FALSE(p.matches("other", kAny, kAny, "request"));
  EXPECT_FALSE(matches_everything(p));
  ASSERT_EQ(parse_usdt_pattern("[st]hop:[r]eq", &p), nullptr);
  EXPECT_TRUE(p.matches("thop", kAny, kAny, "req"));
}

TEST(UsdtPattern, StarAndStarStarAreEverything) {
  ProbeDescription p;
  ASSERT_EQ(parse_usdt_pattern("*", &p), nullptr);
  EXPECT_TRUE(p.matches("a", kAny, kAny, "b"));
  EXPECT_TRUE(matches_everything(p));
  ASSERT_EQ(parse_usdt_pattern("*:*", &p), nullptr);
  EXPECT_TRUE(matches_everything(p));
}

TEST(UsdtPattern, Refusals) {
  ProbeDescription p;
  for (const char *text :
       {"", "shop", ":req", "shop:", "a:b:c", "shop:[req", "**x"})
    EXPECT_NE(parse_usdt_pattern(text, &p), nullptr) << text;
  EXPECT_STREQ(parse_usdt_pattern(nullptr, &p), "no pattern (a null pointer)");
}

TEST(MatchesEverything, EveryPartEmptyOrStar) {
  ProbeDescription d;
  ASSERT_EQ(parse_probe_description(":::", &d), nullptr);
  EXPECT_TRUE(matches_everything(d));
  ASSERT_EQ(parse_probe_description("*:::*", &d), nullptr);
  EXPECT_TRUE(matches_everything(d));
  ASSERT_EQ(parse_probe_description("p:::", &d), nullptr);
  EXPECT_FALSE(matches_everything(d));
}

} // namespace
