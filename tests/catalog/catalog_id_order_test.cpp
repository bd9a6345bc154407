// SPDX-License-Identifier: MIT
// The id order on made-up catalogs: what is listed, in which order, and what the bound cuts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog/id_order.h"

namespace {

using pmapi::CatalogEvent;
using pmapi::EventSource;

CatalogEvent Make(const std::string &name, EventSource source) {
  CatalogEvent event;
  event.short_name = name;
  event.source = source;
  return event;
}

// Storage order as the assembly builds it: sysfs, tracepoints, tables, libpfm4.
std::vector<CatalogEvent> Sample(int hardware_count) {
  std::vector<CatalogEvent> events;
  events.push_back(Make("msr/tsc", EventSource::kSysfsPmu));
  events.push_back(Make("syscalls:sys_exit_read", EventSource::kTracepoint));
  events.push_back(Make("syscalls:sys_enter_read", EventSource::kTracepoint));
  events.push_back(Make("irq:irq_handler_entry", EventSource::kTracepoint));
  events.push_back(Make("sched:sched_switch", EventSource::kTracepoint));
  events.push_back(Make("PM_CYC", EventSource::kTable));
  events.push_back(Make("PM_INST_CMPL", EventSource::kTable));
  events.push_back(Make("perf::PERF_COUNT_SW_TASK_CLOCK", EventSource::kSoftware));
  for (int i = 0; i < hardware_count; ++i) {
    events.push_back(Make("pmu::EVENT" + std::to_string(i), EventSource::kPfm));
  }
  return events;
}

std::vector<std::string> Names(const std::vector<CatalogEvent> &events,
                               const pmapi::IdOrder &order) {
  std::vector<std::string> names;
  for (size_t position : order.positions) names.push_back(events[position].short_name);
  return names;
}

TEST(catalog_id_order, TablesFirstThenHardwareSoftwareSysfsDefaultTracepoints) {
  std::vector<CatalogEvent> events = Sample(2);
  pmapi::IdOrder order = pmapi::OrderIds(events, 5, 2, "");
  std::vector<std::string> expected = {"PM_CYC", "PM_INST_CMPL", "pmu::EVENT0", "pmu::EVENT1",
                                       "perf::PERF_COUNT_SW_TASK_CLOCK", "msr/tsc",
                                       "syscalls:sys_enter_read", "sched:sched_switch",
                                       // unlisted
                                       "syscalls:sys_exit_read", "irq:irq_handler_entry"};
  EXPECT_EQ(Names(events, order), expected);
  EXPECT_EQ(order.listed, 8u);
}

TEST(catalog_id_order, BoundCutsHardwareThenSysfsNeverTheRest) {
  std::vector<CatalogEvent> events = Sample(10);
  // 2 tables + 1 software + 2 default tracepoints leave room for 2 of 10 hardware events.
  pmapi::IdOrder order = pmapi::OrderIds(events, 5, 2, "", 7);
  EXPECT_EQ(order.listed, 7u);
  std::vector<std::string> names = Names(events, order);
  EXPECT_EQ(names[2], "pmu::EVENT0");
  EXPECT_EQ(names[3], "pmu::EVENT1");
  EXPECT_EQ(names[4], "perf::PERF_COUNT_SW_TASK_CLOCK");
  EXPECT_EQ(names[6], "sched:sched_switch");
  EXPECT_EQ(names[7], "syscalls:sys_exit_read") << "unlisted tracepoints first";
  EXPECT_EQ(names[9], "pmu::EVENT2") << "then the hardware events past the bound";
  EXPECT_EQ(names.back(), "msr/tsc") << "no room left for sysfs either";
  EXPECT_EQ(names.size(), events.size()) << "every event keeps an id";
  // A bound smaller than what is always listed lists that much anyway.
  EXPECT_EQ(pmapi::OrderIds(events, 5, 2, "", 1).listed, 5u);
}

TEST(catalog_id_order, ExtraTracepointsComeLastAndMoveNothing) {
  std::vector<CatalogEvent> events = Sample(10);
  pmapi::IdOrder plain = pmapi::OrderIds(events, 5, 2, "", 7);
  pmapi::IdOrder extra = pmapi::OrderIds(events, 5, 2, "irq:*,,nothing:*", 7);
  EXPECT_EQ(extra.listed, plain.listed + 1);
  for (size_t id = 0; id < plain.listed; ++id) EXPECT_EQ(extra.positions[id], plain.positions[id]);
  EXPECT_EQ(events[extra.positions[plain.listed]].short_name, "irq:irq_handler_entry");
}

TEST(catalog_id_order, ListingEveryTracepointChangesNoId) {
  std::vector<CatalogEvent> events = Sample(10);
  pmapi::IdOrder plain = pmapi::OrderIds(events, 5, 2, "", 7);
  pmapi::IdOrder all = pmapi::OrderIds(events, 5, 2, "*", 7);
  EXPECT_EQ(all.positions, plain.positions);
  EXPECT_EQ(all.listed, plain.listed + 2);
}

TEST(catalog_id_order, PatternsSplitOnCommasAndBlanks) {
  EXPECT_TRUE(pmapi::MatchesAnyPattern("sched:sched_switch", " irq:* sched:*"));
  EXPECT_TRUE(pmapi::MatchesAnyPattern("irq:x", "sched:*,irq:*"));
  EXPECT_FALSE(pmapi::MatchesAnyPattern("irq:x", ""));
  EXPECT_FALSE(pmapi::MatchesAnyPattern("irq:x", "irq"));
}

}  // namespace
