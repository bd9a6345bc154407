// The drainer polls every ring's anchor and its wake-up descriptor, and drains at least every
// 50 ms: a trickle of samples may never reach a ring's wake-up watermark.
#include "core/sampling_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <string>

#include "base/kernel.h"
#include "core/registry.h"

namespace pmapi {

Status SamplingSession::Create(RecordFn each, std::unique_ptr<SamplingSession> *out) {
  std::unique_ptr<SamplingSession> session(new SamplingSession);
  session->each_ = std::move(each);
  session->wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (session->wake_fd_ < 0) return StatusFromErrno(errno, {"eventfd for a sampling session"});
  Registry::Get().AddSamplingSession(session.get());
  *out = std::move(session);
  return Status::Ok();
}

SamplingSession::~SamplingSession() {
  Registry::Get().RemoveSamplingSession(this);
  if (held_by_parent_) {
    for (auto &ring : rings_) ring->reader.ForgetInChild();
    return;
  }
  if (draining_) {
    quit_.store(true);
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof one);
    pthread_join(drainer_, nullptr);
  }
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

Status SamplingSession::AddRing(int cpu, const perf_event_attr &anchor, size_t max_data_pages) {
  const std::string what = "the sampling ring of CPU " + std::to_string(cpu);
  auto ring = std::make_unique<Ring>();
  ring->cpu = cpu;
  Kernel &kernel = CurrentKernel();
  const int fd = kernel.PerfEventOpen(anchor, 0, cpu, -1);
  if (fd < 0) return StatusFromErrno(-fd, {"opening ", what.c_str()});
  if (const int err = ring->reader.Map(fd, max_data_pages); err < 0) {
    kernel.Close(fd);
    return StatusFromErrno(-err, {"mapping ", what.c_str()});
  }
  ring->anchor_fd = fd;
  std::lock_guard<std::mutex> lock(drain_mutex_);
  rings_.push_back(std::move(ring));
  if (!draining_) {
    // Every signal blocked while it starts, so the drainer inherits a full mask: signals are the
    // program's business.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    const int err = pthread_create(&drainer_, nullptr, &SamplingSession::DrainLoop, this);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (err != 0) return StatusFromErrno(err, {"starting the thread that drains the rings"});
    draining_ = true;
  }
  return Status::Ok();
}

Status SamplingSession::AddTarget(pid_t pid, const perf_event_attr &attr) {
  Kernel &kernel = CurrentKernel();
  std::vector<int> opened;
  auto undo = [&] {
    for (int fd : opened) kernel.Close(fd);
  };
  const std::string target = pid < 0 ? "every task" : "thread " + std::to_string(pid);
  for (auto &ring : rings_) {
    const std::string cpu = std::to_string(ring->cpu);
    const int fd = kernel.PerfEventOpen(attr, pid, ring->cpu, -1);
    if (fd < 0) {
      undo();
      return StatusFromErrno(-fd, {"sampling ", target.c_str(), " on CPU ", cpu.c_str()});
    }
    opened.push_back(fd);
    const int err =
        kernel.Ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(ring->anchor_fd));
    if (err < 0) {
      undo();
      return StatusFromErrno(-err, {"sending the samples of ", target.c_str(), " on CPU ",
                                    cpu.c_str(), " to its ring"});
    }
  }
  events_.reserve(events_.size() + opened.size());
  for (int fd : opened) {
    if (enabled_) kernel.Ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    events_.push_back(fd);
  }
  return Status::Ok();
}

Status SamplingSession::Enable() {
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
  std::vector<pollfd> fds;
  while (!session->quit_.load()) {
    {
      // Rings added since the last turn are polled from now on.
      std::lock_guard<std::mutex> lock(session->drain_mutex_);
      if (fds.size() != session->rings_.size() + 1) {
        fds.assign(1, pollfd{session->wake_fd_, POLLIN, 0});
        for (auto &ring : session->rings_) fds.push_back(pollfd{ring->anchor_fd, POLLIN, 0});
      }
    }
    poll(fds.data(), fds.size(), 50);
    if (fds[0].revents & POLLIN) {
      uint64_t count;
      (void)!read(session->wake_fd_, &count, sizeof count);
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
    ring->anchor_fd = -1;
  }
  if (wake_fd_ >= 0) close(wake_fd_);
  wake_fd_ = -1;
  draining_ = false;  // the drainer is not in the child
  enabled_ = false;
  held_by_parent_ = true;
  if (child_release_) child_release_();
}

}  // namespace pmapi
