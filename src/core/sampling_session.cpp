// SPDX-License-Identifier: MIT
// The drainer polls every ring's anchor and its wake-up descriptor, and drains at least every
// 50 ms: a trickle of samples may never reach a ring's wake-up watermark.
#include "core/sampling_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <string>

#include "base/fork_service.h"
#include "base/kernel.h"
#include "core/fork_order.h"
#include "core/library_thread.h"

namespace pmapi {

namespace {

// The front ends' call lock, with its fork hook: a fork waits for the call under way.
struct FrontEndLock {
  std::mutex mutex;
  ForkHook hook{kForkRankSamplingCalls, this, &Lock, &Unlock, &Unlock};
  FrontEndLock() { hook.Join(); }
  static void Lock(void *self) { static_cast<FrontEndLock *>(self)->mutex.lock(); }
  static void Unlock(void *self) { static_cast<FrontEndLock *>(self)->mutex.unlock(); }
};

// The front ends' child hooks: a fixed table, so that registering one costs nothing a fork
// could see half done; the same hook twice is kept once.
struct FrontEndChildHooks {
  static constexpr size_t kMax = 8;
  std::mutex mutex;
  void (*release[kMax])() = {};
  ForkHook *hooks[kMax] = {};
  size_t count = 0;
  static void Run(void *slot) { (*static_cast<void (**)()>(slot))(); }
};

FrontEndChildHooks &ChildHooks() {
  static FrontEndChildHooks *hooks = new FrontEndChildHooks;  // never destroyed, as the hooks
  return *hooks;
}

}  // namespace

std::mutex &SamplingSession::FrontEndCalls() {
  // Never destroyed: a front end's call may run while static destructors do.
  static FrontEndLock *lock = new FrontEndLock;
  return lock->mutex;
}

void SamplingSession::AtForkInChild(void (*release)()) {
  FrontEndChildHooks &table = ChildHooks();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (size_t i = 0; i < table.count; ++i) {
    if (table.release[i] == release) return;
  }
  if (table.count == FrontEndChildHooks::kMax) return;
  table.release[table.count] = release;
  ForkHook *hook = new ForkHook(kForkRankSamplingFrontEnds, &table.release[table.count], nullptr,
                                nullptr, &FrontEndChildHooks::Run);
  hook->Join();
  table.hooks[table.count++] = hook;
}

void SamplingSession::LockForFork(void *self) {
  static_cast<SamplingSession *>(self)->drain_mutex_.lock();
}

void SamplingSession::UnlockAfterFork(void *self) {
  static_cast<SamplingSession *>(self)->drain_mutex_.unlock();
}

void SamplingSession::ForgetAfterFork(void *self) {
  auto *session = static_cast<SamplingSession *>(self);
  session->ForgetInChild();
  session->drain_mutex_.unlock();
}

Status SamplingSession::Create(RecordFn each, std::unique_ptr<SamplingSession> *out) {
  std::unique_ptr<SamplingSession> session(new SamplingSession);
  session->each_ = std::move(each);
  session->wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (session->wake_fd_ < 0) return StatusFromErrno(errno, {"eventfd for a sampling session"});
  session->fork_hook_.Join();
  *out = std::move(session);
  return Status::Ok();
}

SamplingSession::~SamplingSession() {
  fork_hook_.Leave();
  if (held_by_parent_) {
    for (auto &ring : rings_) ring->reader.ForgetInChild();
    return;
  }
  StopDraining();
  Kernel &kernel = CurrentKernel();
  for (int fd : events_) {
    kernel.Ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    kernel.Close(fd);
  }
  for (auto &ring : rings_) {
    ring->reader.Unmap();
    if (ring->anchor_fd >= 0) kernel.Close(ring->anchor_fd);
  }
  if (wake_fd_ >= 0) close(wake_fd_);
}

void SamplingSession::StopDraining() {
  if (!draining_) return;
  quit_.store(true);
  uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof one);
  pthread_join(drainer_, nullptr);
  draining_ = false;
}

void SamplingSession::AddRingOfFirstSample(int cpu, size_t max_data_pages) {
  auto ring = std::make_unique<Ring>();
  ring->cpu = cpu;
  ring->max_data_pages = max_data_pages;
  std::lock_guard<std::mutex> lock(drain_mutex_);
  rings_.push_back(std::move(ring));
}

Status SamplingSession::AddRing(int cpu, const perf_event_attr &anchor, size_t max_data_pages) {
  AddRingOfFirstSample(cpu, max_data_pages);
  Ring *ring = rings_.back().get();
  Kernel &kernel = CurrentKernel();
  const std::string cpu_text = std::to_string(cpu);
  const int fd = kernel.PerfEventOpen(anchor, 0, cpu, -1);
  Status status =
      fd < 0 ? StatusFromErrno(-fd, {"opening the sampling ring of CPU ", cpu_text.c_str()})
             : MapRing(ring, fd, "");
  if (status.ok()) {
    ring->anchor_fd = fd;
    return status;
  }
  if (fd >= 0) kernel.Close(fd);
  std::lock_guard<std::mutex> lock(drain_mutex_);
  rings_.pop_back();
  return status;
}

// Maps `ring` from event `fd` and starts the drainer if it is the first ring mapped.
Status SamplingSession::MapRing(Ring *ring, int fd, const char *target) {
  std::lock_guard<std::mutex> lock(drain_mutex_);  // the drainer reads every ring
  if (const int err = ring->reader.Map(fd, ring->max_data_pages); err < 0) {
    const std::string cpu = std::to_string(ring->cpu);
    // EPERM after every smaller size: even the smallest is over the locked-memory limits.
    const char *limit = err == -EPERM ? " (even its smallest size, 8 pages, is over "
                                        "perf_event_mlock_kb and RLIMIT_MEMLOCK)"
                                      : "";
    return StatusFromErrno(-err, {"mapping the sampling ring of CPU ", cpu.c_str(), target, limit});
  }
  ring->owner_fd = fd;
  ++rings_mapped_;
  if (draining_) return Status::Ok();
  // Every signal blocked while it starts, so the drainer inherits a full mask: signals are the
  // program's business.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  const int err = StartLibraryThread(&drainer_, &SamplingSession::DrainLoop, this);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (err != 0) {
    ring->reader.Unmap();
    ring->owner_fd = -1;
    --rings_mapped_;
    return StatusFromErrno(err, {"starting the thread that drains the rings"});
  }
  draining_ = true;
  return Status::Ok();
}

Status SamplingSession::OpenEvent(size_t index, const perf_event_attr &attr, pid_t pid,
                                  int group_fd, int *fd_out, uint64_t *id,
                                  const char **failed_step) {
  Ring &ring = *rings_[index];
  Kernel &kernel = CurrentKernel();
  const std::string where =
      (pid < 0 ? std::string(" for every task") : " for thread " + std::to_string(pid)) +
      " on CPU " + std::to_string(ring.cpu);
  const char *step = "perf_event_open";
  const int fd = kernel.PerfEventOpen(attr, pid, ring.cpu, group_fd);
  Status status = fd < 0 ? StatusFromErrno(-fd, {step, where.c_str()}) : Status::Ok();
  if (status.ok() && id) {
    step = "PERF_EVENT_IOC_ID";
    if (const int err = kernel.Ioctl(fd, PERF_EVENT_IOC_ID, reinterpret_cast<unsigned long>(id));
        err < 0)
      status = StatusFromErrno(-err, {step, where.c_str()});
  }
  if (status.ok() && attr.sample_period != 0) {
    if (ring.owner_fd < 0) {
      step = "mapping its sample ring";
      status = MapRing(&ring, fd, where.c_str());
    } else {
      step = "PERF_EVENT_IOC_SET_OUTPUT";
      if (const int err = kernel.Ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
                                       static_cast<unsigned long>(ring.owner_fd));
          err < 0)
        status = StatusFromErrno(-err, {step, where.c_str()});
    }
  }
  if (!status.ok()) {
    if (fd >= 0) kernel.Close(fd);
    if (failed_step) *failed_step = step;
    return status;
  }
  events_.push_back(fd);
  if (enabled_) kernel.Ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  *fd_out = fd;
  return status;
}

Status SamplingSession::AddTarget(pid_t pid, const perf_event_attr &attr,
                                  std::vector<uint64_t> *ids) {
  const size_t before = events_.size();
  const size_t ids_before = ids ? ids->size() : 0;
  for (size_t ring = 0; ring < rings_.size(); ++ring) {
    int fd = -1;
    uint64_t id = 0;
    Status status = OpenEvent(ring, attr, pid, -1, &fd, ids ? &id : nullptr);
    if (status.ok() && ids) ids->push_back(id);
    if (!status.ok()) {
      Kernel &kernel = CurrentKernel();
      for (size_t i = before; i < events_.size(); ++i) kernel.Close(events_[i]);
      events_.resize(before);
      if (ids) ids->resize(ids_before);
      return status;
    }
  }
  return Status::Ok();
}

Status SamplingSession::Enable() {
  // Held so that what the caller wrote before enabling (the state its record function reads)
  // is ordered before the drainer's next turn, which takes the lock: the kernel's ordering
  // (enable, then records) is invisible to ThreadSanitizer.
  std::lock_guard<std::mutex> lock(drain_mutex_);
  Kernel &kernel = CurrentKernel();
  Status first;
  for (int fd : events_) {
    const int err = kernel.Ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    if (err < 0 && first.ok()) first = StatusFromErrno(-err, {"enabling a sampling event"});
  }
  enabled_ = true;
  return first;
}

void SamplingSession::Disable() {
  Kernel &kernel = CurrentKernel();
  for (int fd : events_) kernel.Ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  enabled_ = false;
}

void SamplingSession::Drain() {
  std::lock_guard<std::mutex> lock(drain_mutex_);
  DrainAll();
}

void SamplingSession::DrainAll() {
  for (size_t i = 0; i < rings_.size(); ++i) {
    rings_[i]->reader.Drain(
        [&](const perf_event_header &header, const uint8_t *record) { each_(i, header, record); });
  }
}

uint64_t SamplingSession::discarded_bytes() const {
  uint64_t bytes = 0;
  for (const auto &ring : rings_) bytes += ring->reader.discarded_bytes();
  return bytes;
}

void *SamplingSession::DrainLoop(void *argument) {
  auto *session = static_cast<SamplingSession *>(argument);
  std::vector<pollfd> &fds = session->polled_;
  uint64_t rings_polled = 0;
  while (!session->quit_.load()) {
    {
      // Rings mapped since the last turn are polled from now on.
      std::lock_guard<std::mutex> lock(session->drain_mutex_);
      if (rings_polled != session->rings_mapped_) {
        rings_polled = session->rings_mapped_;
        fds.assign(1, pollfd{session->wake_fd_, POLLIN, 0});
        for (auto &ring : session->rings_) {
          if (ring->owner_fd >= 0) fds.push_back(pollfd{ring->owner_fd, POLLIN, 0});
        }
      }
    }
    poll(fds.data(), fds.size(), 50);
    if (fds[0].revents & POLLIN) {
      uint64_t count;
      (void)!read(session->wake_fd_, &count, sizeof count);
    }
    // A ring whose target exited hangs up from then on: it is no longer polled (it is still
    // drained), or this loop would spin.
    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents & (POLLHUP | POLLERR)) fds[i].fd = -1;
    }
    std::lock_guard<std::mutex> lock(session->drain_mutex_);
    session->DrainAll();
  }
  return nullptr;
}

void SamplingSession::ForgetInChild() {
  // The descriptors are copies of the parent's: closed directly, not through a test's double,
  // and never disabled (the events are the parent's too).
  for (int fd : events_) close(fd);
  events_.clear();
  for (auto &ring : rings_) {
    ring->reader.ForgetInChild();
    if (ring->anchor_fd >= 0) close(ring->anchor_fd);
    ring->anchor_fd = ring->owner_fd = -1;
  }
  if (wake_fd_ >= 0) close(wake_fd_);
  wake_fd_ = -1;
  draining_ = false;  // the drainer is not in the child
  enabled_ = false;
  held_by_parent_ = true;
}

}  // namespace pmapi
