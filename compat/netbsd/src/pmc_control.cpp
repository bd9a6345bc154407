// SPDX-License-Identifier: MIT
// pmc_control(2): argument checks in NetBSD's order, then the counter table.
// First: the entry points must be declared with default visibility before
// any other header declares them hidden.
#include "export.h"

#include <errno.h>

#include "c_boundary.h"
#include "counter_event.h"
#include "counter_table.h"
#include "user_memory.h"

namespace pmc_netbsd {
namespace {

// A 32-bit counter loaded with -0 overflows after 2^32 events; reset_value 0
// means the same here.
constexpr uint64_t kDefaultProfilingPeriod = uint64_t{1} << 32;

// Copies the caller's configuration in and resolves its event.
int ReadConfiguration(const void *args, CounterEvent *event, uint64_t *reset_value) {
  pmc_counter_cfg cfg;
  if (CopyIn(args, &cfg, sizeof cfg) != 0) return EFAULT;
  *reset_value = static_cast<uint64_t>(cfg.reset_value);
  return ChooseEvent(cfg, event);
}

int Control(int ctr, int op, void *args) {
  if (op < PMC_OP_START || op > PMC_OP_PROFSTOP) return EINVAL;
  if (ctr < 0 || ctr >= PMC_LINUX_NCOUNTERS) return EINVAL;
  CounterTable &table = CounterTable::Get();
  CounterEvent event;
  uint64_t reset_value = 0;
  int err = 0;
  switch (op) {
    case PMC_OP_START:
      return table.Start(ctr);
    case PMC_OP_STOP:
      return table.Stop(ctr);
    case PMC_OP_CONFIGURE:
      // reset_value only sets where a NetBSD counter interrupts to widen
      // itself to 64 bits; perf counts in 64 bits, so counting ignores it.
      err = ReadConfiguration(args, &event, &reset_value);
      return err ? err : table.Configure(ctr, event);
    case PMC_OP_PROFSTART:
      err = ReadConfiguration(args, &event, &reset_value);
      if (err) return err;
      return table.ProfStart(ctr, event, reset_value ? reset_value : kDefaultProfilingPeriod);
    case PMC_OP_PROFSTOP:
      return table.ProfStop(ctr);
  }
  return EINVAL;
}

}  // namespace
}  // namespace pmc_netbsd

int pmc_control(int ctr, int op, void *args) {
  return pmc_netbsd::ErrnoResult([&] { return pmc_netbsd::Control(ctr, op, args); });
}
