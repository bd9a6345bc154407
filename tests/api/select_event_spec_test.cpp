// SPDX-License-Identifier: MIT
// pm_select_events' pure parts: list splitting and privilege modifiers, before any catalog is
// asked, and the "did you mean" ranking.
#include "api/event_spec.h"
#include "api/suggest.h"

#include <gtest/gtest.h>

namespace pmapi {
namespace {

std::vector<EventSpec> Parse(const std::string &list) {
  std::vector<EventSpec> specs;
  EXPECT_EQ(ParseEventList(list, &specs), "") << list;
  return specs;
}

TEST(SelectEventSpec, SplitsAtCommasButNotInsideSlashTerms) {
  std::vector<EventSpec> specs =
      Parse("task-clock,cpu/event=0x3c,umask=1/,syscalls:sys_enter_write");
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "task-clock");
  EXPECT_EQ(specs[1].name, "cpu/event=0x3c,umask=1/");
  EXPECT_EQ(specs[2].name, "syscalls:sys_enter_write");  // not a modifier
  EXPECT_FALSE(specs[2].has_mode);
  specs = Parse("msr/tsc,task-clock,msr/tsc/,page-faults");  // a bare pmu/event splits
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].name, "msr/tsc");
  EXPECT_EQ(specs[2].name, "msr/tsc/");
}

TEST(SelectEventSpec, PrivilegeModifiers) {
  std::vector<EventSpec> s = Parse(
      "cycles:u,cycles:k,cycles:uk,INST_RETIRED:ANY_P:u,x:u=0,"
      "y:k=0:u=1,msr/tsc/u,pmu::EV:UMASK");
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s[0].name, "cycles");
  EXPECT_TRUE(s[0].has_mode && s[0].user && !s[0].kernel);
  EXPECT_TRUE(s[1].has_mode && !s[1].user && s[1].kernel);
  EXPECT_TRUE(s[2].user && s[2].kernel);
  EXPECT_EQ(s[3].name, "INST_RETIRED:ANY_P");
  EXPECT_TRUE(s[3].user && !s[3].kernel);
  EXPECT_EQ(s[4].name, "x");
  EXPECT_TRUE(!s[4].user && s[4].kernel);  // =0 only removes
  EXPECT_TRUE(s[5].user && !s[5].kernel);
  EXPECT_EQ(s[6].name, "msr/tsc/");
  EXPECT_TRUE(s[6].user && !s[6].kernel);
  EXPECT_EQ(s[7].name, "pmu::EV:UMASK");
  EXPECT_FALSE(s[7].has_mode);
  EXPECT_EQ(s[3].text, "INST_RETIRED:ANY_P:u");  // printed as written
}

TEST(SelectEventSpec, HypervisorModifierAsPerfAndLibpfm4WriteIt) {
  std::vector<EventSpec> s = Parse("cycles:h,cycles:kh,cycles:ukh,x:h=0,y:h=1,msr/tsc/uh,z:uk");
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].name, "cycles");
  EXPECT_TRUE(s[0].has_mode && !s[0].user && !s[0].kernel && s[0].hypervisor);
  EXPECT_TRUE(!s[1].user && s[1].kernel && s[1].hypervisor);
  EXPECT_TRUE(s[2].user && s[2].kernel && s[2].hypervisor);
  EXPECT_EQ(s[3].name, "x");
  EXPECT_TRUE(s[3].user && s[3].kernel && !s[3].hypervisor);  // =0 only removes
  EXPECT_TRUE(!s[4].user && !s[4].kernel && s[4].hypervisor);
  EXPECT_EQ(s[5].name, "msr/tsc/");
  EXPECT_TRUE(s[5].user && !s[5].kernel && s[5].hypervisor);
  EXPECT_TRUE(s[6].user && s[6].kernel && !s[6].hypervisor);  // letters: exactly those
  std::vector<EventSpec> bad;
  EXPECT_NE(ParseEventList("a:u=0:k=0:h=0", &bad), "");
  EXPECT_EQ(Parse("EV:hh")[0].name, "EV:hh");
}

TEST(SelectEventSpec, ARepeatedLetterIsNotAModifier) {
  // "uu" or "kk" is no privilege modifier (u and k each at most once): it stays in the name, for
  // the catalog to resolve or refuse, instead of quietly counting user or kernel mode.
  std::vector<EventSpec> s = Parse("EV:uu,EV:kk");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "EV:uu");
  EXPECT_FALSE(s[0].has_mode);
  EXPECT_EQ(s[1].name, "EV:kk");
  EXPECT_FALSE(s[1].has_mode);
}

TEST(SelectEventSpec, RefusesMalformedEvents) {
  for (const char *bad : {"", ",", "a,", ",a", "a,,b", "a:", "a:u:", ":u", "a:u=0:k=0", "a b",
                          "a|b", "msr/tsc/x", "a\n"}) {
    std::vector<EventSpec> specs;
    EXPECT_NE(ParseEventList(bad, &specs), "") << "'" << bad << "'";
  }
}

TEST(SelectEventSpec, CatalogSpellingDropsPerfsClosingSlash) {
  EXPECT_EQ(CatalogSpelling("msr/tsc/"), "msr/tsc");
  EXPECT_EQ(CatalogSpelling("msr/tsc"), "msr/tsc");
  EXPECT_EQ(CatalogSpelling("cpu/event=1,umask=2/"), "cpu/event=1,umask=2/");  // terms stay
  EXPECT_EQ(CatalogSpelling("/"), "/");
}

TEST(SelectEventSpec, SplitsLibpfmAttributes) {
  std::string event;
  std::vector<std::string> attributes;
  ASSERT_TRUE(SplitPfmAttributes("amd64::RETIRED_OPS:c=2:e", &event, &attributes));
  EXPECT_EQ(event, "amd64::RETIRED_OPS");
  EXPECT_EQ(attributes, (std::vector<std::string>{"c=2", "e"}));
  ASSERT_TRUE(SplitPfmAttributes("INST_RETIRED", &event, &attributes));
  EXPECT_TRUE(attributes.empty());
  EXPECT_FALSE(SplitPfmAttributes("::X", &event, &attributes));
  EXPECT_FALSE(SplitPfmAttributes("a::", &event, &attributes));
  EXPECT_FALSE(SplitPfmAttributes("a::b::c", &event, &attributes));
  EXPECT_FALSE(SplitPfmAttributes("msr/tsc", &event, &attributes));
}

TEST(SelectSuggest, EditDistance) {
  EXPECT_EQ(EditDistance("task-clock", "task-clock", 5), 0u);
  EXPECT_EQ(EditDistance("task-clok", "task-clock", 5), 1u);
  EXPECT_EQ(EditDistance("TASK-CLOCK", "task-clock", 5), 0u);  // case does not count
  EXPECT_EQ(EditDistance("kitten", "sitting", 5), 3u);
  EXPECT_GT(EditDistance("a", "abcdefgh", 2), 2u);  // gives up past the limit
}

TEST(SelectSuggest, ClosestNamesOffersTyposThenContainingNames) {
  const std::vector<std::string> names = {"task-clock", "cpu-clock", "page-faults",
                                          "syscalls:sys_enter_getppid", "context-switches"};
  EXPECT_EQ(ClosestNames("task-clok", names, 3), (std::vector<std::string>{"task-clock"}));
  EXPECT_EQ(ClosestNames("getppid", names, 3),
            (std::vector<std::string>{"syscalls:sys_enter_getppid"}));
  EXPECT_TRUE(ClosestNames("zzzzzzzz", names, 3).empty());
  EXPECT_TRUE(ClosestNames("", names, 3).empty());
  EXPECT_EQ(ClosestNames("clock", names, 1).size(), 1u);
}

// A typo is at most a third of the query's length away (at least 2): "major-flts" (10
// characters, 3 edits allowed) offers major-faults (2 edits) but not minor-faults (4), and
// "cpu-cycles" offers nothing (cpu-clock is 5 edits away and does not contain it).
TEST(SelectSuggest, TyposWithinAThirdOfTheQuery) {
  const std::vector<std::string> names = {"major-faults", "minor-faults", "cpu-clock"};
  EXPECT_EQ(ClosestNames("major-flts", names, 3), (std::vector<std::string>{"major-faults"}));
  EXPECT_TRUE(ClosestNames("cpu-cycles", names, 3).empty());
}

}  // namespace
}  // namespace pmapi
