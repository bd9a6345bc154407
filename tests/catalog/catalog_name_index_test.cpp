// SPDX-License-Identifier: MIT
// The catalog's name index: exact spelling first, then ASCII case ignored, the earliest event
// of several, and no answer for a name no event has.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/name_index.h"

namespace {

using pmapi::CatalogEvent;
using pmapi::NameIndex;

std::vector<CatalogEvent> Named(const std::vector<std::string> &names) {
  std::vector<CatalogEvent> events(names.size());
  for (size_t i = 0; i < names.size(); ++i) events[i].short_name = names[i];
  return events;
}

TEST(catalog_name_index, ExactSpellingThenCaseIgnoredThenNothing) {
  std::vector<CatalogEvent> events =
      Named({"task-clock", "PM_CYC", "pm_cyc", "Pm_Cyc", "syscalls:sys_enter_getppid"});
  NameIndex index;
  index.Build(events);
  EXPECT_EQ(index.Find(events, "task-clock"), 0u);
  EXPECT_EQ(index.Find(events, "TASK-CLOCK"), 0u);
  EXPECT_EQ(index.Find(events, "pm_cyc"), 2u) << "the exact spelling wins over an earlier fold";
  EXPECT_EQ(index.Find(events, "Pm_Cyc"), 3u);
  EXPECT_EQ(index.Find(events, "pM_cYc"), 1u) << "no exact match: the earliest folded one";
  EXPECT_EQ(index.Find(events, "syscalls:SYS_ENTER_GETPPID"), 4u);
  EXPECT_EQ(index.Find(events, "task-clock "), events.size());
  EXPECT_EQ(index.Find(events, "task-cloc"), events.size());
  EXPECT_EQ(index.Find(events, ""), events.size());
  // Bytes that OR 0x20 maps alike in the hash ('@' and '`') must still compare as different.
  std::vector<CatalogEvent> tricky = Named({"a@b"});
  index.Build(tricky);
  EXPECT_EQ(index.Find(tricky, "a`b"), tricky.size());
  EXPECT_EQ(index.Find(tricky, "A@B"), 0u);
}

TEST(catalog_name_index, DuplicatesAndManyNames) {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("pmu::EVENT_" + std::to_string(i));
  names.push_back("pmu::EVENT_7");  // a second event of an existing name
  std::vector<CatalogEvent> events = Named(names);
  NameIndex index;
  index.Build(events);
  for (int i = 0; i < 5000; i += 37) {
    EXPECT_EQ(index.Find(events, "pmu::event_" + std::to_string(i)), static_cast<size_t>(i));
  }
  EXPECT_EQ(index.Find(events, "pmu::EVENT_7"), 7u) << "the earliest of two";
  EXPECT_EQ(index.Find(events, "pmu::EVENT_5000"), events.size());
}

TEST(catalog_name_index, EmptyIndexFindsNothing) {
  std::vector<CatalogEvent> none;
  NameIndex index;
  EXPECT_EQ(index.Find(none, "x"), 0u) << "before Build";
  index.Build(none);
  EXPECT_EQ(index.Find(none, "x"), 0u);
}

}  // namespace
