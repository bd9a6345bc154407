#include "session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <new>

#include "base/kernel.h"
#include "config_check.h"
#include "event_ids.h"

namespace perfmon {
namespace {

// The ring per CPU: 2 MiB where the kernel allows (samples at a tracepoint's rate 1 fill
// 256 KiB within a millisecond, faster than a loaded machine schedules the drain thread), down
// to 32 KiB for a user within perf_event_mlock_kb. The drain thread wakes each time 64 KiB
// came in (a quarter of the ring an unprivileged user usually gets), or every 100 ms.
constexpr size_t kRingPages = 512;
constexpr size_t kMinRingPages = 8;
constexpr uint32_t kWakeupBytes = 64 * 1024;

zx_status_t StatusForOpenErrno(int err) {
  switch (err) {
    case EACCES:
    case EPERM:
      return ZX_ERR_ACCESS_DENIED;
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return ZX_ERR_NOT_SUPPORTED;
    case ESRCH:
      return ZX_ERR_NOT_FOUND;
    case EMFILE:
    case ENFILE:
    case EBUSY:
    case ENOSPC:
      return ZX_ERR_NO_RESOURCES;
    case ENOMEM:
      return ZX_ERR_NO_MEMORY;
    default:
      return ZX_ERR_INVALID_ARGS;
  }
}

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

uint64_t MonotonicNow() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

// PERF_RECORD_MMAP2: pid, tid, addr, len, pgoff, device and inode (24 bytes), prot, flags,
// the file name (NUL-padded), then the sample id fields.
void KeepMapping(const perf_event_header *record, std::vector<perfmon_mapping_t> *mappings) {
  struct Fixed {
    uint32_t pid, tid;
    uint64_t addr, len, pgoff;
    uint8_t device_inode[24];
    uint32_t prot, flags;
  } fixed;
  if (record->size < sizeof *record + sizeof fixed) return;
  const char *at = reinterpret_cast<const char *>(record + 1);
  memcpy(&fixed, at, sizeof fixed);
  if (!(fixed.prot & PROT_EXEC)) return;
  const char *name = at + sizeof fixed;
  size_t room = record->size - sizeof *record - sizeof fixed;
  perfmon_mapping_t mapping{};
  mapping.pid = static_cast<int32_t>(fixed.pid);
  mapping.start = fixed.addr;
  mapping.end = fixed.addr + fixed.len;
  mapping.file_offset = fixed.pgoff;
  size_t length = strnlen(name, room < sizeof mapping.path ? room : sizeof mapping.path - 1);
  memcpy(mapping.path, name, length);
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
  session->wait_for_exec_ = target.pid > 0 && target.enable_on_exec;
  for (size_t i = 0; i < cpus.size(); ++i) {
    auto cpu = std::make_unique<Cpu>();
    cpu->cpu = cpus[i];
    cpu->buffer = buffers[i];
    for (int &fd : cpu->fds) fd = -1;
    session->cpus_.push_back(std::move(cpu));
    zx_status_t status = session->OpenCpu(config, target, session->cpus_.back().get(), why);
    if (status != ZX_OK) return status;
  }
  if (session->sampling_) {
    session->wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (session->wake_fd_ < 0) {
      *why = std::string("eventfd: ") + strerror(errno);
      return ZX_ERR_NO_RESOURCES;
    }
  }
  *out = std::move(session);
  return ZX_OK;
}

zx_status_t Session::OpenCpu(const perfmon_config_t &config, const perfmon_target_t &target,
                             Cpu *cpu, std::string *why) {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
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
    if (slot.rate > 0 && cpu->ring_fd < 0 && collects_pcs) {
      // The first ring of a CPU also hears of new executable mappings, so that PCs in programs
      // started during the trace can be symbolized after they exit.
      attr.mmap = 1;
      attr.mmap2 = 1;
    }
    int group_fd = follower ? cpu->fds[timebase] : -1;
    int fd = kernel.PerfEventOpen(attr, pid, cpu->cpu, group_fd);
    if (fd == -EINVAL && attr.inherit && (attr.sample_type & PERF_SAMPLE_READ)) {
      // Kernels before 6.12 refuse inherited group reads: trace the process itself only.
      attr.inherit = 0;
      fd = kernel.PerfEventOpen(attr, pid, cpu->cpu, group_fd);
    }
    if (leader) group_inherits = attr.inherit;
    if (fd < 0) {
      *why = Describe(slot.event, cpu->cpu, "perf_event_open", -fd);
      if (fd == -EACCES || fd == -EPERM) *why += WhyDenied(attr, pid);
      return StatusForOpenErrno(-fd);
    }
    cpu->fds[i] = fd;
    cpu->rates[i] = slot.rate;
    cpu->reads_group[i] = leader && has_followers;
    EventSlot &event = cpu->events.slots[i];
    event.event = slot.event;
    event.flags = slot.flags;
    event.sample_type = attr.sample_type;
    int err = kernel.Ioctl(fd, PERF_EVENT_IOC_ID, reinterpret_cast<unsigned long>(&event.perf_id));
    if (err < 0) {
      *why = Describe(slot.event, cpu->cpu, "PERF_EVENT_IOC_ID", -err);
      return ZX_ERR_INTERNAL;
    }
    if (slot.rate == 0) continue;
    sampling_ = true;
    if (cpu->ring_fd < 0) {
      for (size_t pages = kRingPages; pages >= kMinRingPages; pages /= 2) {
        err = cpu->ring.Map(fd, pages);
        if (err != -EPERM && err != -ENOMEM) break;  // over the locked-memory limit: smaller
      }
      if (err < 0) {
        *why = Describe(slot.event, cpu->cpu, "mapping its sample ring", -err);
        if (err == -EPERM) *why += " (even 32 KiB is over perf_event_mlock_kb and RLIMIT_MEMLOCK)";
        return err == -ENOMEM ? ZX_ERR_NO_MEMORY : ZX_ERR_NO_RESOURCES;
      }
      cpu->ring_fd = fd;
    } else {
      err = kernel.Ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(cpu->ring_fd));
      if (err < 0) {
        *why = Describe(slot.event, cpu->cpu, "PERF_EVENT_IOC_SET_OUTPUT", -err);
        return ZX_ERR_INTERNAL;
      }
    }
  }
  return ZX_OK;
}

zx_status_t Session::Start(std::string *why) {
  if (!wait_for_exec_) {
    pmapi::Kernel &kernel = pmapi::CurrentKernel();
    for (auto &cpu : cpus_) {
      for (size_t i = 0; i < cpu->events.count; ++i) {
        int fd = cpu->fds[i];
        if (fd < 0) continue;
        // Followers are enabled already and follow their leader.
        int err = kernel.Ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
        if (err < 0) {
          *why = Describe(cpu->events.slots[i].event, cpu->cpu, "PERF_EVENT_IOC_ENABLE", -err);
          return ZX_ERR_INTERNAL;
        }
      }
    }
  }
  if (sampling_) {
    // Made here, owned by the session: the drain thread allocates nothing of its own, which a
    // fork child (without that thread) could neither free nor account for.
    poll_fds_.clear();
    poll_fds_.push_back({wake_fd_, POLLIN, 0});
    for (auto &cpu : cpus_) {
      if (cpu->ring_fd >= 0) poll_fds_.push_back({cpu->ring_fd, POLLIN, 0});
    }
    drainer_ = std::thread([this] { DrainLoop(); });
  }
  started_ = true;
  return ZX_OK;
}

void Session::DrainAll() {
  for (auto &cpu : cpus_) {
    if (!cpu->ring.mapped()) continue;
    Cpu *c = cpu.get();
    c->ring.Drain([c](const perf_event_header *record) {
      if (record->type == PERF_RECORD_SAMPLE) {
        if (!c->buffer->full()) ConvertSample(record, &c->events, c->buffer);
      } else if (record->type == PERF_RECORD_LOST) {
        c->buffer->MarkFull();  // the kernel dropped samples: say so, as a full buffer does
      } else if (record->type == PERF_RECORD_MMAP2) {
        KeepMapping(record, &c->mappings);
      }
    });
    c->buffer->Publish();
  }
}

void Session::DrainLoop() {
  std::vector<pollfd> &fds = poll_fds_;
  for (;;) {
    int ready = poll(fds.data(), fds.size(), 100);
    if (ready > 0 && (fds[0].revents & POLLIN)) return;  // Stop drains the rest itself
    // A ring whose target exited reports POLLHUP from then on: stop polling it (it is still
    // drained below and at Stop), or this loop would spin.
    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents & (POLLHUP | POLLERR)) fds[i].fd = -1;
    }
    DrainAll();
  }
}

void Session::Stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  for (auto &cpu : cpus_) {
    for (size_t i = 0; i < cpu->events.count; ++i) {
      if (cpu->fds[i] >= 0) kernel.Ioctl(cpu->fds[i], PERF_EVENT_IOC_DISABLE, 0);
    }
  }
  if (drainer_.joinable()) {
    uint64_t one = 1;
    ssize_t written = write(wake_fd_, &one, sizeof one);
    (void)written;  // an eventfd write of 1 cannot fail short of overflow
    drainer_.join();
  }
  if (sampling_) DrainAll();
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

void Session::AbandonInChild() {
  for (auto &cpu : cpus_) {
    cpu->ring.Forget();
    // Directly, not through the kernel seam: a test's double belongs to the parent's view.
    for (int &fd : cpu->fds) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
    cpu->ring_fd = -1;
  }
  if (wake_fd_ >= 0) close(wake_fd_);
  wake_fd_ = -1;
  // The drain thread was the parent's: the child has none to join. Its std::thread is reset in
  // place, without a destructor that would end the process for a joinable thread.
  new (&drainer_) std::thread();
  stopped_ = true;
}

void Session::WriteFinalRecords(Cpu *cpu) {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  uint8_t bytes[sizeof(perfmon_time_record_t) +
                PERFMON_MAX_NUM_EVENTS * sizeof(perfmon_count_record_t)];
  size_t size = 0;
  perfmon_time_record_t time{{PERFMON_RECORD_TIME, 0, 0}, MonotonicNow()};
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
  Stop();
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  for (auto &cpu : cpus_) {
    cpu->ring.Unmap();
    for (int fd : cpu->fds) {
      if (fd >= 0) kernel.Close(fd);
    }
  }
  if (wake_fd_ >= 0) close(wake_fd_);
}

}  // namespace perfmon
