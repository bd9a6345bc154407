// SPDX-License-Identifier: MIT
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <new>

#include "base/clock.h"
#include "base/kernel.h"
#include "config_check.h"
#include "event_ids.h"
#include "fuchsia_common/perf_mmap2.h"
#include "fuchsia_common/zx_status_from_errno.h"

namespace perfmon {
namespace {

// The ring per CPU: 2 MiB where the kernel allows (samples at a tracepoint's rate 1 fill
// 256 KiB within a millisecond, faster than a loaded machine schedules the drain thread), down
// to 32 KiB for a user within perf_event_mlock_kb. The drain thread wakes each time 64 KiB
// came in (a quarter of the ring an unprivileged user usually gets), or every 100 ms.
constexpr size_t kRingPages = 512;
constexpr uint32_t kWakeupBytes = 64 * 1024;

std::string Describe(perfmon_event_id_t event, int cpu, const char *what, int err) {
  std::string name;
  EventName(event, &name);
  return name + " on CPU " + std::to_string(cpu) + ": " + what + ": " + strerror(err);
}

// kernel.perf_event_paranoid, or -1 if it cannot be read.
int Paranoia() {
  FILE *file = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
  int level = -1;
  if (file) {
    if (fscanf(file, "%d", &level) != 1) level = -1;
    fclose(file);
  }
  return level;
}

// Why the kernel refused an open with EACCES or EPERM, as far as the attributes tell.
std::string WhyDenied(const perf_event_attr &attr, pid_t pid) {
  if (pid <= 0) {
    return " (tracing the whole machine needs root or CAP_PERFMON; a target process of your "
           "own does not)";
  }
  const int level = Paranoia();
  if (!attr.exclude_kernel && (level < 0 || level >= 2)) {
    const std::string here = level >= 0 ? ", as it is here (" + std::to_string(level) + ")" : "";
    return " (counting kernel mode needs root or CAP_PERFMON when kernel.perf_event_paranoid is "
           "2 or more" +
           here +
           "; an event with neither the os nor the user flag counts both modes: add the user "
           "flag to count user mode only, e.g. cpuperf -e GROUP:NAME/user)";
  }
  return " (a target process must be your own, or you need root or CAP_PERFMON)";
}

// An executable mapping from a PERF_RECORD_MMAP2 of a sampling event (kBaseSampleType's sample
// id tail after the name).
void KeepMapping(const perf_event_header *record, std::vector<perfmon_mapping_t> *mappings) {
  fuchsia_common::Mmap2Record mmap2;
  if (!fuchsia_common::ReadMmap2(*record, reinterpret_cast<const uint8_t *>(record),
                                 fuchsia_common::SampleIdBytes(kBaseSampleType), &mmap2) ||
      !(mmap2.prot & PROT_EXEC)) {
    return;
  }
  perfmon_mapping_t mapping{};
  mapping.pid = static_cast<int32_t>(mmap2.pid);
  mapping.start = mmap2.addr;
  mapping.end = mmap2.addr + mmap2.len;
  mapping.file_offset = mmap2.pgoff;
  memcpy(mapping.path, mmap2.name.data(), std::min(mmap2.name.size(), sizeof mapping.path - 1));
  try {
    mappings->push_back(mapping);
  } catch (const std::bad_alloc &) {
    // Out of memory on the drain thread: this mapping's PCs stay unnamed; tracing goes on.
  }
}

}  // namespace

zx_status_t Session::Open(const perfmon_config_t &config, const perfmon_target_t &target,
                          const std::vector<int> &cpus, const std::vector<TraceBuffer *> &buffers,
                          std::unique_ptr<Session> *out, std::string *why) {
  std::unique_ptr<Session> session(new Session);
  Session *s = session.get();
  s->wait_for_exec_ = target.pid > 0 && target.enable_on_exec;
  pmapi::Status core = pmapi::SamplingSession::Create(
      [s](size_t ring, const perf_event_header &header, const uint8_t *record) {
        s->Record(ring, header, record);
      },
      &s->sampling_);
  if (!core.ok()) {
    *why = core.detail();
    return fuchsia_common::ZxStatusFromErrno(core.kernel_errno());
  }
  // Every CPU's state exists before the first ring is mapped: the drainer indexes cpus_.
  for (size_t i = 0; i < cpus.size(); ++i) {
    auto cpu = std::make_unique<Cpu>();
    cpu->cpu = cpus[i];
    cpu->buffer = buffers[i];
    for (int &fd : cpu->fds) fd = -1;
    s->cpus_.push_back(std::move(cpu));
  }
  for (size_t i = 0; i < cpus.size(); ++i) {
    s->sampling_->AddRingOfFirstSample(cpus[i], kRingPages);
    zx_status_t status = s->OpenCpu(config, target, i, why);
    if (status != ZX_OK) return status;
  }
  // Takes the drain lock: what Open wrote is ordered before the drainer's next turn even when
  // the events start by themselves (enable on exec) rather than through Start.
  s->sampling_->Drain();
  *out = std::move(session);
  return ZX_OK;
}

zx_status_t Session::OpenCpu(const perfmon_config_t &config, const perfmon_target_t &target,
                             size_t ring, std::string *why) {
  Cpu *cpu = cpus_[ring].get();
  bool ring_owned = false;  // by this CPU's first sampling event
  size_t n = CountEvents(config);
  int timebase = -1;
  for (size_t i = 0; i < n; ++i) {
    if (config.events[i].flags & PERFMON_FLAG_IS_TIMEBASE) timebase = static_cast<int>(i);
  }
  bool collects_pcs = false;
  for (size_t i = 0; i < n; ++i) {
    if (config.events[i].flags & PERFMON_FLAG_COLLECT_PC) collects_pcs = true;
  }
  bool has_followers = false;
  for (size_t i = 0; i < n; ++i) {
    if (timebase >= 0 && config.events[i].rate == 0) has_followers = true;
  }
  // The timebase first: the events it reads join its group.
  std::vector<size_t> order;
  if (timebase >= 0) order.push_back(static_cast<size_t>(timebase));
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int>(i) != timebase) order.push_back(i);
  }
  cpu->events.count = n;
  bool group_inherits = true;
  for (size_t i : order) {
    const perfmon_event_config_t &slot = config.events[i];
    perf_event_attr attr{};
    zx_status_t status = EncodeEvent(slot.event, &attr, why);
    if (status != ZX_OK) return status;
    attr.size = sizeof attr;
    bool os = slot.flags & PERFMON_FLAG_COLLECT_OS;
    bool user = slot.flags & PERFMON_FLAG_COLLECT_USER;
    if (!os && !user) os = user = true;  // neither: both, as cpuperf's trace provider does
    attr.exclude_kernel = !os;
    attr.exclude_hv = !os;
    attr.exclude_user = !user;
    // Every event on one clock: the kernel refuses a group whose members' clocks differ.
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
    bool follower = timebase >= 0 && slot.rate == 0;
    bool leader = static_cast<int>(i) == timebase;
    if (slot.rate > 0) {
      attr.sample_period = slot.rate;
      attr.sample_type = kBaseSampleType;
      attr.sample_id_all = 1;
      attr.watermark = 1;
      attr.wakeup_watermark = kWakeupBytes;
      if (leader && has_followers) {
        attr.sample_type |= PERF_SAMPLE_READ;
        attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
      }
      if (slot.flags & PERFMON_FLAG_COLLECT_LAST_BRANCH) {
        attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
        attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
        if (user) attr.branch_sample_type |= PERF_SAMPLE_BRANCH_USER;
        if (os) attr.branch_sample_type |= PERF_SAMPLE_BRANCH_KERNEL;
      }
    }
    // A follower starts and stops with its leader; every other event waits for Start or exec.
    attr.disabled = follower ? 0 : 1;
    pid_t pid = -1;
    if (target.pid > 0) {
      pid = target.pid;
      // A follower inherits exactly as its leader does (the kernel wants a group alike).
      attr.inherit = follower ? group_inherits : 1;
      if (!follower && wait_for_exec_) attr.enable_on_exec = 1;
    }
    if (slot.rate > 0 && !ring_owned && collects_pcs) {
      // The first ring of a CPU also hears of new executable mappings, so that PCs in programs
      // started during the trace can be symbolized after they exit.
      attr.mmap = 1;
      attr.mmap2 = 1;
    }
    int group_fd = follower ? cpu->fds[timebase] : -1;
    EventSlot &event = cpu->events.slots[i];
    int fd = -1;
    const char *step = "";
    pmapi::Status opened =
        sampling_->OpenEvent(ring, attr, pid, group_fd, &fd, &event.perf_id, &step);
    if (opened.kernel_errno() == EINVAL && attr.inherit && (attr.sample_type & PERF_SAMPLE_READ)) {
      // Kernels before 6.12 refuse inherited group reads: trace the process itself only.
      attr.inherit = 0;
      opened = sampling_->OpenEvent(ring, attr, pid, group_fd, &fd, &event.perf_id, &step);
    }
    if (leader) group_inherits = attr.inherit;
    if (!opened.ok()) {
      const int err = opened.kernel_errno();
      const bool opening = strcmp(step, "perf_event_open") == 0;
      *why = Describe(slot.event, cpu->cpu, step, err);
      if (opening && (err == EACCES || err == EPERM)) *why += WhyDenied(attr, pid);
      if (!opening && err == EPERM)
        *why += " (even 32 KiB is over perf_event_mlock_kb and RLIMIT_MEMLOCK)";
      return fuchsia_common::ZxStatusFromErrno(err);
    }
    cpu->fds[i] = fd;
    cpu->rates[i] = slot.rate;
    cpu->reads_group[i] = leader && has_followers;
    event.event = slot.event;
    event.flags = slot.flags;
    event.sample_type = attr.sample_type;
    if (slot.rate > 0) ring_owned = true;
  }
  return ZX_OK;
}

zx_status_t Session::Start(std::string *why) {
  if (!wait_for_exec_) {
    // Followers are enabled already and follow their leader.
    pmapi::Status status = sampling_->Enable();
    if (!status.ok()) {
      *why = status.detail();
      return ZX_ERR_INTERNAL;
    }
  }
  started_ = true;
  return ZX_OK;
}

void Session::Record(size_t ring, const perf_event_header &header, const uint8_t *record) {
  Cpu *c = cpus_[ring].get();
  const auto *whole = reinterpret_cast<const perf_event_header *>(record);
  if (header.type == PERF_RECORD_SAMPLE) {
    if (!c->buffer->full()) ConvertSample(whole, &c->events, c->buffer);
  } else if (header.type == PERF_RECORD_LOST) {
    c->buffer->MarkFull();  // the kernel dropped samples: say so, as a full buffer does
  } else if (header.type == PERF_RECORD_MMAP2) {
    KeepMapping(whole, &c->mappings);
  }
  c->buffer->Publish();
}

void Session::Stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  sampling_->Disable();  // every sample taken is in its ring now
  sampling_->StopDraining();
  sampling_->Drain();
  for (auto &cpu : cpus_) WriteFinalRecords(cpu.get());
}

std::vector<perfmon_mapping_t> Session::TakeMappings() {
  std::vector<perfmon_mapping_t> all;
  for (auto &cpu : cpus_) {
    all.insert(all.end(), cpu->mappings.begin(), cpu->mappings.end());
    cpu->mappings.clear();
  }
  return all;
}

void Session::WriteFinalRecords(Cpu *cpu) {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  uint8_t bytes[sizeof(perfmon_time_record_t) +
                PERFMON_MAX_NUM_EVENTS * sizeof(perfmon_count_record_t)];
  size_t size = 0;
  perfmon_time_record_t time{{PERFMON_RECORD_TIME, 0, 0}, pmapi::MonotonicNanos()};
  memcpy(bytes, &time, sizeof time);
  size += sizeof time;
  for (size_t i = 0; i < cpu->events.count; ++i) {
    uint64_t values[1 + 2 * PERFMON_MAX_NUM_EVENTS] = {};
    ssize_t got = kernel.Read(cpu->fds[i], values, sizeof values);
    uint64_t value = 0;
    if (cpu->reads_group[i]) {
      if (got >= 24) value = values[1];  // nr, then the leader's {value, id}
    } else if (got >= 8) {
      value = values[0];
    }
    // As Fuchsia's counters, a sampled event counts from its last sample.
    uint64_t sampled = cpu->events.slots[i].samples * cpu->rates[i];
    uint64_t count = value > sampled ? value - sampled : 0;
    perfmon_count_record_t record{{PERFMON_RECORD_COUNT, 0, cpu->events.slots[i].event}, count};
    memcpy(bytes + size, &record, sizeof record);
    size += sizeof record;
  }
  cpu->buffer->Append(bytes, size);
  cpu->buffer->Publish();
}

Session::~Session() {
  if (sampling_ && !sampling_->held_by_parent()) Stop();
  sampling_.reset();  // first: its drainer writes into the CPUs' buffers
}

}  // namespace perfmon
