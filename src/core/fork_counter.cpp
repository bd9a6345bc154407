#include "core/fork_counter.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>

#include "core/kernel.h"

namespace pmapi {
namespace {

std::mutex g_anchor_mutex;
std::atomic<int> g_anchor_fd{-1};

}  // namespace

bool ForkCounterAttr(perf_event_attr *attr) {
  for (const char *root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::string id;
    const std::string path = std::string(root) + "/events/sched/sched_process_fork/id";
    if (CurrentKernel().ReadFile(path, &id) < 0) continue;
    char *end = nullptr;
    const unsigned long long config = strtoull(id.c_str(), &end, 10);
    if (end == id.c_str()) return false;
    memset(attr, 0, sizeof *attr);
    attr->size = sizeof *attr;
    attr->type = PERF_TYPE_TRACEPOINT;
    attr->config = config;
    return true;
  }
  return false;
}

void AnchorForkCounter(const perf_event_attr &attr) {
  std::lock_guard<std::mutex> lock(g_anchor_mutex);
  if (g_anchor_fd.load() >= 0) return;
  perf_event_attr anchor = attr;
  anchor.disabled = 1;
  const int fd = CurrentKernel().PerfEventOpen(anchor, 0, -1, -1);
  if (fd >= 0) g_anchor_fd.store(fd);
}

int ForkCounterAnchorFd() { return g_anchor_fd.load(); }

void DropForkCounterAnchorInChild() {
  const int fd = g_anchor_fd.exchange(-1);
  if (fd >= 0) close(fd);
}

}  // namespace pmapi
