// SPDX-License-Identifier: MIT
// The search rule pmlist filters by and pmcount -e expands wildcards with
// (src/api/event_search.h): words in any order and case, wildcards over names.
#include "api/event_search.h"

#include <gtest/gtest.h>

namespace pmapi {
namespace {

constexpr const char *kGetppid = "syscalls:sys_enter_getppid";

TEST(EventSearch, EveryWordMustMatchInAnyOrderAndCase) {
  const EventQuery query("instructions RETIRED");
  ASSERT_EQ(query.words().size(), 2u);
  EXPECT_TRUE(query.Matches("PM_INST_CMPL", "Instructions completed", "Instructions retired"));
  EXPECT_TRUE(EventQuery("retired instructions")
                  .Matches("PM_INST_CMPL", "Instructions completed", "Instructions retired"));
  // One word found, the other not: no match.
  EXPECT_FALSE(query.Matches("PM_CYC", "Processor cycles", "Cycles; instructions per cycle"));
  // Words may come from different fields.
  EXPECT_TRUE(EventQuery("pm_inst retired").Matches("PM_INST_CMPL", "", "instructions retired"));
}

TEST(EventSearch, BlanksSeparateWordsAndNoWordMatchesEverything) {
  EXPECT_EQ(EventQuery("  a \t b  ").words(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(EventQuery("").empty());
  EXPECT_TRUE(EventQuery(" ").Matches("x", "", ""));
  EXPECT_EQ(EventQuery("a b").Quoted(), "'a' 'b'");
}

TEST(EventSearch, WildcardsMatchTheWholeNameOrItWithoutItsPmuOrSubsystem) {
  EXPECT_TRUE(NameMatchesPattern("syscalls:sys_enter_*", kGetppid));
  EXPECT_TRUE(NameMatchesPattern("syscalls:sys_enter_getpp*", kGetppid));
  EXPECT_TRUE(NameMatchesPattern("SYSCALLS:SYS_ENTER_GETPP?D", kGetppid));
  EXPECT_TRUE(NameMatchesPattern("sys_enter_getpp*", kGetppid));  // after the ':'
  EXPECT_TRUE(NameMatchesPattern("*:sys_enter_getppi[cd]", kGetppid));
  EXPECT_FALSE(NameMatchesPattern("*:sys_enter_getppi[!d]", kGetppid));
  EXPECT_FALSE(NameMatchesPattern("getpp*", kGetppid)) << "not from the middle of a name";
  EXPECT_FALSE(NameMatchesPattern("enter_*", kGetppid));
  EXPECT_FALSE(NameMatchesPattern("sys_exit_*", kGetppid));
  EXPECT_FALSE(NameMatchesPattern("syscalls:sys_enter_getpp", kGetppid)) << "no implied '*'";
  EXPECT_TRUE(NameMatchesPattern("RETIRED*", "amd64_fam19h_zen3::RETIRED_OPS"));
  EXPECT_TRUE(NameMatchesPattern("tsc", "msr/tsc"));
}

TEST(EventSearch, AWildcardWordLooksAtTheNameOnly) {
  EXPECT_TRUE(HasWildcard("a*") && HasWildcard("a?") && HasWildcard("[ab]"));
  EXPECT_FALSE(HasWildcard("task-clock"));
  // "cycles" is in the description, but a pattern names events as pmcount -e takes them.
  EXPECT_FALSE(EventQuery("cyc*").Matches("PM_RUN_INST", "Run cycles", "cycles run"));
  EXPECT_TRUE(EventQuery("pm_run*").Matches("PM_RUN_CYC", "", ""));
  // A plain word is a substring anywhere.
  EXPECT_TRUE(EventQuery("cyc").Matches("x", "", "cycles"));
}

TEST(EventSearch, SuggestionsCompareTheLiteralTextAndTheWordsOfDescriptions) {
  EXPECT_EQ(WithoutWildcards("sys_entr_*"), "sys_entr_");
  EXPECT_EQ(WithoutWildcards("a?b[cd]e*"), "abe");
  EXPECT_EQ(WithoutWildcards("a[]x]b"), "ab") << "']' first is a member";
  EXPECT_EQ(WithoutWildcards("a[bc"), "a") << "an unclosed bracket ends the text";
  EXPECT_EQ(WordsOf({"Instructions retired, (retired)", "PM_CYC on a cpu"}),
            (std::vector<std::string>{"instructions", "retired", "pm_cyc", "cyc", "cpu"}));
  EXPECT_EQ(WordsOf({"syscalls:sys_enter_getppid"}),
            (std::vector<std::string>{"syscalls", "sys_enter_getppid", "sys", "enter", "getppid"}));
}

TEST(EventSearch, APatternNothingMatchesIsCorrectedAtItsStart) {
  const std::vector<std::string> names = {kGetppid, "syscalls:sys_enter_read",
                                          "syscalls:sys_exit_read", "sched:sched_switch"};
  EXPECT_EQ(CorrectedPatterns("syscalls:sys_entr_*", names, 4),
            (std::vector<std::string>{"syscalls:sys_enter_*"}));
  EXPECT_EQ(CorrectedPatterns("sched:shed_*", names, 4),
            (std::vector<std::string>{"sched:sched_*"}));
  // Every correction offered matches a name.
  for (const std::string &p : CorrectedPatterns("syscals:sys_?xit_r*", names, 4)) {
    bool matches = false;
    for (const std::string &name : names) matches = matches || NameMatchesPattern(p, name);
    EXPECT_TRUE(matches) << p;
  }
  EXPECT_TRUE(CorrectedPatterns("*read", names, 4).empty()) << "no literal start";
  EXPECT_TRUE(CorrectedPatterns("zzzzzzzzzz*", names, 4).empty());
}

}  // namespace
}  // namespace pmapi
