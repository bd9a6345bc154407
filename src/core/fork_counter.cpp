// SPDX-License-Identifier: MIT
#include "core/fork_counter.h"

#include <string.h>

#include <atomic>
#include <string>

#include "base/kernel.h"
#include "base/tracefs.h"
#include "core/tracepoint_anchors.h"

namespace pmapi {

bool ForkCounterAttr(perf_event_attr *attr) {
  for (const char *root : kTracefsRoots) {
    std::string text;
    uint64_t config = 0;
    const int err =
        ReadTracepointId(TracepointIdPath(root, "sched:sched_process_fork"), &config, &text);
    if (err < 0) continue;
    if (err > 0) return false;
    memset(attr, 0, sizeof *attr);
    attr->size = sizeof *attr;
    attr->type = PERF_TYPE_TRACEPOINT;
    attr->config = config;
    return true;
  }
  return false;
}

namespace {
// The tracepoint's id once a group anchored it; ~0: never.
std::atomic<uint64_t> g_fork_config{~uint64_t{0}};
}  // namespace

void AnchorForkCounter(const perf_event_attr &attr) {
  g_fork_config.store(attr.config);
  AnchorTracepoint(attr);
}

int ForkCounterAnchorFd() {
  const uint64_t config = g_fork_config.load();
  return config == ~uint64_t{0} ? -1 : TracepointAnchorFd(config);
}

}  // namespace pmapi
