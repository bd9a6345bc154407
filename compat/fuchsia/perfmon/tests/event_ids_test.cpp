// SPDX-License-Identifier: MIT
// perfmon's ids resolve through libpmapi: each id's Linux event is the one the catalog encodes
// for the name the selection call finds, and the linux group is the catalog's software events,
// no table of perfmon's own.
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <set>

#include "catalog/catalog.h"
#include "config_check.h"
#include "event_ids.h"
#include "perfmon_test_helpers.h"

namespace perfmon_test {
namespace {

struct Encoding {
  uint32_t type;
  uint64_t config, config1, config2;
  bool operator==(const Encoding &o) const {
    return type == o.type && config == o.config && config1 == o.config1 && config2 == o.config2;
  }
};

std::ostream &operator<<(std::ostream &out, const Encoding &e) {
  return out << "type " << e.type << " config 0x" << std::hex << e.config << " config1 0x"
             << e.config1 << " config2 0x" << e.config2 << std::dec;
}

Encoding Of(const perf_event_attr &attr) {
  return {attr.type, attr.config, attr.config1, attr.config2};
}

// What perfmon encodes for `id`.
Encoding Perfmon(perfmon_event_id_t id) {
  perf_event_attr attr{};
  std::string why;
  EXPECT_EQ(perfmon::EncodeEvent(id, &attr, &why), ZX_OK) << why;
  return Of(attr);
}

// What the catalog encodes for its event `name`.
Encoding CatalogEncoding(const std::string &name) {
  const pmapi::CatalogEvent *event = pmapi::Catalog::Get().FindName(name);
  EXPECT_TRUE(event) << name;
  perf_event_attr attr{};
  if (event) {
    EXPECT_TRUE(pmapi::Catalog::Get().Encode(*event, &attr).ok()) << name;
  }
  return Of(attr);
}

// The catalog's software events under perf's names (no "pmu::" prefix), by kernel config.
std::set<std::string> CatalogSoftwareNames() {
  std::set<std::string> names;
  const pmapi::Catalog &catalog = pmapi::Catalog::Get();
  for (const pmapi::CatalogEvent &event : catalog.events()) {
    perf_event_attr attr{};
    if (event.short_name.find("::") == std::string::npos && catalog.Encode(event, &attr).ok() &&
        attr.type == PERF_TYPE_SOFTWARE) {
      names.insert(event.short_name);
    }
  }
  return names;
}

TEST(EventIds, TheLinuxGroupIsTheCatalogsSoftwareEvents) {
  const std::set<std::string> catalog = CatalogSoftwareNames();
  ASSERT_TRUE(catalog.count("task-clock"));
  std::set<std::string> perfmon;
  for (int event = 0; event <= PERFMON_MAX_EVENT; ++event) {
    char name[256];
    const perfmon_event_id_t id = PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_LINUX, event);
    if (perfmon_event_name(id, name, sizeof name) != ZX_OK) continue;
    ASSERT_EQ(strncmp(name, "linux:", 6), 0) << name;
    perfmon.insert(name + 6);
    // The id is the kernel's PERF_COUNT_SW_* + 1, and encodes as the catalog's event of that name.
    const Encoding catalog_encoding = CatalogEncoding(name + 6);
    EXPECT_EQ(Perfmon(id), catalog_encoding) << name;
    EXPECT_EQ(catalog_encoding.config + 1, static_cast<uint64_t>(event)) << name;
    EXPECT_EQ(Id(name), id) << name;
  }
  // Every one of them, and nothing else: those libpfm4 does not name too (alignment-faults).
  EXPECT_EQ(perfmon, catalog);
  EXPECT_TRUE(perfmon.count("cgroup-switches"));
  perfmon_event_id_t id = 0;
  EXPECT_EQ(perfmon_lookup_event("linux", "alignment-faults", &id), ZX_OK);
  EXPECT_EQ(id, PERFMON_MAKE_EVENT_ID(PERFMON_GROUP_LINUX, PERF_COUNT_SW_ALIGNMENT_FAULTS + 1));
  EXPECT_EQ(perfmon_lookup_event("linux", "no-such-event", &id), ZX_ERR_NOT_FOUND);
  // A tracepoint, a hardware event, a catalog id or a list is no linux event.
  EXPECT_EQ(perfmon_lookup_event("linux", "syscalls:sys_enter_getppid", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("linux", "cycles", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("linux", "18", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("linux", "task-clock,cpu-clock", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("linux", "task-clock:u", &id), ZX_ERR_NOT_FOUND);
  EXPECT_EQ(perfmon_lookup_event("linux", "", &id), ZX_ERR_NOT_FOUND);
}

TEST(EventIds, ATracepointIdEncodesAsTheCatalogEncodesItsName) {
  const perfmon_event_id_t id = Id(kGetppid);
  ASSERT_NE(id, 0);
  const std::string name = kGetppid + strlen("tracepoint:");
  EXPECT_EQ(Perfmon(id), CatalogEncoding(name));
  EXPECT_EQ(CatalogEncoding(name).type, static_cast<uint32_t>(PERF_TYPE_TRACEPOINT));
  perfmon_event_id_t other = 0;
  EXPECT_EQ(perfmon_lookup_event("tracepoint", "task-clock", &other), ZX_ERR_NOT_FOUND);
}

// Intel's fixed and architectural ids are perf's generic events, which every PMU (ARM's too)
// has: no libpfm4 name of Intel's alone.
TEST(EventIds, FixedAndArchIdsArePerfsGenericEvents) {
  const struct {
    const char *perfmon_name;
    const char *catalog_name;
  } cases[] = {{"fixed:instructions_retired", "PM_INST_CMPL"},
               {"fixed:unhalted_core_cycles", "PM_CYC"},
               {"fixed:unhalted_reference_cycles", "PM_REF_CYC"},
               {"arch:unhalted_core_cycles", "PM_CYC"},
               {"arch:instructions_retired", "PM_INST_CMPL"},
               {"arch:llc_references", "PM_CACHE_REF"},
               {"arch:llc_misses", "PM_CACHE_MISS"},
               {"arch:branch_instructions_retired", "PM_BR_CMPL"},
               {"arch:branch_misses_retired", "PM_BR_MPRED_CMPL"}};
  for (const auto &c : cases) {
    const Encoding encoding = Perfmon(Id(c.perfmon_name));
    EXPECT_EQ(encoding, CatalogEncoding(c.catalog_name)) << c.perfmon_name;
    EXPECT_EQ(encoding.type, static_cast<uint32_t>(PERF_TYPE_HARDWARE)) << c.perfmon_name;
  }
}

// An ARM PMU has no fixed counters: a fixed id goes on a programmable one, as the kernel puts
// the generic event there. Without any counter it is still refused.
TEST(EventIds, AFixedIdCountsOnAPmuWithoutFixedCounters) {
  perfmon_properties_t arm{};
  arm.max_num_programmable_events = 6;
  const perfmon_config_t config = Config({{Id("fixed:instructions_retired"), 0, 0}});
  std::string why;
  EXPECT_EQ(perfmon::CheckConfig(config, arm, &why), ZX_OK) << why;
  perfmon_properties_t none{};
  EXPECT_EQ(perfmon::CheckConfig(config, none, &why), ZX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(why, "event 0: this machine has no hardware fixed counters (no PMU)");
  // The programmable counters are shared: seven hardware events do not fit on six.
  perfmon_config_t seven = Config({{Id("fixed:instructions_retired"), 0, 0},
                                   {Id("fixed:unhalted_core_cycles"), 0, 0},
                                   {Id("arch:llc_references"), 0, 0},
                                   {Id("arch:llc_misses"), 0, 0},
                                   {Id("arch:branch_instructions_retired"), 0, 0},
                                   {Id("arch:branch_misses_retired"), 0, 0},
                                   {Id("arch:unhalted_reference_cycles"), 0, 0}});
  EXPECT_EQ(perfmon::CheckConfig(seven, arm, &why), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(why, "event 6: more hardware events than the PMU has counters");
}

}  // namespace
}  // namespace perfmon_test
