// SPDX-License-Identifier: MIT
// The events/*.tbl parser and loader: good tables, every kind of error naming file and line,
// duplicates, and run-time overrides from $PMAPI_EVENTS_DIR.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/settings.h"
#include "catalog/catalog.h"
#include "catalog/tables.h"
#include "pmapi.h"
#include "support/table_dir.h"

namespace {

using pmapi::ParseEventTable;
using pmapi::Status;
using pmapi::TableRecord;

Status Parse(const std::string &text, std::vector<TableRecord> *records) {
  return ParseEventTable("t.tbl", text, records);
}

TEST(catalog_table_parser, ReadsRecordsCommentsAndAlternatives) {
  std::vector<TableRecord> records;
  Status status = Parse(
      "# comment\n"
      "\n"
      "  7 | PM_X | An x | exact | perf::PERF_COUNT_HW_CPU_CYCLES | Counts x.  \n"
      "8|PM_Y|A y|approximate|a::B;c::D|Differs by y.\n",
      &records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].id, 7);
  EXPECT_EQ(records[0].short_name, "PM_X");
  EXPECT_EQ(records[0].long_name, "An x");
  EXPECT_FALSE(records[0].approximate);
  EXPECT_EQ(records[0].description, "Counts x.");
  EXPECT_EQ(records[0].origin, "t.tbl:3");
  EXPECT_TRUE(records[1].approximate);
  EXPECT_EQ(records[1].pfm_alternatives, (std::vector<std::string>{"a::B", "c::D"}));
}

struct BadLine {
  const char *text;
  const char *expected_fragment;
};

TEST(catalog_table_parser, EveryErrorNamesFileAndLine) {
  const BadLine cases[] = {
      {"1 | A | a | exact | perf::X\n", "expected 6 fields"},
      {"x | A | a | exact | perf::X | d\n", "id 'x'"},
      {"0 | A | a | exact | perf::X | d\n", "id '0'"},
      {"100000 | A | a | exact | perf::X | d\n", "id '100000'"},
      {"1 |  | a | exact | perf::X | d\n", "empty short name"},
      {"1 | A B | a | exact | perf::X | d\n", "contains a space"},
      {"1 | A |  | exact | perf::X | d\n", "empty long name"},
      {"1 | A | a | roughly | perf::X | d\n", "neither 'exact' nor 'approximate'"},
      {"1 | A | a | exact |  | d\n", "empty libpfm4 event string"},
      {"1 | A | a | exact | perf::X;; | d\n", "empty libpfm4 event string"},
      {"1 | A | a | approximate | perf::X |  \n", "must say how it differs"},
  };
  for (const BadLine &bad : cases) {
    std::vector<TableRecord> records;
    // The bad record is on line 3, after a comment and a good record.
    Status status =
        Parse(std::string("# c\n9 | OK | ok | exact | perf::X | fine\n") + bad.text, &records);
    EXPECT_EQ(status.code(), Pmapi_BadCatalog) << bad.text;
    EXPECT_EQ(status.detail().rfind("t.tbl:3: ", 0), 0u) << status.detail();
    EXPECT_NE(status.detail().find(bad.expected_fragment), std::string::npos) << status.detail();
    EXPECT_TRUE(records.empty()) << "a bad table must contribute nothing";
  }
}

TEST(catalog_table_parser, DuplicateIdsAndNamesNameBothLines) {
  std::vector<TableRecord> records;
  Status status = Parse("5 | A | a | exact | p::X | d\n5 | B | b | exact | p::Y | d\n", &records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find("t.tbl:2: id 5 is already used at t.tbl:1"), std::string::npos)
      << status.detail();
  status = Parse("5 | A | a | exact | p::X | d\n6 | A | b | exact | p::Y | d\n", &records);
  EXPECT_NE(status.detail().find("t.tbl:2: short name 'A' is already used at t.tbl:1"),
            std::string::npos)
      << status.detail();
}

// A scratch directory named by $PMAPI_EVENTS_DIR for one test.
class catalog_events_dir : public pmapi_test::TableDirTest {
 protected:
  catalog_events_dir() : TableDirTest({pmapi::kEventsDirVariable}) {}
};

const TableRecord *Find(const std::vector<TableRecord> &records, int id) {
  return pmapi_test::FindById(records, id);
}

TEST(catalog_table_loader, CompiledInTablesLoadCleanly) {
  pmapi::SetSetting(pmapi::kEventsDirVariable, "");
  std::vector<TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_NE(Find(records, 1), nullptr);
  EXPECT_EQ(Find(records, 1)->short_name, "PM_CYC");
  ASSERT_NE(Find(records, 2), nullptr);
  EXPECT_EQ(Find(records, 2)->short_name, "PM_INST_CMPL");
  for (size_t i = 1; i < records.size(); ++i) EXPECT_LT(records[i - 1].id, records[i].id);
}

TEST_F(catalog_events_dir, RuntimeTablesAddAndOverride) {
  Write("site.tbl",
        "50000 | site-event | Site event | exact | perf::PERF_COUNT_SW_PAGE_FAULTS | Ours.\n"
        "1 | PM_CYC | Cycles, overridden | approximate | perf::PERF_COUNT_HW_CPU_CYCLES | "
        "Redefined.\n");
  Write("ignored.txt", "this is not a table");
  std::vector<TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_NE(Find(records, 50000), nullptr);
  EXPECT_EQ(Find(records, 50000)->short_name, "site-event");
  ASSERT_NE(Find(records, 1), nullptr);
  EXPECT_EQ(Find(records, 1)->long_name, "Cycles, overridden");
  EXPECT_TRUE(Find(records, 1)->approximate);
  ASSERT_NE(Find(records, 2), nullptr) << "compiled-in records not overridden stay";
}

TEST_F(catalog_events_dir, ParseErrorNamesTheRuntimeFileAndLine) {
  std::string path = Write("bad.tbl", "# header\n50001 | x | y | exact\n");
  std::vector<TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_EQ(status.detail().rfind(path + ":2: ", 0), 0u) << status.detail();
  EXPECT_NE(Find(records, 1), nullptr) << "the compiled-in tables still load";
  EXPECT_EQ(Find(records, 50001), nullptr);
}

TEST_F(catalog_events_dir, DuplicatesAcrossRuntimeFilesAndNameClashesAreErrors) {
  std::string a = Write("a.tbl", "50002 | one | One | exact | perf::X | d\n");
  std::string b = Write("b.tbl", "50002 | two | Two | exact | perf::Y | d\n");
  std::vector<TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find(b + ":1: id 50002 is already used at " + a + ":1"),
            std::string::npos)
      << status.detail();

  std::vector<TableRecord> again;
  unlink(b.c_str());
  Write("c.tbl", "50003 | PM_CYC | Clash | exact | perf::X | d\n");
  status = pmapi::LoadEventTables(&again);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find("short name 'PM_CYC' is already used at events/generic.tbl:"),
            std::string::npos)
      << status.detail();
}

TEST_F(catalog_events_dir, MissingDirectoryIsReported) {
  pmapi::SetSetting(pmapi::kEventsDirVariable, "/nonexistent/pmapi-events");
  std::vector<TableRecord> records;
  Status status = pmapi::LoadEventTables(&records);
  EXPECT_EQ(status.code(), Pmapi_BadCatalog);
  EXPECT_NE(status.detail().find("/nonexistent/pmapi-events"), std::string::npos);
}

TEST_F(catalog_events_dir, CatalogKeepsTheLoadErrorAndTheOverride) {
  Write("site.tbl",
        "50010 | site-faults | Site faults | exact | perf::PERF_COUNT_SW_PAGE_FAULTS | Faults.\n");
  std::string bad = Write("zz_bad.tbl", "oops\n");
  std::unique_ptr<pmapi::Catalog> catalog = pmapi::Catalog::Build();
  EXPECT_EQ(catalog->load_status().code(), Pmapi_BadCatalog);
  EXPECT_NE(catalog->load_status().detail().find(bad + ":1:"), std::string::npos);
  // Table 50010 sorts after every compiled-in table event (the last is 1011, bpf-output), so
  // its client id is right after theirs (docs/catalog.md, "Event ids").
  const pmapi::CatalogEvent *event = catalog->FindName("site-faults");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->id, catalog->FindName("bpf-output")->id + 1);
  EXPECT_EQ(catalog->FindId(event->id), event);
}

}  // namespace
