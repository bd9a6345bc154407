// SPDX-License-Identifier: MIT
// The kit's option table (src/tools/common/option_table.h): parsing through getopt_long, the
// errors every tool turns into exit status 2, and --help generated from the same rows.
#include "option_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tools {
namespace {

struct Seen {
  std::vector<std::string> events;
  bool user = false;
  std::string spelled;
};

OptionTable Table(Seen *seen) {
  return OptionTable({
      Text("Events:"),
      {"event", 'e', "LIST", "events to count\nrepeat -e to add more",
       [seen](const std::string &value, const std::string &spelled) -> std::string {
         if (value == "bad") return "bad event for " + spelled;
         seen->events.push_back(value);
         seen->spelled = spelled;
         return "";
       }},
      {"user", 'u', nullptr, "count user mode",
       [seen](const std::string &, const std::string &) {
         seen->user = true;
         return std::string();
       }},
      {"per-thread|per-task", 0, nullptr, "one line per thread", nullptr},
      {"time", 0, "SECONDS", nullptr, nullptr},  // accepted, not listed
      {"field-separator", 'x', "SEP", "CSV", nullptr},
  });
}

TEST(OptionTable, HelpIsGeneratedFromTheRows) {
  Seen seen;
  EXPECT_EQ(Table(&seen).Help(),
            "Events:\n"
            "  -e, --event LIST        events to count\n"
            "                          repeat -e to add more\n"
            "  -u, --user              count user mode\n"
            "      --per-thread, --per-task  one line per thread\n"
            "  -x, --field-separator SEP  CSV\n");
}

TEST(OptionTable, ParsesBundlesAttachedValuesAndTheRest) {
  Seen seen;
  std::vector<std::string> rest;
  const OptionError error =
      Table(&seen).Parse({"-uecycles", "--event=instructions", "-e", "x", "ls", "-l"}, &rest);
  ASSERT_FALSE(error) << error.message;
  EXPECT_TRUE(seen.user);
  EXPECT_EQ(seen.events, (std::vector<std::string>{"cycles", "instructions", "x"}));
  EXPECT_EQ(seen.spelled, "-e");
  EXPECT_EQ(rest, (std::vector<std::string>{"ls", "-l"}));
}

TEST(OptionTable, DoubleDashEndsTheOptions) {
  Seen seen;
  std::vector<std::string> rest;
  ASSERT_FALSE(Table(&seen).Parse({"--user", "--", "-e", "x"}, &rest));
  EXPECT_TRUE(seen.events.empty());
  EXPECT_EQ(rest, (std::vector<std::string>{"-e", "x"}));
}

TEST(OptionTable, UnknownOptionsAreNamed) {
  Seen seen;
  std::vector<std::string> rest;
  OptionError error = Table(&seen).Parse({"-uZ"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kUnknown);
  EXPECT_EQ(error.message, "unknown option '-Z'");
  error = Table(&seen).Parse({"--bogus=1"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kUnknown);
  EXPECT_EQ(error.message, "unknown option '--bogus=1'");
  // A unique prefix is getopt_long's abbreviation; two aliases of one row are one option.
  EXPECT_FALSE(Table(&seen).Parse({"--per", "--us", "ls"}, &rest));
  EXPECT_TRUE(seen.user);
}

TEST(OptionTable, MissingAndUnexpectedValues) {
  Seen seen;
  std::vector<std::string> rest;
  OptionError error = Table(&seen).Parse({"-u", "-e"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kMissingValue);
  EXPECT_EQ(error.message, "option -e needs a value");
  error = Table(&seen).Parse({"--event"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kMissingValue);
  EXPECT_EQ(error.message, "option --event needs a value");
  error = Table(&seen).Parse({"--user=yes"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kUnexpectedValue);
  EXPECT_EQ(error.message, "option --user takes no value");
}

TEST(OptionTable, HandlerErrorsStopTheParse) {
  Seen seen;
  std::vector<std::string> rest;
  const OptionError error = Table(&seen).Parse({"--event", "bad", "-u"}, &rest);
  EXPECT_EQ(error.kind, OptionError::kHandler);
  EXPECT_EQ(error.message, "bad event for --event");
  EXPECT_FALSE(seen.user) << "nothing after the refused option is applied";
}

TEST(OptionTable, OperandsAnywhereComeInOrder) {
  Seen seen;
  std::vector<std::string> operands, rest;
  const OptionError error =
      Table(&seen).Parse({"500", "-u", "3", "--", "-e"}, &rest, OptionTable::Operands::kAnywhere,
                         [&operands](const std::string &value, const std::string &) {
                           operands.push_back(value);
                           return std::string();
                         });
  ASSERT_FALSE(error) << error.message;
  EXPECT_TRUE(seen.user);
  EXPECT_EQ(operands, (std::vector<std::string>{"500", "3"}));
  EXPECT_EQ(rest, (std::vector<std::string>{"-e"}));
}

TEST(OptionTable, AnOptionalValueIsTheNextArgumentWhenItLooksLikeOne) {
  std::vector<std::string> values;
  Option groups{"", 'g', nullptr, "groups",
                [&values](const std::string &value, const std::string &) {
                  values.push_back(value);
                  return std::string();
                }};
  groups.value_if = [](const std::string &next) { return next == "-1" || next[0] != '-'; };
  const OptionTable table({groups, {"", 'v', nullptr, "verbose", nullptr}});
  std::vector<std::string> rest;
  ASSERT_FALSE(table.Parse({"-g", "-1", "-g", "-v", "-vg", "name", "-g"}, &rest));
  EXPECT_EQ(values, (std::vector<std::string>{"-1", "", "name", ""}));
  EXPECT_TRUE(rest.empty());
}

TEST(OptionTable, ParsesAgainFromTheStart) {
  Seen seen;
  const OptionTable table = Table(&seen);
  std::vector<std::string> rest;
  ASSERT_FALSE(table.Parse({"-ea"}, &rest));
  ASSERT_FALSE(table.Parse({"-eb", "cmd"}, &rest));
  EXPECT_EQ(seen.events, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rest, (std::vector<std::string>{"cmd"}));
}

TEST(OptionTable, AWholeNumberIsDigitsInRangeAndNothingElse) {
  long long pid = 0;
  const OptionTable table(
      {{"pid", 'p', "PID", "a process",
        WholeNumber("process id", 1, 4194304, [&pid](long long v) { pid = v; })}});
  std::vector<std::string> rest;
  ASSERT_FALSE(table.Parse({"-p", "376"}, &rest));
  EXPECT_EQ(pid, 376);
  ASSERT_FALSE(table.Parse({"--pid=4194304"}, &rest));
  EXPECT_EQ(pid, 4194304);
  for (const char *bad : {"376.9", "4194305", "4294967295", "0.5", "0", "1e-10", "1e30", "0x10",
                          "-1", "+5", " 5", "5 ", "", "99999999999999999999"}) {
    pid = -1;
    const OptionError error = table.Parse({"-p", bad}, &rest);
    EXPECT_EQ(error.kind, OptionError::kHandler) << bad;
    EXPECT_EQ(error.message, "bad process id '" + std::string(bad) +
                                 "' for -p: give a whole number from 1 to 4194304");
    EXPECT_EQ(pid, -1) << bad << " was applied";
  }
  long long out = 7;
  EXPECT_TRUE(ParseWholeNumber("999999999999999999", 0, 999999999999999999LL, &out));
  EXPECT_EQ(out, 999999999999999999LL);
  EXPECT_FALSE(ParseWholeNumber("1000000000000000000", 0, 999999999999999999LL, &out));
}

}  // namespace
}  // namespace tools
