// $CC, $CFLAGS and $CPP split as a POSIX shell splits words.
#include "shell_words.h"

#include <gtest/gtest.h>

using namespace xsdt::dtrace;
using Words = std::vector<std::string>;

TEST(ShellWords, SplitsAtBlanksAndNewlines) {
  EXPECT_EQ(split_shell_words("ccache  gcc\t-m32\n-O2 "),
            (Words{"ccache", "gcc", "-m32", "-O2"}));
  EXPECT_EQ(split_shell_words(""), Words{});
  EXPECT_EQ(split_shell_words("   "), Words{});
}

TEST(ShellWords, Quotes) {
  EXPECT_EQ(split_shell_words(R"('a b' "c d" e\ f)"),
            (Words{"a b", "c d", "e f"}));
  EXPECT_EQ(split_shell_words(R"(-DNAME="\"x\"" '-DQ=$HOME')"),
            (Words{"-DNAME=\"x\"", "-DQ=$HOME"}));
  // Inside "...", a backslash before another character stays.
  EXPECT_EQ(split_shell_words(R"("a\b")"), (Words{"a\\b"}));
  EXPECT_EQ(split_shell_words("''"), (Words{""}));
  EXPECT_EQ(split_shell_words("a''b"), (Words{"ab"}));
}

TEST(ShellWords, BackslashNewlineJoinsLines) {
  EXPECT_EQ(split_shell_words("-O2 \\\n-g"), (Words{"-O2", "-g"}));
  EXPECT_EQ(split_shell_words("-O\\\n2"), (Words{"-O2"}));
}

TEST(ShellWords, UnterminatedQuoteThrows) {
  EXPECT_THROW(split_shell_words("gcc 'oops"), std::invalid_argument);
  EXPECT_THROW(split_shell_words("gcc \"oops"), std::invalid_argument);
}

TEST(ShellWords, QuoteRoundTrips) {
  for (std::string word : {"plain", "with space", "it's", "", "$x", "a\"b"})
    EXPECT_EQ(split_shell_words(quote_shell_word(word)), Words{word}) << word;
  EXPECT_EQ(quote_shell_word("-I/usr/include"), "-I/usr/include");
}
