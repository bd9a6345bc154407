// SPDX-License-Identifier: MIT
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
#include "fuchsia_common/perf_mmap2.h"
#include "fuchsia_common/shared_buffer.h"
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

// The sample_type of every event of a session (SessionAttributes), and what sample_id_all
// then puts at the end of every record but a sample: {pid, tid}, time, id, {cpu, reserved}.
constexpr uint64_t kSessionSampleType =
    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
constexpr size_t kSampleIdBytes = fuchsia_common::SampleIdBytes(kSessionSampleType);
constexpr size_t kSampleIdTimeFromEnd = 24;

// The attributes every event of a session shares (a ring takes only events on one clock).
// PERF_SAMPLE_ID: the id of the event the session opened, which the events a thread's new
// tasks inherit from it give too: a sample says whose attach took it.
perf_event_attr SessionAttributes() {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.disabled = 1;
  attr.exclude_hv = 1;
  // Timestamps on CLOCK_MONOTONIC: the records' ticks are its nanoseconds.
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  attr.sample_type = kSessionSampleType;
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

// A PERF_RECORD_MMAP2 of executable code: where it is mapped and the file's name.
bool ReadExecMapping(const perf_event_header& header, const uint8_t* record,
                     fuchsia_common::Mmap2Record* out) {
  return fuchsia_common::ReadMmap2(header, record, kSampleIdBytes, out) && (out->prot & PROT_EXEC);
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
    fuchsia_common::SharedBuffer buffer;
    fuchsia_common::SharedBufferStep failed;
    if (int err = fuchsia_common::MakeSharedBuffer(name.c_str(), region_size, &buffer, &failed)) {
      const std::string step = failed == fuchsia_common::SharedBufferStep::kCreate ? "memfd_create"
                               : failed == fuchsia_common::SharedBufferStep::kMap
                                   ? "mapping a region"
                                   : "sizing a region of " + std::to_string(region_size) + " bytes";
      return FromErrno(err, step, error);
    }
    region.memfd = buffer.fd;
    region.words = static_cast<uint64_t*>(buffer.base);
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
  if (stack_bytes_ != 0) {
    // The user registers and the top of the user stack, for the drainer to unwind by DWARF
    // CFI; the kernel's frame-pointer callchain stays, for samples CFI cannot unwind.
    attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    attr.sample_regs_user = UserRegisterMask();
    attr.sample_stack_user = stack_bytes_;
  }
  {
    std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
    // What the process mapped before it was attached, for the mappings recorded later to join.
    if (unwinder_) unwinder_->Attaching(tid);
    if (task_fn_ || unwinder_) {
      attr.mmap = 1;
      attr.mmap2 = 1;
      attr.comm = 1;
      attr.comm_exec = 1;
      attr.task = 1;
    }
  }
  // Its samples by the events it inherits are dropped from now on, before its own can sample.
  {
    std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
    own_events_.insert(tid);
  }
  // Time spent in system calls is sampled too (its user stack) when the kernel lets us see
  // kernel-mode samples; otherwise, as perf_event_paranoid 2 requires, user time only.
  pmapi::Status core;
  std::vector<uint64_t> ids;
  bool user_only = kernel_time_ == 0;
  if (!user_only) {
    attr.exclude_kernel = 0;
    core = sampling_->AddTarget(tid, attr, &ids);
    if (core.ok()) kernel_time_ = 1;
    user_only = core.kernel_errno() == EACCES || core.kernel_errno() == EPERM;
  }
  if (user_only) {
    attr.exclude_kernel = 1;
    core = sampling_->AddTarget(tid, attr, &ids);
    if (core.ok()) kernel_time_ = 0;
  }
  {
    std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
    if (core.ok()) {
      for (uint64_t id : ids) event_owner_[id] = tid;
    } else {
      own_events_.erase(tid);
    }
  }
  if (core.kernel_errno() == ESRCH) {  // Fuchsia's attach: a thread gone is a bad state
    *error = "thread " + std::to_string(tid) + " does not exist (it may have exited)";
    return ZX_ERR_BAD_STATE;
  }
  const int refused = core.kernel_errno();
  if (stack_bytes_ != 0 && (refused == EINVAL || refused == ENOSYS || refused == EOPNOTSUPP)) {
    FromCore(core, error);
    *error +=
        " (the kernel refused the user registers and stack copy that DWARF unwinding "
        "needs: unwind by frame pointers instead)";
    return ZX_ERR_NOT_SUPPORTED;
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
    if (unwinder_) Follow(header, record);
    if (task_fn_) TaskEvent(header, record);
    return;
  }
  // PERF_SAMPLE_TID | TIME | ID | CPU | CALLCHAIN, in that order.
  struct Fixed {
    uint32_t pid, tid;
    uint64_t time;
    uint64_t id;
    uint32_t cpu, reserved;
    uint64_t count;
  } fixed;
  if (header.size < sizeof header + sizeof fixed) return;
  std::memcpy(&fixed, body, sizeof fixed);
  // A thread attached itself that also inherited another thread's event (it was created by an
  // attached thread while the attaching went on) is sampled by both: its own event's samples
  // are the ones kept.
  auto owner = event_owner_.find(fixed.id);
  if (owner != event_owner_.end() && owner->second != static_cast<pid_t>(fixed.tid) &&
      own_events_.count(static_cast<pid_t>(fixed.tid)))
    return;
  uint64_t available = (header.size - sizeof header - sizeof fixed) / 8;
  uint64_t pcs[ZX_SAMPLER_MAX_FRAMES];
  size_t n = 0;
  if (unwinder_ && fixed.count <= available)
    n = DwarfPcs(static_cast<pid_t>(fixed.pid), static_cast<pid_t>(fixed.tid),
                 body + sizeof fixed + fixed.count * 8, record + header.size, pcs);
  if (fixed.count > available) fixed.count = available;
  uint64_t chain[ZX_SAMPLER_MAX_FRAMES + 8];
  uint64_t take = fixed.count < ZX_SAMPLER_MAX_FRAMES + 8 ? fixed.count : ZX_SAMPLER_MAX_FRAMES + 8;
  std::memcpy(chain, body + sizeof fixed, take * 8);
  if (n == 0) n = UserPcs(chain, take, pcs);
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

size_t Session::DwarfPcs(pid_t pid, pid_t tid, const uint8_t* after, const uint8_t* end,
                         uint64_t* pcs) {
  // PERF_SAMPLE_REGS_USER: {u64 abi; u64 regs[weight(mask)] unless abi is NONE}, then
  // PERF_SAMPLE_STACK_USER: {u64 size; u8 data[size]; u64 dyn_size (the part copied) if size}.
  auto word = [&](const uint8_t* at, uint64_t* value) {
    if (end - at < 8) return false;
    std::memcpy(value, at, 8);
    return true;
  };
  uint64_t abi = 0, size = 0, copied = 0;
  if (!word(after, &abi) || abi == PERF_SAMPLE_REGS_ABI_NONE) return 0;  // a kernel thread
  const size_t count = UserRegisterCount();
  const uint8_t* stack = after + 8 + count * 8;
  if (stack > end || !word(stack, &size) || size == 0) return 0;
  const uint8_t* data = stack + 8;
  if (data > end || size > static_cast<uint64_t>(end - data) || !word(data + size, &copied))
    return 0;
  if (copied > size) copied = size;
  uint64_t sampled[40];
  std::memcpy(sampled, after + 8, count * 8);
  DwarfRegisters registers;
  if (!ToDwarfRegisters(sampled, count, &registers)) return 0;
  size_t n = unwinder_->Unwind(pid, tid, registers, data, copied, pcs, ZX_SAMPLER_MAX_FRAMES);
  return n > 1 ? n : 0;  // no CFI for its PC (the vDSO, generated code): frame pointers' turn
}

void Session::Follow(const perf_event_header& header, const uint8_t* record) {
  const uint8_t* body = record + sizeof header;
  uint32_t ids[2];
  if (header.type == PERF_RECORD_MMAP2) {
    fuchsia_common::Mmap2Record m;
    if (!ReadExecMapping(header, record, &m)) return;
    unwinder_->Mapped(static_cast<pid_t>(m.pid), m.addr, m.len, m.pgoff, m.name);
  } else if (header.type == PERF_RECORD_COMM && (header.misc & PERF_RECORD_MISC_COMM_EXEC)) {
    if (header.size < sizeof header + 8) return;
    std::memcpy(ids, body, 8);
    unwinder_->Execed(static_cast<pid_t>(ids[0]));
  } else if (header.type == PERF_RECORD_FORK) {
    if (header.size < sizeof header + 8) return;
    std::memcpy(ids, body, 8);  // pid, ppid
    unwinder_->Forked(static_cast<pid_t>(ids[0]), static_cast<pid_t>(ids[1]));
  } else if (header.type == PERF_RECORD_EXIT) {
    uint32_t exited[3];
    if (header.size < sizeof header + sizeof exited) return;
    std::memcpy(exited, body, sizeof exited);  // pid, ppid, tid
    if (exited[0] == exited[2]) unwinder_->Exited(static_cast<pid_t>(exited[0]));
  }
}

zx_status_t Session::SetUnwind(uint32_t method, uint32_t stack_bytes, std::string* error) {
  if (!attached_.empty()) {
    *error = "the unwinding is chosen before the first attach";
    return ZX_ERR_BAD_STATE;
  }
  if (method == ZX_SAMPLER_UNWIND_FRAME_POINTERS) {
    std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
    stack_bytes_ = 0;
    unwinder_.reset();
    return ZX_OK;
  }
  if (method != ZX_SAMPLER_UNWIND_DWARF) {
    *error = "unknown unwinding method " + std::to_string(method) +
             " (ZX_SAMPLER_UNWIND_FRAME_POINTERS or ZX_SAMPLER_UNWIND_DWARF)";
    return ZX_ERR_INVALID_ARGS;
  }
  if (UserRegisterMask() == 0) {
    *error = "DWARF unwinding is not supported on this architecture (x86-64 and aarch64 only)";
    return ZX_ERR_NOT_SUPPORTED;
  }
  if (stack_bytes == 0) stack_bytes = ZX_SAMPLER_UNWIND_DEFAULT_STACK;
  if (stack_bytes % 8 != 0 || stack_bytes > ZX_SAMPLER_UNWIND_MAX_STACK) {
    *error = "stack_bytes must be a multiple of 8 up to " +
             std::to_string(ZX_SAMPLER_UNWIND_MAX_STACK) +
             " (0: " + std::to_string(ZX_SAMPLER_UNWIND_DEFAULT_STACK) + ")";
    return ZX_ERR_INVALID_ARGS;
  }
  std::lock_guard<std::mutex> lock(sampling_->drain_mutex());
  stack_bytes_ = stack_bytes;
  if (!unwinder_) unwinder_ = std::make_unique<DwarfUnwinder>();
  return ZX_OK;
}

void Session::TaskEvent(const perf_event_header& header, const uint8_t* record) {
  const uint8_t* body = record + sizeof header;
  zx_sampler_task_event_t event{};
  // sample_id_all (kSampleIdBytes) ends every non-sample record; its time is the event's.
  if (header.size >= sizeof header + kSampleIdBytes)
    std::memcpy(&event.ticks, record + header.size - kSampleIdTimeFromEnd, 8);
  std::string name;
  auto text = [&](size_t offset) {
    size_t limit = header.size - kSampleIdBytes;
    if (offset >= limit) return std::string();
    const char* start = reinterpret_cast<const char*>(record + offset);
    return std::string(start, strnlen(start, limit - offset));
  };
  uint32_t ids[4] = {};
  switch (header.type) {
    case PERF_RECORD_MMAP2: {
      fuchsia_common::Mmap2Record m;
      if (!ReadExecMapping(header, record, &m)) return;
      event.kind = ZX_SAMPLER_TASK_MAP;
      event.pid = m.pid;
      event.tid = m.tid;
      event.start = m.addr;
      event.length = m.len;
      event.file_offset = m.pgoff;
      name = m.name;
      break;
    }
    case PERF_RECORD_COMM:
      if (header.size < sizeof header + 8 + kSampleIdBytes) return;
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
