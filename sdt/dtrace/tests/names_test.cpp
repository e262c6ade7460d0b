// The names SystemTap's dtrace derives: macros, semaphores, default
// outputs. Expected values follow SystemTap's script (Python's
// str.replace("__", "_") and os.path.splitext).
#include "names.h"

#include <gtest/gtest.h>

using namespace xsdt::dtrace;

TEST(Names, MacroNameUpperCasesAndFoldsDoubleUnderscores) {
  EXPECT_EQ(macro_name("httpd", "request__start"), "HTTPD_REQUEST_START");
  EXPECT_EQ(macro_name("mysql", "query__exec__start"),
            "MYSQL_QUERY_EXEC_START");
  EXPECT_EQ(macro_name("glib", "main__after_prepare"),
            "GLIB_MAIN_AFTER_PREPARE");
  EXPECT_EQ(macro_name("depot_audit", "check"), "DEPOT_AUDIT_CHECK");
  EXPECT_EQ(macro_name("Mixed", "Case__Name"), "MIXED_CASE_NAME");
  EXPECT_EQ(macro_name("p", "tick"), "P_TICK");
}

TEST(Names, MacroNameReplacesPairsLeftToRightWithoutOverlap) {
  // "a___b".replace("__", "_") == "a__b"; "a____b" -> "a__b".
  EXPECT_EQ(macro_name("p", "a___b"), "P_A__B");
  EXPECT_EQ(macro_name("p", "a____b"), "P_A__B");
  EXPECT_EQ(macro_name("p", "__x__"), "P__X_");
  // The provider is only upper-cased: its "__" stays.
  EXPECT_EQ(macro_name("my__prov", "x"), "MY__PROV_X");
}

TEST(Names, SemaphoreKeepsTheProbeNameAsWritten) {
  EXPECT_EQ(semaphore_name("httpd", "request__start"),
            "httpd_request__start_semaphore");
  EXPECT_EQ(semaphore_name("depot_audit", "tick"),
            "depot_audit_tick_semaphore");
}

TEST(Names, DefaultOutputIsTheBaseNameWithoutExtension) {
  EXPECT_EQ(default_output("dir/httpd_provider.d", ".h"), "httpd_provider.h");
  EXPECT_EQ(default_output("httpd_provider.d", ".o"), "httpd_provider.o");
  EXPECT_EQ(default_output("include/probes.d.base", ".h"), "probes.d.h");
  EXPECT_EQ(default_output("noext", ".o"), "noext.o");
  EXPECT_EQ(default_output(".hidden", ".h"), ".hidden.h");
  EXPECT_EQ(default_output("a.b/c", ".h"), "c.h");
  EXPECT_EQ(default_output("x..d", ".h"), "x..h");
}

TEST(Names, IncludeGuardComesFromTheOutputBaseName) {
  EXPECT_EQ(include_guard("build/gen/httpd-provider.h"),
            "XSDT_DTRACE_HTTPD_PROVIDER_H");
  EXPECT_EQ(include_guard("probes.h"), "XSDT_DTRACE_PROBES_H");
  EXPECT_EQ(include_guard("2x.hpp"), "XSDT_DTRACE_2X_HPP");
}

TEST(Names, BaseName) {
  EXPECT_EQ(base_name("a/b/c.d"), "c.d");
  EXPECT_EQ(base_name("c.d"), "c.d");
  EXPECT_EQ(base_name("/c.d"), "c.d");
}
