// SPDX-License-Identifier: MIT
// The catalog's search calls (include/pmapi_catalog.h) and pm_parse_event_list
// (include/pmapi_select.h): the rule pmlist and pmcount -e share, through the public API
// alone, as the tools call it.
#include <gtest/gtest.h>
#include <pmapi_catalog.h>
#include <pmapi_select.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "support/counting.h"

namespace {

using pmapi_test::InitializeAll;

std::vector<pm_catalog_match_t> Match(const char *query) {
  int count = -1;
  EXPECT_EQ(pm_catalog_match(query, nullptr, 0, &count), 0) << query;
  std::vector<pm_catalog_match_t> matches(static_cast<size_t>(count > 0 ? count : 0));
  int again = -1;
  EXPECT_EQ(pm_catalog_match(query, matches.data(), count, &again), 0) << query;
  EXPECT_EQ(again, count) << query;
  return matches;
}

bool Has(const std::vector<pm_catalog_match_t> &matches, const std::string &name) {
  for (const pm_catalog_match_t &match : matches) {
    if (name == match.name) return true;
  }
  return false;
}

TEST(CatalogSearch, TheRuleAloneNeedsNoInitialization) {
  const int status = pmapi_test::InChild([] {
    bool ok = pm_catalog_query_matches("sys_enter_getpp*", "syscalls:sys_enter_getppid", "", "");
    ok = ok && !pm_catalog_query_matches("sys_enter_getpp*", "syscalls:sys_enter_read", "", "");
    ok = ok && pm_catalog_query_matches("RETIRED instructions", "X", "Instructions retired", "");
    ok = ok && !pm_catalog_query_matches("retired cycles", "X", "Instructions retired", "");
    ok = ok && pm_catalog_query_matches("", nullptr, nullptr, nullptr);
    ok = ok && pm_catalog_is_pattern("a*") && pm_catalog_is_pattern("[ab]") &&
         !pm_catalog_is_pattern("task-clock") && !pm_catalog_is_pattern(nullptr);
    int n = 0;
    pm_catalog_suggestions_t s;
    ok = ok && pm_catalog_match("task*", nullptr, 0, &n) == Pmapi_NoInit;
    ok = ok && pm_catalog_suggest("task-clok", 0, &s) == Pmapi_NoInit;
    _exit(ok ? 0 : 1);
  });
  EXPECT_EQ(status, 0);
}

TEST(CatalogSearch, BadArgumentsAreRefused) {
  if (!InitializeAll()) return;
  int n = 0;
  pm_catalog_match_t one;
  EXPECT_EQ(pm_catalog_match(nullptr, &one, 1, &n), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_match("task*", &one, 1, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_match("task*", nullptr, 1, &n), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_match("task*", &one, -1, &n), Pmapi_InvalidArg);
  pm_catalog_suggestions_t s;
  EXPECT_EQ(pm_catalog_suggest(nullptr, 0, &s), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_suggest("x", 0, nullptr), Pmapi_InvalidArg);
  EXPECT_EQ(pm_catalog_suggest("x", 0x10, &s), Pmapi_InvalidArg);
}

// A pattern gives every event whose name it matches, in id order, each countable or with why
// not; a query of words searches the descriptions too.
TEST(CatalogSearch, MatchGivesTheEventsAPatternNames) {
  if (!InitializeAll()) return;
  const std::vector<pm_catalog_match_t> clocks = Match("*-clock");
  EXPECT_TRUE(Has(clocks, "task-clock"));
  EXPECT_TRUE(Has(clocks, "cpu-clock"));
  for (size_t i = 1; i < clocks.size(); ++i) EXPECT_LT(clocks[i - 1].event_id, clocks[i].event_id);
  for (const pm_catalog_match_t &match : clocks) {
    if (std::string(match.name) == "task-clock") {
      EXPECT_EQ(match.countable, 1);
      EXPECT_STREQ(match.not_countable, "");
    }
  }
  EXPECT_TRUE(Match("no_event_has_this_name_*").empty());
  // Fewer slots than matches: the first ones, and the whole count.
  int count = 0;
  pm_catalog_match_t first;
  ASSERT_EQ(pm_catalog_match("*-clock", &first, 1, &count), 0);
  EXPECT_EQ(count, static_cast<int>(clocks.size()));
  EXPECT_EQ(first.event_id, clocks[0].event_id);
  if (access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid", R_OK) == 0) {
    const std::vector<pm_catalog_match_t> getppid = Match("sys_enter_getpp*");
    ASSERT_EQ(getppid.size(), 1u);
    EXPECT_STREQ(getppid[0].name, "syscalls:sys_enter_getppid");
  }
}

TEST(CatalogSearch, SuggestCorrectsPatternsAndWords) {
  if (!InitializeAll()) return;
  pm_catalog_suggestions_t s;
  ASSERT_EQ(pm_catalog_suggest("task-clok", 0, &s), 0);
  ASSERT_GE(s.nsuggestions, 1);
  EXPECT_STREQ(s.suggestions[0], "task-clock");
  ASSERT_EQ(pm_catalog_suggest("pm_sw_basc", PM_CATALOG_GROUPS, &s), 0);
  ASSERT_GE(s.nsuggestions, 1);
  EXPECT_STREQ(s.suggestions[0], "pm_sw_basic");
  if (access("/sys/kernel/tracing/events/syscalls", R_OK) == 0) {
    ASSERT_EQ(pm_catalog_suggest("syscalls:sys_entr_*", 0, &s), 0);
    ASSERT_GE(s.nsuggestions, 1);
    EXPECT_STREQ(s.suggestions[0], "syscalls:sys_enter_*");
    EXPECT_STREQ(s.hidden, "");
  }
}

TEST(CatalogSearch, SuggestNamesOnlyAndHiddenForAnyWord) {
  if (!InitializeAll()) return;
  pm_catalog_suggestions_t s;
  EXPECT_EQ(pm_catalog_suggest("cycles", 0x8, &s), Pmapi_InvalidArg);
  // A word of the descriptions is offered for a plain word, but not when a name is wanted.
  ASSERT_EQ(pm_catalog_suggest("retird", 0, &s), 0);
  const auto offers = [&](const char *name) {
    for (int i = 0; i < s.nsuggestions; ++i)
      if (strcmp(s.suggestions[i], name) == 0) return true;
    return false;
  };
  if (offers("retired")) {
    ASSERT_EQ(pm_catalog_suggest("retird", PM_CATALOG_NAMES_ONLY, &s), 0);
    EXPECT_FALSE(offers("retired"));
  }
  ASSERT_EQ(pm_catalog_suggest("pm_sw_basc", PM_CATALOG_GROUPS | PM_CATALOG_NAMES_ONLY, &s), 0);
  ASSERT_GE(s.nsuggestions, 1);
  EXPECT_STREQ(s.suggestions[0], "pm_sw_basic");
  // The reason tracepoints are hidden: for a tracepoint's shape, and for any word on request.
  ASSERT_EQ(pm_catalog_suggest("syscalls:sys_enter_getppdi", 0, &s), 0);
  const std::string hidden = s.hidden;
  ASSERT_EQ(pm_catalog_suggest("getppid", 0, &s), 0);
  EXPECT_STREQ(s.hidden, "");
  ASSERT_EQ(pm_catalog_suggest("getppid", PM_CATALOG_HIDDEN_ANY, &s), 0);
  EXPECT_EQ(s.hidden, hidden);
  ASSERT_EQ(pm_catalog_suggest("getppid", PM_CATALOG_HIDDEN_ANY | PM_CATALOG_GROUPS, &s), 0);
  EXPECT_STREQ(s.hidden, "");
}

TEST(ParseEventList, SplitsAsTheSelectionDoes) {
  pm_event_spec_t specs[4];
  int n = 0;
  char why[PM_SELECT_TEXT_MAX];
  ASSERT_EQ(pm_parse_event_list("cycles:u,cpu/event=0x3c,umask=1/,msr/tsc/k", specs, 4, &n, why), 0)
      << why;
  ASSERT_EQ(n, 3);
  EXPECT_STREQ(specs[0].text, "cycles:u");
  EXPECT_STREQ(specs[0].name, "cycles");
  EXPECT_TRUE(specs[0].has_mode && specs[0].user && !specs[0].kernel);
  EXPECT_STREQ(specs[1].name, "cpu/event=0x3c,umask=1/");
  EXPECT_FALSE(specs[1].has_mode);
  EXPECT_STREQ(specs[2].name, "msr/tsc/");
  EXPECT_TRUE(specs[2].has_mode && !specs[2].user && specs[2].kernel);
  // Counted whatever the room: a caller sizes its array from nspecs.
  ASSERT_EQ(pm_parse_event_list("a,b,c,d,e", specs, 2, &n, nullptr), 0);
  EXPECT_EQ(n, 5);
  EXPECT_STREQ(specs[1].name, "b");
  ASSERT_EQ(pm_parse_event_list("a,b", nullptr, 0, &n, nullptr), 0);
  EXPECT_EQ(n, 2);
}

TEST(ParseEventList, MalformedListsSayWhichEvent) {
  pm_event_spec_t specs[4];
  int n = 0;
  char why[PM_SELECT_TEXT_MAX];
  EXPECT_EQ(pm_parse_event_list("task-clock,,cycles", specs, 4, &n, why), Pmapi_InvalidEvent);
  EXPECT_NE(std::string(why), "");
  EXPECT_EQ(pm_parse_event_list(std::string(300, 'x').c_str(), specs, 4, &n, why),
            Pmapi_InvalidEvent);
  EXPECT_NE(std::string(why).find("longer than 255 bytes"), std::string::npos) << why;
  EXPECT_EQ(pm_parse_event_list(nullptr, specs, 4, &n, why), Pmapi_InvalidArg);
  EXPECT_EQ(pm_parse_event_list("a", specs, 4, nullptr, why), Pmapi_InvalidArg);
  EXPECT_EQ(pm_parse_event_list("a", nullptr, 4, &n, why), Pmapi_InvalidArg);
  EXPECT_EQ(pm_parse_event_list("a", specs, -1, &n, why), Pmapi_InvalidArg);
}

}  // namespace
