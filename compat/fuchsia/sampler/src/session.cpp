// The session: regions are memfds mapped shared (the caller gets read-only descriptors of the
// same memory); the core's session opens the events, redirects them into one ring per CPU and
// drains the rings into Record on its own thread; stop drains what is left itself.
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "fuchsia_common/fxt.h"
#include "fuchsia_common/zx_status_from_errno.h"
#include "topology/cpu_map.h"

namespace zx_sampler {
namespace {

namespace fxt = fuchsia_common::fxt;

constexpr size_t kRingPages = 128;  // 512 KiB: what perf_event_mlock_kb allows per CPU

// The CPUs perf can open events on now; every possible one if the kernel does not say.
// The topology's CPU map of the CPUs online now.
std::vector<bool> OnlineCpus(size_t possible) {
  pmapi::CpuMap map;
  if (!pmapi::CpuMap::Online(pmapi::Topology(), &map).ok())
    return std::vector<bool>(possible, true);
  std::vector<bool> online(possible, false);
  for (int cpu : map.linux_cpus())
    if (static_cast<size_t>(cpu) < possible) online[static_cast<size_t>(cpu)] = true;
  return online;
}

zx_status_t FromErrno(int error, const std::string& what, std::string* message) {
  *message = what + ": " + std::strerror(error);
  return fuchsia_common::ZxStatusFromErrno(error);
}

// The core's failure, with its sentence (which names the CPU and thread).
zx_status_t FromCore(const pmapi::Status& status, std::string* message) {
  *message = status.detail();
  return fuchsia_common::ZxStatusFromErrno(status.kernel_errno());
}

// The core's failure, with `privilege_hint` added when the kernel refused for lack of privilege.
zx_status_t FromCore(const pmapi::Status& status, const char* privilege_hint,
                     std::string* message) {
  zx_status_t zx = FromCore(status, message);
  if (zx == ZX_ERR_ACCESS_DENIED) *message += privilege_hint;
  return zx;
}

// The attributes every event of a session shares (a ring takes only events on one clock).
perf_event_attr SessionAttributes() {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.disabled = 1;
  attr.exclude_hv = 1;
  // Timestamps on CLOCK_MONOTONIC: the records' ticks are its nanoseconds.
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
  attr.sample_id_all = 1;
  return attr;
}

// The event that owns a CPU's ring: counts nothing, needs no privilege, and wakes the drainer
// when a quarter of the ring is used (the kernel caps it at a smaller ring).
perf_event_attr RingAnchor() {
  perf_event_attr attr = SessionAttributes();
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.exclude_kernel = 1;
  attr.watermark = 1;
  attr.wakeup_watermark = static_cast<uint32_t>(kRingPages * sysconf(_SC_PAGESIZE) / 4);
  return attr;
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
  Session* s = session.get();
  s->period_ = config.period;
  pmapi::Status core = pmapi::SamplingSession::Create(
      [s](size_t ring, const perf_event_header& header, const uint8_t* record) {
        s->Record(ring, header, record);
      },
      &s->sampling_);
  if (!core.ok()) return FromCore(core, error);
  s->handle_ = s->sampling_->descriptor();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t region_size = (config.buffer_size + page - 1) / page * page;
  long possible = sysconf(_SC_NPROCESSORS_CONF);
  if (possible < 1) possible = 1;
  std::vector<bool> online = OnlineCpus(static_cast<size_t>(possible));
  s->regions_.resize(static_cast<size_t>(possible));
  for (size_t cpu = 0; cpu < s->regions_.size(); ++cpu) {
    Region& region = s->regions_[cpu];
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
    core = s->sampling_->AddRing(static_cast<int>(cpu), RingAnchor(), kRingPages);
    if (!core.ok()) {
      return FromCore(core,
                      " (/proc/sys/kernel/perf_event_paranoid above 2 refuses every user without "
                      "CAP_PERFMON)",
                      error);
    }
  }
  *out = std::move(session);
  return ZX_OK;
}

Session::~Session() {
  sampling_.reset();  // first: its drainer writes into the regions
  for (Region& region : regions_) {
    if (region.words) munmap(region.words, region.size);
    if (region.memfd >= 0) close(region.memfd);
  }
}

zx_status_t Session::Attach(pid_t tid, bool descendants, std::string* error) {
  if (attached_.count(tid)) return ZX_OK;
  perf_event_attr attr = SessionAttributes();
  // The thread's own CPU time, as Fuchsia's per-CPU timer only fires while it runs (or the
  // event zx_sampler_set_event chose).
  attr.type = event_type_;
  attr.config = event_config_;
  attr.sample_period = static_cast<uint64_t>(period_);
  attr.exclude_callchain_kernel = 1;
  attr.sample_max_stack = ZX_SAMPLER_MAX_FRAMES;
  attr.inherit = descendants ? 1 : 0;
  {
    std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
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
  pmapi::Status core;
  bool user_only = kernel_time_ == 0;
  if (!user_only) {
    attr.exclude_kernel = 0;
    core = sampling_->AddTarget(tid, attr);
    if (core.ok()) kernel_time_ = 1;
    user_only = core.kernel_errno() == EACCES || core.kernel_errno() == EPERM;
  }
  if (user_only) {
    attr.exclude_kernel = 1;
    core = sampling_->AddTarget(tid, attr);
    if (core.ok()) kernel_time_ = 0;
  }
  if (core.kernel_errno() == ESRCH) {  // Fuchsia's attach: a thread gone is a bad state
    *error = "thread " + std::to_string(tid) + " does not exist (it may have exited)";
    return ZX_ERR_BAD_STATE;
  }
  if (!core.ok()) {
    return FromCore(core,
                    " (another user's thread needs root or CAP_PERFMON; "
                    "/proc/sys/kernel/perf_event_paranoid must be 2 or lower even for your own)",
                    error);
  }
  attached_.insert(tid);
  return ZX_OK;
}

zx_status_t Session::Start(std::string* error) {
  if (sampling_->enabled()) {
    *error = "the sampler is already started";
    return ZX_ERR_BAD_STATE;
  }
  (void)sampling_->Enable();
  return ZX_OK;
}

zx_status_t Session::Stop(std::string* error) {
  if (!sampling_->enabled()) {
    *error = "the sampler is not started";
    return ZX_ERR_BAD_STATE;
  }
  sampling_->Disable();  // every sample taken is in its ring now
  sampling_->Drain();
  return ZX_OK;
}

void Session::Record(size_t ring, const perf_event_header& header, const uint8_t* record) {
  Region& region = regions_[static_cast<size_t>(sampling_->ring_cpu(ring))];
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
  std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
  *info = zx_sampler_info_t{};
  info->region_count = static_cast<uint32_t>(regions_.size());
  info->running = sampling_->enabled() ? 1 : 0;
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
  std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
  task_fn_ = fn;
  task_context_ = context;
}

}  // namespace zx_sampler
