// SPDX-License-Identifier: MIT
#include "support/simulated_perf_kernel.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/fork_counter.h"
#include "core/tracepoint_anchors.h"

namespace pmapi_test {

int SimulatedPerfKernel::PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu,
                                       int group_fd) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (attr.size != 0 && attr.size < PERF_ATTR_SIZE_VER0) return -EINVAL;
  if (attr.size > sizeof(perf_event_attr)) return -E2BIG;
  if (pid < -1 || cpu < -1 || (pid == -1 && cpu == -1)) return -EINVAL;
  if (cpu >= sysconf(_SC_NPROCESSORS_CONF)) return -EINVAL;
  if (cpu >= 0 && pid == -1 && geteuid() != 0) return -EACCES;
  switch (attr.type) {
    case PERF_TYPE_SOFTWARE:
      if (attr.config >= PERF_COUNT_SW_MAX) return -ENOENT;
      break;
    case PERF_TYPE_TRACEPOINT:
      break;
    default:
      // This machine has no hardware PMU: hardware, cache, raw and PMU types are refused.
      return -ENOENT;
  }
  int leader = -1;
  if (group_fd != -1) {
    auto found = events_.find(group_fd);
    if (found == events_.end()) return -EBADF;
    if (found->second.leader != group_fd) return -EINVAL;  // a member cannot lead
    if (found->second.pid != pid || found->second.cpu != cpu) return -EINVAL;
    if (!(found->second.read_format & PERF_FORMAT_GROUP) && attr.read_format & PERF_FORMAT_GROUP) {
      return -EINVAL;
    }
    leader = group_fd;
  }
  const int fd = next_fd_++;
  Event event{leader < 0 ? fd : leader, pid, cpu, attr.read_format, !attr.disabled};
  events_.emplace(fd, event);
  return fd;
}

std::vector<int> SimulatedPerfKernel::Members(int leader) const {
  std::vector<int> members;
  for (const auto &[fd, event] : events_) {  // ascending fds: opening order
    if (event.leader == leader) members.push_back(fd);
  }
  return members;
}

int SimulatedPerfKernel::Ioctl(int fd, unsigned long request, unsigned long arg) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = events_.find(fd);
  if (found == events_.end()) return -EBADF;
  std::vector<int> targets = {fd};
  if (arg & PERF_IOC_FLAG_GROUP) {
    if (found->second.leader != fd) return -EINVAL;
    targets = Members(fd);
  }
  for (int target : targets) {
    Event &event = events_.at(target);
    switch (request) {
      case PERF_EVENT_IOC_ENABLE:
        event.enabled = true;
        break;
      case PERF_EVENT_IOC_DISABLE:
        event.enabled = false;
        break;
      case PERF_EVENT_IOC_RESET:
        event.count = 0;
        break;
      default:
        return -ENOTTY;
    }
  }
  return 0;
}

ssize_t SimulatedPerfKernel::Read(int fd, void *buf, size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = events_.find(fd);
  if (found == events_.end()) return -EBADF;
  const uint64_t format = found->second.read_format;
  std::vector<int> members = {fd};
  if (format & PERF_FORMAT_GROUP) members = Members(found->second.leader);
  // The leader's enabling gates the group's time, as the kernel's does.
  Event &leader = events_.at(found->second.leader);
  if (leader.enabled) leader.time_enabled += 1000;
  std::vector<uint64_t> words;
  if (format & PERF_FORMAT_GROUP) words.push_back(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    Event &event = events_.at(members[i]);
    if (event.enabled && leader.enabled) ++event.count;
    if (i == 0 || !(format & PERF_FORMAT_GROUP)) {
      if (!(format & PERF_FORMAT_GROUP)) words.push_back(event.count);
      if (format & PERF_FORMAT_TOTAL_TIME_ENABLED) words.push_back(leader.time_enabled);
      if (format & PERF_FORMAT_TOTAL_TIME_RUNNING) words.push_back(leader.time_enabled);
    }
    if (format & PERF_FORMAT_GROUP) words.push_back(event.count);
    if (format & PERF_FORMAT_ID) words.push_back(static_cast<uint64_t>(members[i]));
  }
  const size_t bytes = words.size() * sizeof(uint64_t);
  if (size < bytes) return -ENOSPC;
  memcpy(buf, words.data(), bytes);
  return static_cast<ssize_t>(bytes);
}

int SimulatedPerfKernel::Close(int fd) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = events_.find(fd);
  if (found == events_.end()) return -EBADF;
  const bool leads = found->second.leader == fd;
  events_.erase(found);
  if (leads) {
    // Members left behind become singleton groups, as in the kernel.
    for (auto &[member_fd, event] : events_) {
      if (event.leader == fd) event.leader = member_fd;
    }
  }
  return 0;
}

int SimulatedPerfKernel::OpenDescriptors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(events_.size());
}

int SimulatedPerfKernel::LibraryDescriptors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  int count = 0;
  for (const auto &entry : events_) {
    const int fd = entry.first;
    if (fd != pmapi::ForkCounterAnchorFd() && !pmapi::IsTracepointAnchorFd(fd)) ++count;
  }
  return count;
}

int SimulatedPerfKernel::MapPerfPage(int, const perf_event_mmap_page **) { return -ENODEV; }

}  // namespace pmapi_test
