// SPDX-License-Identifier: MIT
// pmc_get_info(2): the four requests, answers copied out as NetBSD does.
// First: the entry points must be declared with default visibility before
// any other header declares them hidden.
#include "export.h"

#include <errno.h>
#include <stdint.h>

#include "c_boundary.h"
#include "counter_table.h"
#include "user_memory.h"

namespace pmc_netbsd {
namespace {

int GetInfo(int ctr, int request, void *data) {
  CounterTable &table = CounterTable::Get();
  switch (request) {
    case PMC_INFO_NCOUNTERS: {
      int count = PMC_LINUX_NCOUNTERS;  // ctr is ignored, as on NetBSD
      return CopyOut(&count, data, sizeof count);
    }
    case PMC_INFO_CPUCTR_TYPE: {
      int type = -1;  // NetBSD's answer for a counter that does not exist
      if (ctr == -1) {
        type = PMC_CLASS_LINUX_PERF;
      } else if (ctr >= 0 && ctr < PMC_LINUX_NCOUNTERS) {
        type = table.TypeCode(ctr);
      }
      return CopyOut(&type, data, sizeof type);
    }
    case PMC_INFO_COUNTER_VALUE:
    case PMC_INFO_ACCUMULATED_COUNTER_VALUE: {
      if (ctr < 0 || ctr >= PMC_LINUX_NCOUNTERS) return EINVAL;
      uint64_t value = 0;
      int err = request == PMC_INFO_COUNTER_VALUE ? table.Value(ctr, &value)
                                                  : table.Accumulated(ctr, &value);
      return err ? err : CopyOut(&value, data, sizeof value);
    }
  }
  return EINVAL;
}

}  // namespace
}  // namespace pmc_netbsd

int pmc_get_info(int ctr, int request, void *data) {
  return pmc_netbsd::ErrnoResult([&] { return pmc_netbsd::GetInfo(ctr, request, data); });
}
