// SPDX-License-Identifier: MIT
#include "config_check.h"

#include "event_ids.h"

namespace perfmon {
namespace {

std::string Slot(size_t i) { return "event " + std::to_string(i) + ": "; }

bool Empty(const perfmon_event_config_t &slot) {
  return slot.event == 0 && slot.rate == 0 && slot.flags == 0;
}

uint64_t MaxRate(uint16_t width) {
  return width >= 32 || width == 0 ? UINT32_MAX : (1ull << width) - 1;
}

}  // namespace

size_t CountEvents(const perfmon_config_t &config) {
  size_t n = 0;
  while (n < PERFMON_MAX_NUM_EVENTS && config.events[n].event != 0) ++n;
  return n;
}

zx_status_t CheckConfig(const perfmon_config_t &config, const perfmon_properties_t &props,
                        std::string *why) {
  size_t n = CountEvents(config);
  if (n == 0) {
    *why = "the config has no events (events[0].event is 0)";
    return ZX_ERR_INVALID_ARGS;
  }
  for (size_t i = n; i < PERFMON_MAX_NUM_EVENTS; ++i) {
    if (!Empty(config.events[i])) {
      *why = Slot(i) + "follows an empty slot: events must be front-filled";
      return ZX_ERR_INVALID_ARGS;
    }
  }
  size_t timebases = 0, fixed = 0, programmable = 0;
  for (size_t i = 0; i < n; ++i) {
    const perfmon_event_config_t &slot = config.events[i];
    if (slot.flags & ~PERFMON_FLAG_ALL) {
      *why = Slot(i) + "unknown flag bits";
      return ZX_ERR_INVALID_ARGS;
    }
    if ((slot.flags & PERFMON_FLAG_IS_TIMEBASE) && ++timebases > 1) {
      *why = Slot(i) + "a second timebase (at most one)";
      return ZX_ERR_INVALID_ARGS;
    }
    if (slot.rate == 0 && (slot.flags & (PERFMON_FLAG_IS_TIMEBASE | PERFMON_FLAG_COLLECT_PC |
                                         PERFMON_FLAG_COLLECT_LAST_BRANCH))) {
      *why = Slot(i) + "timebase, PC or last-branch collection needs a rate above 0";
      return ZX_ERR_INVALID_ARGS;
    }
    for (size_t j = 0; j < i; ++j) {
      if (config.events[j].event == slot.event) {
        *why = Slot(i) + "the same event as event " + std::to_string(j);
        return ZX_ERR_INVALID_ARGS;
      }
    }
    EventKind kind = KindOf(slot.event);
    uint16_t width = 0;
    switch (kind) {
      case EventKind::kUnknown:
        *why = Slot(i) + "no event has id 0x" + [&] {
          char text[8];
          snprintf(text, sizeof text, "%04x", slot.event);
          return std::string(text);
        }() + " here";
        return ZX_ERR_INVALID_ARGS;
      case EventKind::kFixed:
      case EventKind::kProgrammable: {
        // A fixed event stands for a generic event: where the PMU has no fixed counters
        // (ARM's), the kernel counts it on a programmable one.
        bool is_fixed = kind == EventKind::kFixed && props.max_num_fixed_events > 0;
        size_t have = is_fixed ? props.max_num_fixed_events : props.max_num_programmable_events;
        if (have == 0) {
          *why = Slot(i) + "this machine has no hardware " +
                 (kind == EventKind::kFixed ? "fixed" : "programmable") + " counters (no PMU)";
          return ZX_ERR_NOT_SUPPORTED;
        }
        if (++(is_fixed ? fixed : programmable) > have) {
          *why = Slot(i) + "more hardware events than the PMU has counters";
          return ZX_ERR_INVALID_ARGS;
        }
        width = is_fixed ? props.max_fixed_counter_width : props.max_programmable_counter_width;
        break;
      }
      default:
        break;
    }
    if (slot.rate > MaxRate(width)) {
      *why = Slot(i) + "rate above the counter's width";
      return ZX_ERR_INVALID_ARGS;
    }
    if ((slot.flags & PERFMON_FLAG_COLLECT_LAST_BRANCH) &&
        !(props.flags & PERFMON_PROPERTY_HAS_LAST_BRANCH)) {
      *why = Slot(i) + "last-branch collection: the kernel gives no branch stacks here";
      return ZX_ERR_NOT_SUPPORTED;
    }
  }
  return ZX_OK;
}

}  // namespace perfmon
