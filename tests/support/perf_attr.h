/* SPDX-License-Identifier: MIT */
// The perf_event_attr the tests open by hand (rings, anchors, what the kernel says about an
// event): one place for its size field and the user-mode, start-disabled defaults.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>

namespace pmapi_test {

// `type`/`config` counting user mode only, created disabled (unless `disabled` is false).
inline perf_event_attr UserModeAttr(uint32_t type, uint64_t config, bool disabled = true) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = type;
  attr.config = config;
  attr.disabled = disabled ? 1 : 0;
  attr.exclude_kernel = 1;
  return attr;
}

}  // namespace pmapi_test
