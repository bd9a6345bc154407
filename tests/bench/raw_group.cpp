// SPDX-License-Identifier: MIT
#include "raw_group.h"

#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Eight distinct software events: the first four are the ones every
// self-monitoring benchmark counts; the scaling benchmarks take the first n.
// Distinct events, so that n counters really are n kernel events.
const std::vector<RawEvent> &EightSoftwareEvents() {
  static const std::vector<RawEvent> events = {{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
                                               {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES}};
  return events;
}

const std::vector<std::string> &EightSoftwareEventNames() {
  static const std::vector<std::string> names = {
      "task-clock", "page-faults",  "context-switches", "cpu-migrations",
      "cpu-clock",  "minor-faults", "major-faults",     "cgroup-switches"};
  return names;
}

const std::vector<std::string> &EightSoftwareEventPapiNames() {
  static const std::vector<std::string> names = {
      "perf::TASK-CLOCK", "perf::PAGE-FAULTS",  "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS",
      "perf::CPU-CLOCK",  "perf::MINOR-FAULTS", "perf::MAJOR-FAULTS",     "perf::CGROUP-SWITCHES"};
  return names;
}

std::vector<RawEvent> SoftwareEvents(int n) {
  return {EightSoftwareEvents().begin(), EightSoftwareEvents().begin() + n};
}

std::vector<std::string> SoftwareEventPapiNames(int n) {
  return {EightSoftwareEventPapiNames().begin(), EightSoftwareEventPapiNames().begin() + n};
}

const std::vector<RawEvent> &FourSoftwareEvents() {
  static const std::vector<RawEvent> events = SoftwareEvents(4);
  return events;
}

const std::vector<std::string> &FourSoftwareEventPapiNames() {
  static const std::vector<std::string> names = SoftwareEventPapiNames(4);
  return names;
}

RawGroup::RawGroup(const std::vector<RawEvent> &events, pid_t pid, int cpu, bool inherit) {
  for (const RawEvent &event : events) {
    perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = event.type;
    attr.config = event.config;
    attr.read_format =
        PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.exclude_kernel = 0;
    attr.exclude_hv = 1;
    attr.inherit = inherit;
    const bool leader = fds_.empty();
    attr.disabled = leader;
    attr.pinned = leader;
    int fd = static_cast<int>(
        syscall(SYS_perf_event_open, &attr, pid, cpu, leader ? -1 : fds_[0], PERF_FLAG_FD_CLOEXEC));
    fds_.push_back(fd);
    if (fd < 0) return;
  }
}

RawGroup::~RawGroup() {
  for (size_t i = fds_.size(); i-- > 0;) {
    if (fds_[i] >= 0) close(fds_[i]);
  }
}

void RawGroup::Enable() const { ioctl(fds_[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP); }
void RawGroup::Disable() const { ioctl(fds_[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP); }
void RawGroup::Reset() const { ioctl(fds_[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP); }
void RawGroup::Read(uint64_t *buffer, size_t words) const {
  if (read(fds_[0], buffer, words * sizeof(uint64_t)) < 0) buffer[0] = 0;
}

int OnlineCpus() { return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)); }

std::vector<std::unique_ptr<RawGroup>> OpenOnEveryCpu(const std::vector<RawEvent> &events) {
  std::vector<std::unique_ptr<RawGroup>> groups;
  for (int cpu = 0; cpu < OnlineCpus(); ++cpu) {
    groups.emplace_back(new RawGroup(events, -1, cpu));
    if (!groups.back()->ok()) return {};
  }
  return groups;
}
