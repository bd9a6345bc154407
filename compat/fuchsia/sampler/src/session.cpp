// The session: regions are memfds mapped shared (the caller gets read-only descriptors of the
// same memory), rings are drained by one library thread, and stop drains what is left itself.
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "fuchsia_common/fxt.h"

namespace zx_sampler {
namespace {

namespace fxt = fuchsia_common::fxt;

constexpr size_t kRingPages = 128;  // 512 KiB: what perf_event_mlock_kb allows per CPU

// The CPUs perf can open events on now ("0-3,6" in /sys/devices/system/cpu/online).
std::vector<bool> OnlineCpus(size_t possible) {
  std::vector<bool> online(possible, false);
  std::ifstream file("/sys/devices/system/cpu/online");
  std::string list;
  if (!(file >> list)) return std::vector<bool>(possible, true);
  size_t at = 0;
  while (at < list.size()) {
    size_t comma = list.find(',', at);
    std::string range =
        list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    unsigned first = 0, last = 0;
    int n = std::sscanf(range.c_str(), "%u-%u", &first, &last);
    if (n == 1) last = first;
    for (unsigned cpu = first; n >= 1 && cpu <= last && cpu < possible; ++cpu) online[cpu] = true;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return online;
}

zx_status_t FromErrno(int error, const std::string& what, std::string* message) {
  *message = what + ": " + std::strerror(error);
  switch (error) {
    case ENOMEM:
      return ZX_ERR_NO_MEMORY;
    case EMFILE:
    case ENFILE:
    case ENOSPC:
      return ZX_ERR_NO_RESOURCES;
    case EACCES:
    case EPERM:
      return ZX_ERR_ACCESS_DENIED;
    case ESRCH:
      return ZX_ERR_BAD_STATE;
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      return ZX_ERR_NOT_SUPPORTED;
    default:
      return ZX_ERR_INTERNAL;
  }
}

// The user-space PCs of a callchain, without the kernel's context markers.
size_t UserPcs(const uint64_t* chain, uint64_t count, uint64_t* pcs) {
  size_t n = 0;
  for (uint64_t i = 0; i < count && n < ZX_SAMPLER_MAX_FRAMES; ++i)
    if (chain[i] < static_cast<uint64_t>(PERF_CONTEXT_MAX)) pcs[n++] = chain[i];
  return n;
}

}  // namespace

zx_status_t Session::Create(const zx_sampler_config_t& config, std::unique_ptr<Session>* out,
                            std::string* error) {
  std::unique_ptr<Session> session(new Session);
  session->period_ = config.period;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t region_size = (config.buffer_size + page - 1) / page * page;
  long possible = sysconf(_SC_NPROCESSORS_CONF);
  if (possible < 1) possible = 1;
  std::vector<bool> online = OnlineCpus(static_cast<size_t>(possible));
  session->wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (session->wake_fd_ < 0) return FromErrno(errno, "eventfd", error);
  session->regions_.resize(static_cast<size_t>(possible));
  for (size_t cpu = 0; cpu < session->regions_.size(); ++cpu) {
    Region& region = session->regions_[cpu];
    std::string name = "zx_sampler_region_" + std::to_string(cpu);
    region.memfd = memfd_create(name.c_str(), MFD_CLOEXEC);
    if (region.memfd < 0) return FromErrno(errno, "memfd_create", error);
    if (ftruncate(region.memfd, static_cast<off_t>(region_size)) != 0)
      return FromErrno(errno, "sizing a region of " + std::to_string(region_size) + " bytes",
                       error);
    void* map = mmap(nullptr, region_size, PROT_READ | PROT_WRITE, MAP_SHARED, region.memfd, 0);
    if (map == MAP_FAILED) return FromErrno(errno, "mapping a region", error);
    region.words = static_cast<uint64_t*>(map);
    region.size = region_size;
    if (!online[cpu]) continue;
    region.ring.reset(new PerfRing);
    int result = region.ring->Open(static_cast<int>(cpu), kRingPages);
    if (result < 0) {
      zx_status_t status =
          FromErrno(-result, "opening the perf ring of CPU " + std::to_string(cpu), error);
      if (status == ZX_ERR_ACCESS_DENIED)
        *error +=
            " (/proc/sys/kernel/perf_event_paranoid above 2 refuses every user without "
            "CAP_PERFMON)";
      return status;
    }
  }
  session->drainer_ = std::thread([s = session.get()] { s->DrainLoop(); });
  *out = std::move(session);
  return ZX_OK;
}

Session::~Session() {
  if (drainer_.joinable()) {
    quit_.store(true);
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof one);
    drainer_.join();
  }
  for (int fd : thread_events_) {
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    close(fd);
  }
  for (Region& region : regions_) {
    region.ring.reset();
    if (region.words) munmap(region.words, region.size);
    if (region.memfd >= 0) close(region.memfd);
  }
  if (wake_fd_ >= 0) close(wake_fd_);
}

void Session::ForgetInChild() {
  for (int fd : thread_events_) close(fd);
  for (Region& region : regions_) {
    if (region.ring) region.ring->ForgetInChild();
    if (region.words) munmap(region.words, region.size);
    if (region.memfd >= 0) close(region.memfd);
  }
  if (wake_fd_ >= 0) close(wake_fd_);
}

zx_status_t Session::OpenThreadEvent(pid_t tid, int cpu, bool descendants, int* fd,
                                     std::string* error) {
  perf_event_attr attr = SessionAttributes();
  // The thread's own CPU time, as Fuchsia's per-CPU timer only fires while it runs.
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = static_cast<uint64_t>(period_);
  attr.exclude_callchain_kernel = 1;
  attr.sample_max_stack = ZX_SAMPLER_MAX_FRAMES;
  attr.inherit = descendants ? 1 : 0;
  {
    std::lock_guard<std::mutex> lock(drain_mutex_);
    if (task_fn_) {
      attr.mmap = 1;
      attr.mmap2 = 1;
      attr.comm = 1;
      attr.comm_exec = 1;
      attr.task = 1;
    }
  }
  // Time spent in system calls is sampled too (its user stack) when the kernel lets us see
  // kernel-mode samples; otherwise, as perf_event_paranoid 2 requires, user time only.
  int result = -EACCES;
  if (kernel_time_ != 0) {
    attr.exclude_kernel = 0;
    result = PerfEventOpen(attr, tid, cpu);
    if (result >= 0) kernel_time_ = 1;
  }
  if (result == -EACCES || result == -EPERM) {
    attr.exclude_kernel = 1;
    result = PerfEventOpen(attr, tid, cpu);
    if (result >= 0) kernel_time_ = 0;
  }
  if (result < 0) {
    std::string what = "sampling thread " + std::to_string(tid) + " on CPU " + std::to_string(cpu);
    zx_status_t status = FromErrno(-result, what, error);
    if (status == ZX_ERR_BAD_STATE)
      *error = "thread " + std::to_string(tid) + " does not exist (it may have exited)";
    if (status == ZX_ERR_ACCESS_DENIED)
      *error +=
          " (another user's thread needs root or CAP_PERFMON; "
          "/proc/sys/kernel/perf_event_paranoid must be 2 or lower even for your own)";
    return status;
  }
  if (ioctl(result, PERF_EVENT_IOC_SET_OUTPUT, regions_[static_cast<size_t>(cpu)].ring->fd()) !=
      0) {
    int e = errno;
    close(result);
    return FromErrno(e, "redirecting thread " + std::to_string(tid) + "'s samples", error);
  }
  *fd = result;
  return ZX_OK;
}

zx_status_t Session::Attach(pid_t tid, bool descendants, std::string* error) {
  if (attached_.count(tid)) return ZX_OK;
  std::vector<int> opened;
  for (size_t cpu = 0; cpu < regions_.size(); ++cpu) {
    if (!regions_[cpu].ring) continue;
    int fd = -1;
    zx_status_t status = OpenThreadEvent(tid, static_cast<int>(cpu), descendants, &fd, error);
    if (status != ZX_OK) {
      for (int f : opened) close(f);
      return status;
    }
    opened.push_back(fd);
  }
  for (int fd : opened) {
    if (running_) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    thread_events_.push_back(fd);
  }
  attached_.insert(tid);
  return ZX_OK;
}

zx_status_t Session::Start(std::string* error) {
  if (running_) {
    *error = "the sampler is already started";
    return ZX_ERR_BAD_STATE;
  }
  for (int fd : thread_events_) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  running_ = true;
  return ZX_OK;
}

zx_status_t Session::Stop(std::string* error) {
  if (!running_) {
    *error = "the sampler is not started";
    return ZX_ERR_BAD_STATE;
  }
  // A disable returns once the event is off on its CPU, so every sample it took is in the
  // ring: draining now leaves nothing behind.
  for (int fd : thread_events_) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  running_ = false;
  std::lock_guard<std::mutex> lock(drain_mutex_);
  DrainAll();
  return ZX_OK;
}

void Session::DrainLoop() {
  // Signals are the program's business: never delivered to this thread.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::vector<pollfd> fds;
  fds.push_back(pollfd{wake_fd_, POLLIN, 0});
  for (Region& region : regions_)
    if (region.ring) fds.push_back(pollfd{region.ring->fd(), POLLIN, 0});
  while (!quit_.load()) {
    // The timeout drains rings whose watermark a slow trickle of samples never reaches.
    poll(fds.data(), fds.size(), 50);
    if (fds[0].revents & POLLIN) {
      uint64_t count;
      (void)!read(wake_fd_, &count, sizeof count);
    }
    std::lock_guard<std::mutex> lock(drain_mutex_);
    DrainAll();
  }
}

void Session::DrainAll() {
  for (Region& region : regions_) {
    if (!region.ring) continue;
    region.ring->Drain([&](const perf_event_header& header, const uint8_t* record) {
      Record(region, header, record);
    });
  }
}

void Session::Record(Region& region, const perf_event_header& header, const uint8_t* record) {
  const uint8_t* body = record + sizeof header;
  if (header.type == PERF_RECORD_LOST) {
    uint64_t lost[2];
    std::memcpy(lost, body, sizeof lost);  // id, count
    lost_ += lost[1];
    return;
  }
  if (header.type != PERF_RECORD_SAMPLE) {
    if (task_fn_) TaskEvent(header, record);
    return;
  }
  // PERF_SAMPLE_TID | TIME | CPU | CALLCHAIN, in that order.
  struct Fixed {
    uint32_t pid, tid;
    uint64_t time;
    uint32_t cpu, reserved;
    uint64_t count;
  } fixed;
  if (header.size < sizeof header + sizeof fixed) return;
  std::memcpy(&fixed, body, sizeof fixed);
  uint64_t available = (header.size - sizeof header - sizeof fixed) / 8;
  if (fixed.count > available) fixed.count = available;
  uint64_t chain[ZX_SAMPLER_MAX_FRAMES + 8];
  uint64_t take = fixed.count < ZX_SAMPLER_MAX_FRAMES + 8 ? fixed.count : ZX_SAMPLER_MAX_FRAMES + 8;
  std::memcpy(chain, body + sizeof fixed, take * 8);
  uint64_t pcs[ZX_SAMPLER_MAX_FRAMES];
  size_t n = UserPcs(chain, take, pcs);
  if (n == 0) return;  // no user stack (a kernel-mode sample of a thread without one)
  size_t words = fxt::SampleRecordWords(n);
  // Whole records only, and always a zero word after the last one.
  if (region.full || region.used + (words + 1) * 8 > region.size) {
    region.full = true;
    ++dropped_;
    return;
  }
  fxt::EncodeSample(region.words + region.used / 8, fixed.time, fixed.pid, fixed.tid, pcs, n);
  region.used += words * 8;
  ++written_;
}

void Session::TaskEvent(const perf_event_header& header, const uint8_t* record) {
  const uint8_t* body = record + sizeof header;
  zx_sampler_task_event_t event{};
  // sample_id_all: {pid, tid, time, cpu, reserved} ends every non-sample record.
  if (header.size >= sizeof header + 24) std::memcpy(&event.ticks, record + header.size - 16, 8);
  std::string name;
  auto text = [&](size_t offset) {
    size_t limit = header.size - 24;
    if (offset >= limit) return std::string();
    const char* start = reinterpret_cast<const char*>(record + offset);
    return std::string(start, strnlen(start, limit - offset));
  };
  uint32_t ids[4] = {};
  switch (header.type) {
    case PERF_RECORD_MMAP2: {
      struct {
        uint32_t pid, tid;
        uint64_t addr, len, pgoff;
        uint32_t maj, min;
        uint64_t ino, ino_generation;
        uint32_t prot, flags;
      } m;
      if (header.size < sizeof header + sizeof m + 24) return;
      std::memcpy(&m, body, sizeof m);
      if (!(m.prot & PROT_EXEC)) return;
      event.kind = ZX_SAMPLER_TASK_MAP;
      event.pid = m.pid;
      event.tid = m.tid;
      event.start = m.addr;
      event.length = m.len;
      event.file_offset = m.pgoff;
      name = text(sizeof header + sizeof m);
      break;
    }
    case PERF_RECORD_COMM:
      if (header.size < sizeof header + 8 + 24) return;
      std::memcpy(ids, body, 8);
      event.kind =
          (header.misc & PERF_RECORD_MISC_COMM_EXEC) ? ZX_SAMPLER_TASK_EXEC : ZX_SAMPLER_TASK_NAME;
      event.pid = ids[0];
      event.tid = ids[1];
      name = text(sizeof header + 8);
      break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
      if (header.size < sizeof header + 16 + 8) return;
      std::memcpy(ids, body, 16);  // pid, ppid, tid, ptid
      event.kind = header.type == PERF_RECORD_FORK ? ZX_SAMPLER_TASK_FORK : ZX_SAMPLER_TASK_EXIT;
      event.pid = ids[0];
      event.parent_pid = ids[1];
      event.tid = ids[2];
      event.parent_tid = ids[3];
      std::memcpy(&event.ticks, body + 16, 8);
      break;
    default:
      return;
  }
  event.name = name.c_str();
  task_fn_(task_context_, &event);
}

void Session::Info(zx_sampler_info_t* info) {
  std::lock_guard<std::mutex> lock(drain_mutex_);
  *info = zx_sampler_info_t{};
  info->region_count = static_cast<uint32_t>(regions_.size());
  info->running = running_ ? 1 : 0;
  info->region_size = regions_.empty() ? 0 : regions_[0].size;
  info->ticks_per_second = 1000000000;
  info->samples_written = written_;
  info->samples_dropped = dropped_;
  info->samples_lost = lost_;
  for (size_t i = 0; i < regions_.size() && i < 64; ++i)
    if (regions_[i].full) info->full_regions |= uint64_t{1} << i;
  info->attached_threads = static_cast<uint32_t>(attached_.size());
  info->kernel_time_sampled = kernel_time_ == 1 ? 1 : 0;
}

zx_status_t Session::RegionFd(uint32_t index, int* fd, std::string* error) {
  if (index >= regions_.size()) {
    *error = "region " + std::to_string(index) + " does not exist (there are " +
             std::to_string(regions_.size()) + ")";
    return ZX_ERR_OUT_OF_RANGE;
  }
  // A new open file description, read-only: a writable shared mapping of it is refused.
  std::string path = "/proc/self/fd/" + std::to_string(regions_[index].memfd);
  int result = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (result < 0) return FromErrno(errno, "opening " + path + " read-only", error);
  *fd = result;
  return ZX_OK;
}

zx_status_t Session::MapRegion(uint32_t index, const void** data, size_t* size,
                               std::string* error) {
  int fd = -1;
  zx_status_t status = RegionFd(index, &fd, error);
  if (status != ZX_OK) return status;
  size_t length = regions_[index].size;
  void* map = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  int e = errno;
  close(fd);
  if (map == MAP_FAILED) return FromErrno(e, "mapping region " + std::to_string(index), error);
  *data = map;
  *size = length;
  return ZX_OK;
}

void Session::SetTaskEvents(zx_sampler_task_event_fn fn, void* context) {
  std::lock_guard<std::mutex> lock(drain_mutex_);
  task_fn_ = fn;
  task_context_ = context;
}

}  // namespace zx_sampler
