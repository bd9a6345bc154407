// SPDX-License-Identifier: MIT
#include "core/tracepoint_anchors.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <new>

#include "base/fork_service.h"
#include "base/kernel.h"
#include "base/settings.h"
#include "core/fork_order.h"

namespace pmapi {
namespace {

struct Anchor {
  uint64_t config = 0;  // the tracepoint's id
  int fd = -1;
};

std::mutex g_mutex;
Anchor g_anchors[kMaxTracepointAnchors];
// Written under g_mutex; read without it by the counting helpers.
std::atomic<int> g_count{0};

bool AnchoredLocked(uint64_t config) {
  const int count = g_count.load(std::memory_order_relaxed);
  for (int i = 0; i < count; ++i) {
    if (g_anchors[i].config == config) return true;
  }
  return false;
}

// The anchors' part in a fork, joined before the first anchor opens: a child drops its copies.
void JoinForkService() {
  static ForkHook *hook = [] {
    auto *joined = new ForkHook(kForkRankProcessState, nullptr, nullptr, nullptr,
                                [](void *) { DropTracepointAnchorsInChild(); });
    joined->Join();
    return joined;
  }();
  (void)hook;
}

}  // namespace

void AnchorTracepoint(const perf_event_attr &attr) {
  if (attr.type != PERF_TYPE_TRACEPOINT) return;
  JoinForkService();
  if (CurrentSettings().no_tracepoint_anchors) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  const int count = g_count.load(std::memory_order_relaxed);
  if (count >= kMaxTracepointAnchors || AnchoredLocked(attr.config)) return;
  // What names the tracepoint, and the event's privilege levels (an
  // unprivileged caller under perf_event_paranoid 2 may open only events that
  // exclude the kernel): no inherit, no sampling, no read format.
  perf_event_attr anchor{};
  anchor.size = sizeof anchor;
  anchor.type = PERF_TYPE_TRACEPOINT;
  anchor.config = attr.config;
  anchor.exclude_user = attr.exclude_user;
  anchor.exclude_kernel = attr.exclude_kernel;
  anchor.exclude_hv = attr.exclude_hv;
  anchor.exclude_idle = attr.exclude_idle;
  anchor.disabled = 1;
  const int fd = CurrentKernel().PerfEventOpen(anchor, 0, -1, -1);
  if (fd < 0) return;
  g_anchors[count] = {attr.config, fd};
  g_count.store(count + 1, std::memory_order_release);
}

int TracepointAnchorCount() { return g_count.load(std::memory_order_acquire); }

bool IsTracepointAnchorFd(int fd) {
  if (fd < 0) return false;
  const int count = g_count.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    if (g_anchors[i].fd == fd) return true;
  }
  return false;
}

int TracepointAnchorFd(uint64_t config) {
  const int count = g_count.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    if (g_anchors[i].config == config) return g_anchors[i].fd;
  }
  return -1;
}

void ReleaseTracepointAnchors() {
  std::lock_guard<std::mutex> lock(g_mutex);
  const int count = g_count.load(std::memory_order_relaxed);
  g_count.store(0, std::memory_order_release);
  for (int i = 0; i < count; ++i) {
    CurrentKernel().Close(g_anchors[i].fd);
    g_anchors[i] = Anchor();
  }
}

void DropTracepointAnchorsInChild() {
  // The mutex is not taken: the parent may have forked while another thread
  // held it. The child has one thread and no anchor user yet.
  const int count = g_count.load(std::memory_order_relaxed);
  g_count.store(0, std::memory_order_relaxed);
  for (int i = 0; i < count; ++i) {
    close(g_anchors[i].fd);
    g_anchors[i] = Anchor();
  }
  new (&g_mutex) std::mutex();
}

}  // namespace pmapi
