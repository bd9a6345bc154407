#include "guest_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "pmapi_catalog.h"

namespace pmu_guest {
namespace {
std::string g_processor;
}

bool Initialize() {
  pm_info2_t info;
  const int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  EXPECT_EQ(rc, 0) << pm_strerror("pm_initialize", rc);
  if (rc == 0 && info.proc_name) g_processor = info.proc_name;
  return rc == 0;
}

std::string ProcessorName() { return g_processor; }

int EventId(const std::string &name) {
  int id = COUNT_NOTHING;
  const int rc = pm_catalog_add_event(name.c_str(), &id);
  EXPECT_EQ(rc, 0) << name << ": " << pm_strerror("pm_catalog_add_event", rc);
  return rc == 0 ? id : COUNT_NOTHING;
}

pm_prog_t Program(std::initializer_list<int> ids, int mode) {
  pm_prog_t prog = {};
  prog.mode.w = mode;
  for (int &event : prog.events) event = COUNT_NOTHING;
  int counter = 0;
  for (int id : ids) prog.events[counter++] = id;
  return prog;
}

long long LeastMyThreadCount(uint64_t n, int counter, int runs) {
  long long least = LLONG_MAX;
  for (int run = 0; run < runs; ++run) {
    pm_data_t data;
    if (pm_reset_data_mythread() != 0 || pm_start_mythread() != 0) return -1;
    Loop(n);
    if (pm_stop_mythread() != 0 || pm_get_data_mythread(&data) != 0) return -1;
    least = std::min(least, data.accu[counter]);
  }
  return least;
}

}  // namespace pmu_guest
