// SystemTap's dtrace command line, and the forms build files pass.
#include "cli.h"

#include <gtest/gtest.h>

using namespace xsdt::dtrace;
using Strings = std::vector<std::string>;
using Action = CommandLine::Action;

namespace {
Options run_ok(const Strings &args) {
  CommandLine c = parse_command_line(args);
  EXPECT_EQ(c.action, Action::Run) << c.error;
  return c.options;
}
std::string usage_error(const Strings &args) {
  CommandLine c = parse_command_line(args);
  EXPECT_EQ(c.action, Action::UsageError);
  return c.error;
}
} // namespace

TEST(Cli, HeaderWithOutput) {
  Options o = run_ok({"-h", "-s", "httpd_provider.d", "-o", "out/p.h"});
  EXPECT_EQ(o.mode, Mode::Header);
  EXPECT_EQ(o.provider_file, "httpd_provider.d");
  EXPECT_EQ(o.output, "out/p.h");
  EXPECT_FALSE(o.preprocess);
  EXPECT_FALSE(o.keep_temporaries);
  EXPECT_TRUE(o.preprocessor_options.empty());
}

TEST(Cli, ObjectWithObjectFilesAfterIt) {
  Options o = run_ok({"-G", "-s", "p.d", "-o", "p.o", "usdt.o", "main.o"});
  EXPECT_EQ(o.mode, Mode::Object);
  EXPECT_EQ(o.output, "p.o");
  EXPECT_EQ(o.objects, (Strings{"usdt.o", "main.o"}));
}

TEST(Cli, DefaultOutputIsTheBaseNameInTheWorkingDirectory) {
  EXPECT_EQ(run_ok({"-h", "-s", "src/httpd_provider.d"}).output,
            "httpd_provider.h");
  EXPECT_EQ(run_ok({"-G", "-s", "src/httpd_provider.d"}).output,
            "httpd_provider.o");
}

TEST(Cli, ExactlyOneOfHeaderAndObject) {
  EXPECT_EQ(usage_error({"-h", "-G", "-s", "p.d"}),
            "-h and -G cannot be used together");
  EXPECT_EQ(usage_error({"-s", "p.d"}),
            "one of -h (header) and -G (object) is required");
}

TEST(Cli, ProviderFileIsRequired) {
  EXPECT_EQ(usage_error({"-h", "-o", "x.h"}), "-s FILE.d is required");
  EXPECT_FALSE(usage_error({"-h", "-s"}).empty()); // -s without its value
  EXPECT_EQ(usage_error({}), "no arguments");
}

TEST(Cli, UnknownOptionsAreNamed) {
  EXPECT_EQ(usage_error({"-q", "-h", "-s", "p.d"}), "unknown option '-q'");
  EXPECT_EQ(usage_error({"-h", "-s", "p.d", "--frobnicate"}),
            "unknown option '--frobnicate'");
  EXPECT_EQ(usage_error({"-h", "-s", "p.d", "-fPIE"}),
            "unknown option '-fPIE'");
}

TEST(Cli, IgnoredDtraceOptions) {
  Options o = run_ok({"-x", "nolibs", "-xnolibs", "-64", "-32", "-fpic",
                      "-fPIC", "-G", "-s", "p.d", "x.o"});
  EXPECT_EQ(o.mode, Mode::Object);
  EXPECT_EQ(o.provider_file, "p.d");
  EXPECT_EQ(o.objects, (Strings{"x.o"})); // nolibs is -x's, not an object
  EXPECT_TRUE(o.preprocessor_options.empty());
}

TEST(Cli, PreprocessorOptionsKeepTheirOrderAndForms) {
  Options o = run_ok({"-C", "-Iinc", "-D", "X=1", "-UX", "-I", "other dir",
                      "-DY", "-U", "Z", "-h", "-s", "p.d", "-I", "last"});
  EXPECT_TRUE(o.preprocess);
  EXPECT_EQ(o.preprocessor_options,
            (Strings{"-Iinc", "-DX=1", "-UX", "-Iother dir", "-DY", "-UZ",
                     "-Ilast"}));
}

TEST(Cli, AnIncludeDirectoryTakesOneValue) {
  Options o = run_ok({"-G", "-s", "p.d", "-I", "inc", "a.o", "b.o"});
  EXPECT_EQ(o.preprocessor_options, (Strings{"-Iinc"}));
  EXPECT_EQ(o.objects, (Strings{"a.o", "b.o"}));
}

TEST(Cli, KeepTypesAndHelp) {
  Options o = run_ok({"-k", "--types", "-h", "-s", "p.d"});
  EXPECT_TRUE(o.keep_temporaries);
  EXPECT_TRUE(o.types_option);
  EXPECT_EQ(parse_command_line({"--help"}).action, Action::Help);
  EXPECT_EQ(parse_command_line({"-h", "--help"}).action, Action::Help);
}

TEST(Cli, Version) {
  EXPECT_EQ(parse_command_line({"--version"}).action, Action::Version);
  EXPECT_EQ(version_text().rfind("xsdt-dtrace ", 0), 0u);
  EXPECT_EQ(version_text().find('\n'), version_text().size() - 1);
}

TEST(Cli, HelpSaysWhatTheObjectHolds) {
  std::string help = help_text();
  EXPECT_EQ(help.rfind(usage_text(), 0), 0u);
  EXPECT_NE(help.find("semaphore"), std::string::npos);
  EXPECT_NE(help.find("OBJECT files given after"), std::string::npos);
}
