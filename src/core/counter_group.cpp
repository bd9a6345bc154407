// SPDX-License-Identifier: MIT
#include "core/counter_group.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

#include "base/clock.h"
#include "base/kernel.h"
#include "base/perf_page_read.h"
#include "base/settings.h"
#include "core/tracepoint_anchors.h"

namespace pmapi {
namespace {

constexpr uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

// How long a read keeps retrying ECHILD (see Read): the teardown takes
// microseconds, but the exiting thread may be preempted on a loaded machine, and
// under ThreadSanitizer with the suite beside it half a second once fell short.
constexpr uint64_t kEchildRetryNanos = 2'000'000'000;

// How many times Open opens an inherited group anew when a thread of the target started while
// the group was being opened (see WholeOnEveryCopy).
constexpr int kOpenAttempts = 4;

// Whether MapPages may map the pages of a group on `target`: the calling thread alone.
bool ReadableFromUserSpace(const GroupTarget &target) {
  return kUserSpaceReadBuilt && !CurrentSettings().no_userspace_read &&
         target.pid == static_cast<pid_t>(syscall(SYS_gettid)) && target.cpu == -1 &&
         !target.inherit;
}

#if defined(__aarch64__)
// arm64 gives user space a counter only for an event that asks (config1 bit 1, "rdpmc" in the
// armv8_pmuv3 format) and is bound to a thread (the kernel refuses it with EINVAL otherwise),
// and then only while kernel.perf_user_access is 1 (Linux 5.17 on; older kernels ignore the
// bit). Asked of the core PMU's generic and raw events; another PMU's config1 means other
// things.
constexpr uint64_t kArmUserReadBit = 1ull << 1;
bool AsksForUserRead(const perf_event_attr &attr) {
  return attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE ||
         attr.type == PERF_TYPE_RAW;
}
#endif

// The attributes of `event` in a group on `target`.
perf_event_attr GroupAttr(const ProgrammedEvent &event, const GroupTarget &target, bool leader,
                          Placement placement) {
  perf_event_attr attr = event.attr;
#if defined(__aarch64__)
  if (AsksForUserRead(attr) && ReadableFromUserSpace(target)) attr.config1 |= kArmUserReadBit;
#endif
  attr.read_format = kReadFormat;
  attr.inherit = target.inherit;
  // The leader holds the group disabled until Enable(); pinning it means the
  // kernel either counts every event all the time or reports the group as
  // unschedulable, never a silent multiplexed share.
  attr.disabled = leader;
  attr.pinned = leader && placement == Placement::kPinned;
  return attr;
}

// perf_event_open of `attr` on `target`: its pid and CPU, or its cgroup on its CPU.
int OpenOn(const perf_event_attr &attr, const GroupTarget &target, int group_fd) {
  Kernel &kernel = CurrentKernel();
  if (!target.cgroup.empty()) {
    return kernel.PerfEventOpenCgroup(attr, target.cgroup, target.cpu, group_fd);
  }
  return kernel.PerfEventOpen(attr, target.pid, target.cpu, group_fd);
}

// Whether `attr`, opened alone and disabled on `target`, opens.
bool OpensAlone(perf_event_attr attr, const GroupTarget &target) {
  attr.disabled = 1;
  attr.pinned = 0;
  Kernel &kernel = CurrentKernel();
  const int fd = OpenOn(attr, target, -1);
  if (fd < 0) return false;
  kernel.Close(fd);
  return true;
}

// Events whose counter a page can expose: the hardware ones. Software events
// and tracepoints never sit on a machine counter (their page index is 0).
bool OnAMachineCounter(const perf_event_attr &attr) {
  return attr.type != PERF_TYPE_SOFTWARE && attr.type != PERF_TYPE_TRACEPOINT &&
         attr.type != PERF_TYPE_BREAKPOINT;
}

Status DoNotFit(size_t events, const std::string &description, const std::string &which = "") {
  return Status(Pmapi_NotSchedulable,
                {Decimal(events).c_str(), " events do not fit the counters of ",
                 description.c_str(), " together", which.c_str(),
                 " (more hardware events than counters, or another user holds "
                 "some); pm_set_program*_mx multiplexes them"});
}

// The kernel's generic and raw events all go to the core PMU.
bool OnTheCorePmu(const perf_event_attr &attr) {
  return attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE ||
         attr.type == PERF_TYPE_RAW;
}

// Whether member `failed` of `program` was refused only for want of a counter. POWER's PMU
// places every member of a group on a counter when it is opened and refuses one it cannot place
// with EINVAL (x86 and ARM open it and fail the read instead): a hardware member that opens alone,
// beside earlier hardware members of its own PMU, was refused for its place, not for itself.
bool RefusedForACounter(const Program &program, size_t failed, const GroupTarget &target, int err) {
  if (err != EINVAL || failed == 0) return false;
  const ProgrammedEvent &event = program.events()[failed];
  if (!OnAMachineCounter(event.attr) ||
      !OpensAlone(GroupAttr(event, target, false, Placement::kPinned), target)) {
    return false;
  }
  bool beside_hardware = false;
  for (size_t i = 0; i < failed; ++i) {
    const perf_event_attr &earlier = program.events()[i].attr;
    if (!OnAMachineCounter(earlier)) continue;
    const bool same_pmu =
        earlier.type == event.attr.type || (OnTheCorePmu(earlier) && OnTheCorePmu(event.attr));
    if (!same_pmu) return false;  // two PMUs in one group: refused for that
    beside_hardware = true;
  }
  return beside_hardware;
}

// Why `event` could not be opened on `target`. Some PMUs (msr, most uncore PMUs) count every
// privilege level or none, and refuse a mode that excludes one with a bare EINVAL: say so when
// the event alone fails as asked and opens with nothing excluded.
Status OpenFailure(const ProgrammedEvent &event, const GroupTarget &target, bool leader,
                   Placement placement, int err) {
  const std::string what = "cannot open event " + event.name + " (counter " +
                           std::to_string(event.counter) + ") on " + target.description;
  perf_event_attr attr = GroupAttr(event, target, leader, placement);
  if (err == EINVAL && (attr.exclude_user || attr.exclude_kernel || attr.exclude_hv) &&
      !OpensAlone(attr, target)) {
    attr.exclude_user = attr.exclude_kernel = attr.exclude_hv = 0;
    if (OpensAlone(attr, target)) {
      // NoHardware, as for any event the kernel cannot count as asked: a tool that counts
      // events one by one (pmcount) then marks this one and counts the others.
      return Status(Pmapi_NoHardware,
                    what +
                        ": its PMU cannot exclude a privilege level, it counts all of them "
                        "or none: set PM_USER, PM_KERNEL and mode.b.hypervisor");
    }
  }
  if (err == EBADF && !target.cgroup.empty()) {
    // The kernel's answer for a directory outside the cgroup v2 hierarchy.
    return Status(Pmapi_InvalidArg,
                  what + ": '" + target.cgroup +
                      "' is not a cgroup v2 directory: name one under the cgroup2 mount "
                      "(/sys/fs/cgroup, or /sys/fs/cgroup/unified where v1 hierarchies are "
                      "mounted too)");
  }
  if (err == EINVAL && target.inherit && !leader) {
    return StatusFromErrno(err, what +
                                    ": the kernel also refuses a member so while the target "
                                    "starts threads; if it does, stop the target while "
                                    "setting its program");
  }
  return StatusFromErrno(err, what);
}

// The machine reads of perf_page_read.h, through the seam.
struct SeamInstructions {
  Kernel &kernel;
  uint64_t ReadPmc(uint32_t counter) { return kernel.ReadPmc(counter); }
  uint64_t ReadTimestamp() { return kernel.ReadTimestamp(); }
};

}  // namespace

CounterGroup::CounterGroup(CounterGroup &&other) noexcept
    : fds_(std::move(other.fds_)),
      pages_(std::move(other.pages_)),
      owner_(other.owner_),
      page_reads_(other.page_reads_),
      page_fallbacks_(other.page_fallbacks_),
      read_size_(other.read_size_),
      placement_(other.placement_),
      description_(std::move(other.description_)) {
  other.fds_.clear();
  other.pages_.clear();
}

CounterGroup &CounterGroup::operator=(CounterGroup &&other) noexcept {
  if (this != &other) {
    Close();
    fds_ = std::move(other.fds_);
    other.fds_.clear();
    pages_ = std::move(other.pages_);
    other.pages_.clear();
    owner_ = other.owner_;
    page_reads_ = other.page_reads_;
    page_fallbacks_ = other.page_fallbacks_;
    read_size_ = other.read_size_;
    placement_ = other.placement_;
    description_ = std::move(other.description_);
  }
  return *this;
}

Status CounterGroup::Open(const Program &program, const GroupTarget &target, Placement placement) {
  placement_ = placement;
  for (int attempt = 1;; ++attempt) {
    size_t failed = 0;
    const int err = OpenOnce(program, target, &failed);
    const bool last = attempt == kOpenAttempts;
    if (err == 0) {
      if (WholeOnEveryCopy(target)) break;
      Close();
      if (!last) continue;
      return StatusFromErrno(
          ECHILD, {"cannot set the counters on ", description_.c_str(),
                   ": its threads kept starting while the group was opened, and a thread that "
                   "starts midway copies only part of the group, which the kernel refuses to "
                   "read; stop the target while setting its program (as AIX requires of "
                   "third-party calls)"});
    }
    // A thread the target starts meanwhile may take the group's kernel context with it, and
    // the kernel then refuses the next member with EINVAL: open anew. A member the kernel
    // refuses for good fails every attempt, and then says why.
    if (err == EINVAL && failed > 0 && target.inherit && !last) continue;
    if (RefusedForACounter(program, failed, target, err)) {
      const ProgrammedEvent &event = program.events()[failed];
      return DoNotFit(program.events().size(), target.description,
                      ": the PMU has no counter left for " + event.name + " (counter " +
                          std::to_string(event.counter) + ") beside the events before it");
    }
    return OpenFailure(program.events()[failed], target, failed == 0, placement_, err);
  }
  MapPages(program, target);
  return Status::Ok();
}

bool CounterGroup::WholeOnEveryCopy(const GroupTarget &target) const {
  if (!target.inherit || fds_.size() < 2) return true;
  GroupReading reading(GroupReading::kToBeFilled);
  return CurrentKernel().Read(fds_[0], &reading, read_size_) != -ECHILD;
}

int CounterGroup::OpenOnce(const Program &program, const GroupTarget &target, size_t *failed) {
  Close();
  description_ = target.description;
  for (const ProgrammedEvent &event : program.events()) {
    const bool leader = fds_.empty();
    const int fd =
        OpenOn(GroupAttr(event, target, leader, placement_), target, leader ? -1 : fds_[0]);
    if (fd < 0) {
      *failed = fds_.size();
      Close();
      return -fd;
    }
    fds_.push_back(fd);
  }
  // Once the group is open (a failed open keeps its sequence of opens): later
  // closes of these tracepoints then skip the kernel's grace period.
  for (const ProgrammedEvent &event : program.events()) AnchorTracepoint(event.attr);
  read_size_ = sizeof(uint64_t) * (3 + fds_.size());
  return 0;
}

void CounterGroup::MapPages(const Program &program, const GroupTarget &target) {
  // Another thread's counts, or children's too: only read(2) sums them.
  if (!ReadableFromUserSpace(target)) return;
  for (const ProgrammedEvent &event : program.events()) {
    if (!OnAMachineCounter(event.attr)) return;
  }
  Kernel &kernel = CurrentKernel();
  for (int fd : fds_) {
    const perf_event_mmap_page *page = nullptr;
    // A page that cannot be mapped costs nothing but speed: read(2) it is.
    if (kernel.MapPerfPage(fd, &page) < 0 || !page) {
      UnmapPages();
      return;
    }
    pages_.push_back(page);
  }
  owner_ = pthread_self();
}

void CounterGroup::UnmapPages() {
  Kernel &kernel = CurrentKernel();
  for (const perf_event_mmap_page *page : pages_) kernel.UnmapPerfPage(page);
  pages_.clear();
}

bool CounterGroup::ReadPages(GroupReading *reading) const {
  SeamInstructions instructions{CurrentKernel()};
  GroupReading counted;
  for (size_t i = 0; i < pages_.size(); ++i) {
    PageCount page;
    if (ReadPerfPage(pages_[i], instructions, i == 0, &page) != PageRead::kOk) return false;
    counted.values[i] = page.count;
    if (i == 0) {
      counted.time_enabled = page.time_enabled;
      counted.time_running = page.time_running;
    }
  }
  counted.nr = pages_.size();
  *reading = counted;
  return true;
}

Status CounterGroup::Control(unsigned long request, const char *what) const {
  if (fds_.empty()) return Status(Pmapi_NoSetProg, "no counters are open");
  // The leader alone gates the group: the members were opened enabled, so they
  // count exactly while the leader does. Toggling every member as well
  // (PERF_IOC_FLAG_GROUP) leaves a tracepoint member off after a disable and
  // re-enable under a leader of another kind, losing its later counts.
  int rc = CurrentKernel().Ioctl(fds_[0], request, 0);
  if (rc < 0) return StatusFromErrno(-rc, {what, " the counters on ", description_.c_str()});
  return Status::Ok();
}

namespace {

// Whether the hardware events of `program` fit the counters together, tried on the calling
// thread: another thread's group is scheduled only when that thread runs, so its own enable
// proves nothing at set time. The same PMU counts both threads (one core type); on a machine
// of several, a probe on a CPU of another type is never scheduled and proves nothing either
// (it reads as fitting). Anything else that fails here (a refused open) is left to the real
// group, which was opened already: only a pinned group the kernel could not schedule refuses.
bool HardwareFitsOnCallingThread(const Program &program) {
  Kernel &kernel = CurrentKernel();
  std::vector<int> fds;
  bool fits = true;
  for (const ProgrammedEvent &event : program.events()) {
    if (!OnAMachineCounter(event.attr)) continue;
    perf_event_attr attr = event.attr;
    attr.read_format = kReadFormat;
    attr.inherit = 0;
    attr.disabled = fds.empty();
    attr.pinned = fds.empty();
    const int fd = kernel.PerfEventOpen(attr, 0, -1, fds.empty() ? -1 : fds[0]);
    if (fd < 0) break;
    fds.push_back(fd);
  }
  if (fds.size() > 1 && kernel.Ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0) == 0) {
    GroupReading reading(GroupReading::kToBeFilled);
    fits = kernel.Read(fds[0], &reading, sizeof(uint64_t) * (3 + fds.size())) != 0;
    kernel.Ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0);
  }
  for (size_t i = fds.size(); i-- > 0;) kernel.Close(fds[i]);
  return fits;
}

}  // namespace

Status CounterGroup::CheckSchedulable(const Program &program, const GroupTarget &target,
                                      GroupReading *after) const {
  *after = GroupReading();
  size_t hardware = 0;
  for (const ProgrammedEvent &event : program.events()) hardware += OnAMachineCounter(event.attr);
  if (hardware == 0 || fds_.empty()) return Status::Ok();
  // Another thread's enable waits for it to run: the same events are tried on this one.
  const bool at_once = target.pid == -1 || target.pid == static_cast<pid_t>(syscall(SYS_gettid));
  if (!at_once) {
    if (hardware < 2 || HardwareFitsOnCallingThread(program)) return Status::Ok();
    return DoNotFit(fds_.size(), description_);
  }
  Status status = Enable();
  if (!status.ok()) return status;
  GroupReading reading(GroupReading::kToBeFilled);
  const ssize_t n = CurrentKernel().Read(fds_[0], &reading, read_size_);
  status = Disable();
  if (!status.ok()) return status;
  if (n == 0) return DoNotFit(fds_.size(), description_);
  // Read once more now that the group is off: the baseline from which later reads count.
  return Read(after);
}

Status CounterGroup::Enable() const { return Control(PERF_EVENT_IOC_ENABLE, "cannot enable"); }
Status CounterGroup::Disable() const { return Control(PERF_EVENT_IOC_DISABLE, "cannot disable"); }

Status CounterGroup::Read(GroupReading *reading) const {
  if (fds_.empty()) return Status(Pmapi_NoSetProg, "no counters are open");
  if (!pages_.empty() && pthread_equal(owner_, pthread_self())) {
    if (ReadPages(reading)) {
      ++page_reads_;
      return Status::Ok();
    }
    ++page_fallbacks_;
  }
  // Straight into the caller's reading, which a failure leaves undefined.
  ssize_t n = CurrentKernel().Read(fds_[0], reading, read_size_);
  // An inherited group read while one of its threads exits: the kernel tears
  // the thread's copy of the group down one event at a time and refuses to
  // sum groups of different shapes meanwhile (ECHILD). It is over in
  // microseconds; retry rather than fail a read the caller did nothing wrong in.
  if (n == -ECHILD) {
    const uint64_t give_up = MonotonicNanos() + kEchildRetryNanos;
    while (n == -ECHILD && MonotonicNanos() < give_up) {
      sched_yield();
      n = CurrentKernel().Read(fds_[0], reading, read_size_);
    }
  }
  if (n == static_cast<ssize_t>(read_size_) && reading->nr == fds_.size()) return Status::Ok();
  if (n < 0)
    return StatusFromErrno(static_cast<int>(-n),
                           {"cannot read the counters on ", description_.c_str()});
  if (n == 0) {
    return Status(Pmapi_NotSchedulable,
                  {"the kernel could not schedule the ", Decimal(fds_.size()).c_str(),
                   " events together on ", description_.c_str(),
                   " (another user may hold the counters, or there are more events than "
                   "hardware counters): program fewer events"});
  }
  return Status(Pmapi_ShortRead, {"read ", Decimal(static_cast<unsigned long long>(n)).c_str(),
                                  " of ", Decimal(read_size_).c_str(),
                                  " bytes from the counters on ", description_.c_str()});
}

void CounterGroup::Close() {
  UnmapPages();
  Kernel &kernel = CurrentKernel();
  // Members first, then the leader: closing the leader first would briefly
  // promote the members to singleton groups.
  for (size_t i = fds_.size(); i-- > 0;) kernel.Close(fds_[i]);
  fds_.clear();
}

std::vector<int> CounterGroup::Release() {
  UnmapPages();
  std::vector<int> fds = std::move(fds_);
  fds_.clear();
  return fds;
}

}  // namespace pmapi
