// The enablings-in-force rule (src/enablings.h): what a probe of an object
// loaded after some enables and disables gets. Patterns here are single
// fnmatch globs over a probe's name; the runtime's parts bring their own.
#include "enablings.h"

#include <fnmatch.h>
#include <gtest/gtest.h>

#include <string>

namespace {

using xsdt::rt::Enablings;

// The payload of the enabling a probe named `name` gets, or -1.
int enabled_by(const Enablings<int> &e, const std::string &name) {
  const auto *found = e.find([&](const std::string &pattern) {
    return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
  });
  return found ? found->payload : -1;
}

TEST(Enablings, NothingEnabledEnablesNothing) {
  Enablings<int> e;
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(enabled_by(e, "a"), -1);
}

TEST(Enablings, AMatchingProbeGetsTheEnabling) {
  Enablings<int> e;
  e.enable("a*", 1);
  EXPECT_EQ(enabled_by(e, "abc"), 1);
  EXPECT_EQ(enabled_by(e, "b"), -1);
}

TEST(Enablings, ALaterNarrowerDisableExcludesWhatItMatches) {
  Enablings<int> e;
  e.enable("a*", 1);
  e.disable("ab", false);
  EXPECT_EQ(enabled_by(e, "ab"), -1);
  EXPECT_EQ(enabled_by(e, "ac"), 1);
  EXPECT_EQ(e.in_force().size(), 1u);
}

TEST(Enablings, ADisableBeforeAnEnableDoesNotNarrowIt) {
  Enablings<int> e;
  e.enable("a*", 1);
  e.disable("ab", false);
  e.enable("ab", 2);
  EXPECT_EQ(enabled_by(e, "ab"), 2);
  EXPECT_EQ(enabled_by(e, "ac"), 1);
}

TEST(Enablings, TheSamePatternTextEndsTheEnabling) {
  Enablings<int> e;
  e.enable("a*", 1);
  e.enable("b*", 2);
  e.disable("a*", false);
  EXPECT_EQ(enabled_by(e, "ax"), -1);
  EXPECT_EQ(enabled_by(e, "bx"), 2);
  ASSERT_EQ(e.in_force().size(), 1u);
  EXPECT_EQ(e.disables_after(e.in_force()[0]), 1u); // recorded against b*
}

TEST(Enablings, APatternMatchingEverythingEndsAll) {
  Enablings<int> e;
  e.enable("a*", 1);
  e.enable("b*", 2);
  e.disable("*", true);
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(enabled_by(e, "ax"), -1);
}

TEST(Enablings, ABroaderDisableThatIsNotEverythingNarrowsOnly) {
  Enablings<int> e;
  e.enable("ab", 1);
  e.disable("a*", false); // covers ab's probes, but is not its text
  EXPECT_EQ(enabled_by(e, "ab"), -1);
  EXPECT_EQ(e.in_force().size(), 1u);
}

TEST(Enablings, TheOldestEnablingInForceWins) {
  Enablings<int> e;
  e.enable("a*", 1);
  e.enable("*b", 2);
  EXPECT_EQ(enabled_by(e, "ab"), 1);
  // Had "ab" been loaded, this disable would have turned it off, whichever
  // enabling had turned it on; the later enabling still covers "cb".
  e.disable("a*", false);
  EXPECT_EQ(enabled_by(e, "ab"), -1);
  EXPECT_EQ(enabled_by(e, "cb"), 2);
}

} // namespace
