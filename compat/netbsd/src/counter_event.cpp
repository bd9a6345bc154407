// SPDX-License-Identifier: MIT
#include "counter_event.h"

#include <errno.h>

#include <limits>

#include "catalog/catalog.h"
#include "pmapi.h"

namespace pmc_netbsd {
namespace {

int TypeCodeFor(const perf_event_attr &attr) {
  switch (attr.type) {
    case PERF_TYPE_SOFTWARE:
      return PMC_TYPE_LINUX_SOFTWARE;
    case PERF_TYPE_TRACEPOINT:
      return PMC_TYPE_LINUX_TRACEPOINT;
    default:
      return PMC_TYPE_LINUX_HARDWARE;
  }
}

}  // namespace

int ChooseEvent(const pmc_counter_cfg &cfg, CounterEvent *out) {
  if (cfg.flags & ~static_cast<uint32_t>(PMC_CFG_KERNEL | PMC_CFG_USER)) return EINVAL;
  // pmc_evid_t is unsigned long on ARM; an id that does not fit an int is no catalog id.
  if (static_cast<long long>(cfg.event_id) < 0 ||
      static_cast<long long>(cfg.event_id) > std::numeric_limits<int>::max()) {
    return ENODEV;
  }
  const pmapi::Catalog &catalog = pmapi::Catalog::Get();
  const pmapi::CatalogEvent *event = catalog.FindId(static_cast<int>(cfg.event_id));
  if (!event) return ENODEV;

  CounterEvent chosen;
  chosen.id = event->id;
  chosen.name = event->short_name;
  if (!catalog.Encode(*event, &chosen.attr).ok()) return ENODEV;
  chosen.attr.size = sizeof(perf_event_attr);
  // NetBSD counted every privilege level; flags 0 keeps that.
  const bool user = cfg.flags == 0 || (cfg.flags & PMC_CFG_USER);
  const bool kernel = cfg.flags == 0 || (cfg.flags & PMC_CFG_KERNEL);
  chosen.attr.exclude_user = !user;
  chosen.attr.exclude_kernel = !kernel;
  chosen.attr.exclude_hv = !kernel;
  chosen.type_code = TypeCodeFor(chosen.attr);
  *out = std::move(chosen);
  return 0;
}

int ErrnoForStatus(const pmapi::Status &status) {
  if (status.ok()) return 0;
  switch (status.kernel_errno()) {
    case 0:
      break;          // the core's own finding, below
    case ENOENT:      // no such PMU or event here (a VM without a PMU)
    case EOPNOTSUPP:  // the PMU exists but cannot count this way
    case EINVAL:      // the kernel rejected the encoding
      return ENODEV;
    default:
      return status.kernel_errno();  // ENOMEM, EBUSY, EACCES/EPERM, EMFILE: say what happened
  }
  switch (status.code()) {
    case Pmapi_NotSchedulable:  // a 0-byte read: the pinned event is in error state
    case Pmapi_ShortRead:
      return EBUSY;
    case Pmapi_NoHardware:  // a PMU that counts every privilege level or none
      return ENODEV;
    case Pmapi_Malloc_Err:
      return ENOMEM;
    default:
      return EIO;  // no path of the contexts libpmc programs gives another code
  }
}

}  // namespace pmc_netbsd
