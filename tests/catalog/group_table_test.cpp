// SPDX-License-Identifier: MIT
// The groups/ format: formulas, the parser's errors naming file and line, the loader's
// run-time directory, and the status rule.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "base/settings.h"
#include "catalog/group_catalog.h"
#include "catalog/group_formula.h"
#include "catalog/tables.h"
#include "pmapi.h"
#include "support/table_dir.h"

namespace {

using pmapi::Formula;
using pmapi::GroupRecord;
using pmapi::Status;

double Eval(const std::string &text, const std::vector<double> &values, double seconds) {
  Formula formula;
  std::string error = Formula::Parse(text, {"PM_CYC", "PM_INST_CMPL", "task-clock"}, &formula);
  EXPECT_EQ(error, "") << text;
  return formula.Evaluate(values, seconds);
}

TEST(group_formula, EvaluatesWithPrecedenceParenthesesAndTime) {
  std::vector<double> v = {200, 500, 3e9};
  EXPECT_DOUBLE_EQ(Eval("PM_INST_CMPL / PM_CYC", v, 1), 2.5);
  EXPECT_DOUBLE_EQ(Eval("PM_CYC + PM_INST_CMPL * 2", v, 1), 1200);
  EXPECT_DOUBLE_EQ(Eval("(PM_CYC + PM_INST_CMPL) * 2", v, 1), 1400);
  EXPECT_DOUBLE_EQ(Eval("PM_INST_CMPL - PM_CYC - 100", v, 1), 200) << "left-associative";
  EXPECT_DOUBLE_EQ(Eval("-PM_CYC + 1", v, 1), -199);
  EXPECT_DOUBLE_EQ(Eval("task-clock / (time * 1e9)", v, 1.5), 2);
  EXPECT_DOUBLE_EQ(Eval("PM_CYC / time / 1e2", v, 4), 0.5);
}

TEST(group_formula, DivisionByZeroIsNotANumber) {
  EXPECT_TRUE(std::isnan(Eval("PM_INST_CMPL / PM_CYC", {0, 5, 0}, 1)));
  EXPECT_TRUE(std::isnan(Eval("PM_CYC / time", {10, 0, 0}, 0)));
  EXPECT_TRUE(std::isnan(Eval("1 + PM_CYC / 0", {10, 0, 0}, 1))) << "NaN propagates";
}

TEST(group_formula, BadFormulasSayWhereAndWhat) {
  struct Case {
    const char *text;
    const char *fragment;
  } cases[] = {
      {"", "formula ends"},
      {"PM_CYC /", "formula ends"},
      {"(PM_CYC", "missing ')'"},
      {"PM_CYC PM_INST_CMPL", "unexpected 'PM_INST_CMPL'"},
      {"PM_CYC % 2", "unexpected '%"},
      {"PM_BOGUS / PM_CYC", "'PM_BOGUS' is neither a member"},
      {"PM_CYC-PM_INST_CMPL", "'PM_CYC-PM_INST_CMPL' is neither"},
  };
  for (const Case &c : cases) {
    Formula formula;
    std::string error = Formula::Parse(c.text, {"PM_CYC", "PM_INST_CMPL"}, &formula);
    EXPECT_NE(error.find(c.fragment), std::string::npos) << c.text << " -> " << error;
    EXPECT_EQ(error.rfind("at character ", 0), 0u) << error;
  }
}

Status Parse(const std::string &text, std::vector<GroupRecord> *records) {
  return pmapi::ParseGroupTable("t.grp", text, records);
}

TEST(group_parser, ReadsGroupsMembersAndMetrics) {
  std::vector<GroupRecord> records;
  Status status = Parse(
      "# comment\n"
      "\n"
      " 7 | pm_x | An x | Counts x. \n"
      "   events PM_CYC  PM_INST_CMPL\tsyscalls:sys_enter_getppid\n"
      "   metric IPC = PM_INST_CMPL / PM_CYC | Instructions per cycle \n"
      "   metric CPI = PM_CYC / PM_INST_CMPL\n"
      "8|pm_y|A y|Counts y.\n"
      "events task-clock\n",
      &records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].id, 7);
  EXPECT_EQ(records[0].short_name, "pm_x");
  EXPECT_EQ(records[0].long_name, "An x");
  EXPECT_EQ(records[0].description, "Counts x.");
  EXPECT_EQ(records[0].origin, "t.grp:3");
  EXPECT_EQ(records[0].members,
            (std::vector<std::string>{"PM_CYC", "PM_INST_CMPL", "syscalls:sys_enter_getppid"}));
  ASSERT_EQ(records[0].metrics.size(), 2u);
  EXPECT_EQ(records[0].metrics[0].name, "IPC");
  EXPECT_EQ(records[0].metrics[0].formula, "PM_INST_CMPL / PM_CYC");
  EXPECT_EQ(records[0].metrics[0].description, "Instructions per cycle");
  EXPECT_EQ(records[0].metrics[1].formula, "PM_CYC / PM_INST_CMPL");
  EXPECT_EQ(records[0].metrics[1].description, "") << "the description is optional";
  EXPECT_DOUBLE_EQ(records[0].metrics[0].compiled.Evaluate({4, 6, 0}, 1), 1.5);
  EXPECT_EQ(records[1].members, (std::vector<std::string>{"task-clock"}));
  EXPECT_TRUE(records[1].metrics.empty());
}

TEST(group_parser, EveryErrorNamesFileAndLine) {
  struct Case {
    const char *text;  // lines 3.. of a table whose first group is good
    const char *fragment;
  } cases[] = {
      {"2 | pm_b | b\n", "has 4 fields"},
      {"x | pm_b | b | d\n", "group id 'x'"},
      {"100000 | pm_b | b | d\n", "group id '100000'"},
      {"2 |  | b | d\n", "empty short name"},
      {"2 | pm b | b | d\n", "contains a space"},
      {"2 | pm_b |  | d\n", "empty long name"},
      {"2 | pm_b | b |  \n", "empty description"},
      {"1 | pm_b | b | d\n", "group id 1 is already used at t.grp:1"},
      {"2 | pm_a | b | d\n", "group short name 'pm_a' is already used at t.grp:1"},
      {"events PM_INST_CMPL\n", "a second 'events' line"},
      {"metric X = PM_BOGUS\n", "metric 'X': at character 1: 'PM_BOGUS' is neither"},
      {"metric X = (PM_CYC\n", "missing ')'"},
      {"metric X PM_CYC\n", "'=' is missing"},
      {"metric = PM_CYC\n", "empty metric name"},
      {"metric A B = PM_CYC\n", "contains a space"},
      {"metric X = PM_CYC |\n", "metric 'X': empty description after '|'"},
      {"metric M = PM_CYC\n", "metric 'M' is defined twice"},
      {"bogus line\n", "found 'bogus'"},
      {"2 | pm_b | b | d\nevents\n", "lists no event"},
      {"2 | pm_b | b | d\nevents a b c d e f g h i\n", "9 events, but a group holds at most 8"},
      {"2 | pm_b | b | d\nevents a b a\n", "event 'a' is listed twice"},
      {"2 | pm_b | b | d\nmetric X = 1\n", "before the group's 'events' line"},
      {"2 | pm_b | b | d\n3 | pm_c | c | d\nevents a\n", "group pm_b has no 'events' line"},
  };
  for (const Case &c : cases) {
    std::vector<GroupRecord> records;
    Status status = Parse(
        std::string("1 | pm_a | a | d\nevents PM_CYC\nmetric M = PM_CYC\n") + c.text, &records);
    EXPECT_EQ(status.code(), Pmapi_BadCatalog) << c.text;
    EXPECT_EQ(status.detail().rfind("t.grp:", 0), 0u) << status.detail();
    EXPECT_NE(status.detail().find(c.fragment), std::string::npos)
        << c.text << " -> " << status.detail();
    EXPECT_TRUE(records.empty()) << "a bad table contributes nothing";
  }
}

TEST(group_parser, LineNumbersCountCommentsAndBlankLines) {
  std::vector<GroupRecord> records;
  Status status =
      Parse("# c\n\n1 | pm_a | a | d\n\n  events PM_CYC\n# c\n  metric X = 1 +\n", &records);
  EXPECT_EQ(status.detail().rfind("t.grp:7: metric 'X'", 0), 0u) << status.detail();
  status = Parse("events PM_CYC\n", &records);
  EXPECT_EQ(status.detail().rfind("t.grp:1: 'events' before any group header", 0), 0u)
      << status.detail();
  status = Parse("1 | pm_a | a | d\n", &records);
  EXPECT_EQ(status.detail(), "t.grp:1: group pm_a has no 'events' line");
}

// A scratch directory named by $PMAPI_GROUPS_DIR for one test.
class group_dir : public pmapi_test::TableDirTest {
 protected:
  group_dir() : TableDirTest({pmapi::kGroupsDirVariable}) {}
};

const GroupRecord *Find(const std::vector<GroupRecord> &records, int id) {
  return pmapi_test::FindById(records, id);
}

TEST(group_loader, ShippedTablesLoadCleanlyInIdOrder) {
  pmapi::SetSetting(pmapi::kGroupsDirVariable, "");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  ASSERT_TRUE(status.ok()) << status.detail();
  for (const char *name : {"pm_basic", "pm_cache", "pm_tlb", "pm_fp", "pm_branch", "pm_sw_basic",
                           "pm_syscalls", "pm_sched"}) {
    bool found = false;
    for (const GroupRecord &record : records) found |= record.short_name == name;
    EXPECT_TRUE(found) << name;
  }
  ASSERT_NE(Find(records, 1), nullptr);
  EXPECT_EQ(Find(records, 1)->short_name, "pm_basic");
  for (size_t i = 1; i < records.size(); ++i) EXPECT_LT(records[i - 1].id, records[i].id);
  for (const GroupRecord &record : records) {
    EXPECT_LT(record.id, 50000) << "shipped ids leave 50000.. to sites";
    EXPECT_EQ(record.short_name.rfind("pm_", 0), 0u) << record.short_name;
  }
}

TEST_F(group_dir, RuntimeTablesAddAndOverride) {
  Write("site.grp",
        "50000 | pm_site | Site | Ours.\n  events task-clock\n"
        "1 | pm_basic | Basic, overridden | Redefined.\n  events PM_INST_CMPL PM_CYC\n");
  Write("ignored.tbl", "not a group table");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_NE(Find(records, 50000), nullptr);
  EXPECT_EQ(Find(records, 50000)->short_name, "pm_site");
  ASSERT_NE(Find(records, 1), nullptr);
  EXPECT_EQ(Find(records, 1)->long_name, "Basic, overridden");
  EXPECT_EQ(Find(records, 1)->members, (std::vector<std::string>{"PM_INST_CMPL", "PM_CYC"}));
  EXPECT_NE(Find(records, 100), nullptr) << "groups not overridden stay";
}

TEST_F(group_dir, ParseErrorNamesTheRuntimeFileAndLine) {
  std::string path = Write("bad.grp", "# header\n50001 | pm_x | x | d\n  events\n");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_EQ(status.detail().rfind(path + ":3: ", 0), 0u) << status.detail();
  EXPECT_NE(Find(records, 1), nullptr) << "the compiled-in tables still load";
  EXPECT_EQ(Find(records, 50001), nullptr);
}

TEST_F(group_dir, DuplicatesAcrossFilesAndNameClashesAreErrors) {
  std::string a = Write("a.grp", "50002 | pm_one | One | d\nevents task-clock\n");
  std::string b = Write("b.grp", "50002 | pm_two | Two | d\nevents task-clock\n");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find(b + ":1: group id 50002 is already used at " + a + ":1"),
            std::string::npos)
      << status.detail();
  unlink(b.c_str());
  Write("c.grp", "50003 | pm_basic | Clash | d\nevents task-clock\n");
  std::vector<GroupRecord> again;
  status = pmapi::LoadGroupTables(&again);
  EXPECT_NE(status.detail().find("group short name 'pm_basic' is already used at "
                                 "groups/generic.grp:"),
            std::string::npos)
      << status.detail();
}

TEST_F(group_dir, MissingDirectoryIsReported) {
  pmapi::SetSetting(pmapi::kGroupsDirVariable, "/nonexistent/pmapi-groups");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find("PMAPI_GROUPS_DIR=/nonexistent/pmapi-groups"), std::string::npos);
}

TEST_F(group_dir, MemberUnknownToTheCatalogMakesTheGroupUnprogrammable) {
  Write("site.grp", "50004 | pm_ghost | Ghost | d\nevents task-clock no_such::EVENT\n");
  std::unique_ptr<pmapi::GroupCatalog> groups = pmapi::GroupCatalog::Build(pmapi::Catalog::Get());
  ASSERT_TRUE(groups->load_status().ok()) << groups->load_status().detail();
  const pmapi::ResolvedGroup *ghost = groups->FindName("pm_ghost");
  ASSERT_NE(ghost, nullptr);
  EXPECT_EQ(ghost->id, -1) << "a group this machine cannot count gets no client id";
  EXPECT_EQ(ghost->missing_member, "no_such::EVENT");
  EXPECT_TRUE(ghost->members.empty());
  EXPECT_EQ(ghost->status, pmapi::EventStatus::kUnverified);
}

// "client-id N" pins a group's client id (docs/catalog.md, "Pinned group ids").
TEST(group_parser, ClientIdLinesPinAndTheirErrorsNameFileAndLine) {
  std::vector<GroupRecord> records;
  Status status = pmapi::ParseGroupTable(
      "t.grp",
      "50000 | pm_a | A | d\n  client-id 60\n  events task-clock\n50001 | pm_b | B | d\n"
      "  events task-clock\n",
      &records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].client_id, 60);
  EXPECT_EQ(records[0].client_id_origin, "t.grp:2");
  EXPECT_EQ(records[1].client_id, pmapi::kUnpinned);
  const struct {
    const char *text;
    const char *detail;
  } cases[] = {
      {"50000 | pm_a | A | d\nclient-id\nevents task-clock\n",
       "t.grp:2: client id '' is not an integer in 0..9999"},
      {"50000 | pm_a | A | d\nclient-id 10000\nevents task-clock\n",
       "t.grp:2: client id '10000' is not an integer in 0..9999"},
      {"50000 | pm_a | A | d\nclient-id -1\nevents task-clock\n",
       "t.grp:2: client id '-1' is not an integer in 0..9999"},
      {"50000 | pm_a | A | d\nclient-id 60\nevents task-clock\nclient-id 61\n",
       "t.grp:4: a second 'client-id' line for group pm_a (the first is at t.grp:2)"},
      {"client-id 60\n",
       "t.grp:1: 'client-id' before any group header (id | short name | long "
       "name | description)"},
  };
  for (const auto &c : cases) {
    std::vector<GroupRecord> none;
    status = pmapi::ParseGroupTable("t.grp", c.text, &none);
    EXPECT_EQ(status.code(), Pmapi_BadCatalog) << c.text;
    EXPECT_EQ(status.detail(), c.detail);
    EXPECT_TRUE(none.empty());
  }
}

TEST_F(group_dir, PinsBelowTheUnpinnedGroupsOrTwiceAreErrorsNamingTheLine) {
  std::vector<GroupRecord> shipped;
  ASSERT_TRUE(pmapi::LoadCompiledGroupTables(&shipped).ok());
  const int unpinned = static_cast<int>(shipped.size()) + 1;  // with pm_dense below
  std::string a = Write("a.grp",
                        "50010 | pm_low | Low | d\n  events task-clock\n  client-id 7\n"
                        "50011 | pm_ok | Ok | d\n  client-id 60\n  events task-clock\n"
                        "50012 | pm_dense | Dense | d\n  events task-clock\n");
  std::string b = Write("b.grp",
                        "# again\n50013 | pm_again | Again | d\nclient-id 60\n"
                        "events task-clock\n");
  std::vector<GroupRecord> records;
  Status status = pmapi::LoadGroupTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_EQ(status.detail(),
            a + ":3: client id 7 of group pm_low is taken: the " + std::to_string(unpinned) +
                " groups without a client-id line "
                "have ids 0.." +
                std::to_string(unpinned - 1) + "; pin " + std::to_string(unpinned) + " or more");
  EXPECT_EQ(Find(records, 50010), nullptr) << "a refused pin contributes nothing";
  ASSERT_NE(Find(records, 50011), nullptr);
  EXPECT_EQ(Find(records, 50011)->client_id, 60);
  EXPECT_EQ(Find(records, 50013), nullptr);
  unlink(a.c_str());
  std::vector<GroupRecord> again;
  Write("a.grp", "50011 | pm_ok | Ok | d\n  client-id 60\n  events task-clock\n");
  status = pmapi::LoadGroupTables(&again);
  EXPECT_EQ(status.detail(),
            b + ":3: client id 60 of group pm_again is already pinned at " + a + ":2");
}

// The catalog over the real machine: pinned ids far past the shipped ones, gaps between, the
// shipped ids where they were.
TEST_F(group_dir, PinnedGroupsGetTheirIdsAndMoveNoShippedOne) {
  std::unique_ptr<pmapi::GroupCatalog> shipped = pmapi::GroupCatalog::Build(pmapi::Catalog::Get());
  Write("site.grp",
        "50020 | pm_hpmcount2 | DrHook | d\n  client-id 60\n  events task-clock\n"
        "50021 | pm_far | Far | d\n  client-id 1000\n  events task-clock\n"
        "50022 | pm_nowhere | Nowhere | d\n  client-id 2000\n  events no_such::EVENT\n");
  std::unique_ptr<pmapi::GroupCatalog> groups = pmapi::GroupCatalog::Build(pmapi::Catalog::Get());
  ASSERT_TRUE(groups->load_status().ok()) << groups->load_status().detail();
  EXPECT_EQ(groups->id_limit(), 1001u) << "an unlistable pinned group (2000) adds no gap";
  ASSERT_NE(groups->FindId(60), nullptr);
  EXPECT_EQ(groups->FindId(60)->record.short_name, "pm_hpmcount2");
  EXPECT_EQ(groups->FindId(1000)->record.short_name, "pm_far");
  EXPECT_EQ(groups->FindId(61), nullptr);
  EXPECT_EQ(groups->FindId(2000), nullptr);
  EXPECT_EQ(groups->FindName("pm_nowhere")->id, -1);
  for (size_t id = 0; id < shipped->id_limit(); ++id) {
    ASSERT_NE(groups->FindId(static_cast<int>(id)), nullptr) << id;
    EXPECT_EQ(groups->FindId(static_cast<int>(id))->record.short_name,
              shipped->FindId(static_cast<int>(id))->record.short_name);
  }
}

TEST(group_status, FollowsTheMembers) {
  using pmapi::CatalogEvent;
  using pmapi::EventStatus;
  CatalogEvent verified, caveat, unverified;
  verified.status = EventStatus::kVerified;
  caveat.status = EventStatus::kCaveat;
  unverified.status = EventStatus::kUnverified;
  EXPECT_EQ(pmapi::GroupStatus({&verified, &verified}), EventStatus::kVerified);
  EXPECT_EQ(pmapi::GroupStatus({&verified, &caveat}), EventStatus::kCaveat);
  EXPECT_EQ(pmapi::GroupStatus({&caveat, &unverified, &verified}), EventStatus::kUnverified);
  EXPECT_EQ(pmapi::GroupStatus({}), EventStatus::kUnverified);
}

}  // namespace
