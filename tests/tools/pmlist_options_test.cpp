// SPDX-License-Identifier: MIT
// pmlist's command line.
#include "options.h"

#include <gtest/gtest.h>
#include <pmapi.h>

namespace pmlist {
namespace {

TEST(PmlistOptions, FiltersAndModes) {
  Options o;
  ASSERT_EQ(
      ParseOptions({"-s", "verified,caveat", "--source=software,tracepoint", "-v", "clock"}, &o),
      "");
  EXPECT_EQ(o.status_filter, PM_VERIFIED | PM_CAVEAT);
  EXPECT_EQ(o.sources, unsigned{kSourceSoftware | kSourceTracepoint});
  EXPECT_TRUE(o.verbose);
  EXPECT_EQ(o.pattern, "clock");
  ASSERT_EQ(ParseOptions({"-g", "--json"}, &o), "");
  EXPECT_TRUE(o.groups && o.json);
  EXPECT_EQ(o.status_filter, PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT);
}

TEST(PmlistOptions, RefusesBadInput) {
  for (const std::vector<std::string> &args :
       std::vector<std::vector<std::string>>{{"-s", "good"},
                                             {"-s", "verified,"},
                                             {"--source", "gpu"},
                                             {"--bogus"},
                                             {""},
                                             {"  "},
                                             {"--json=1"}}) {
    Options o;
    EXPECT_NE(ParseOptions(args, &o), "") << args[0];
  }
}

// Several words are one search (every word must match), in the order given; a quoted
// argument with blanks is words too (api/event_search.h splits them).
TEST(PmlistOptions, SeveralWordsAreOneSearch) {
  Options o;
  ASSERT_EQ(ParseOptions({"instructions", "--status", "verified", "retired"}, &o), "");
  EXPECT_EQ(o.pattern, "instructions retired");
  ASSERT_EQ(ParseOptions({"sys_enter_getpp*", "clock cycles"}, &o), "");
  EXPECT_EQ(o.pattern, "sys_enter_getpp* clock cycles");
  EXPECT_FALSE(o.no_wrap);
  ASSERT_EQ(ParseOptions({"--no-wrap", "clock"}, &o), "");
  EXPECT_TRUE(o.no_wrap);
  EXPECT_NE(ParseOptions({"--no-wrap=1"}, &o), "");
}

// --source and -v describe events; with -g they used to be ignored without a word.
TEST(PmlistOptions, GroupsRefuseEventOnlyOptions) {
  Options o;
  EXPECT_NE(ParseOptions({"-g", "--source", "tracepoint"}, &o).find("does not apply to -g"),
            std::string::npos);
  EXPECT_NE(ParseOptions({"--source=sysfs", "-g"}, &o).find("--source"), std::string::npos);
  EXPECT_NE(ParseOptions({"-g", "-v"}, &o).find("-v shows how events are encoded"),
            std::string::npos);
  // What applies to groups still does.
  ASSERT_EQ(ParseOptions({"-g", "-s", "verified", "basic"}, &o), "");
  EXPECT_TRUE(o.groups);
  EXPECT_EQ(o.status_filter, PM_VERIFIED);
  EXPECT_EQ(o.pattern, "basic");
  EXPECT_EQ(ParseOptions({"-g", "-v", "--help"}, &o), "") << "--help still answers";
}

}  // namespace
}  // namespace pmlist
