#include "process_events.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include <utility>

#include "base/kernel.h"

namespace pmc_netbsd {

int ThreadsOfThisProcess(std::vector<pid_t> *tids) {
  std::vector<std::string> names;
  int rc = pmapi::CurrentKernel().ListDirectory("/proc/self/task", &names);
  if (rc < 0) return -rc;
  tids->clear();
  for (const std::string &name : names) {
    pid_t tid = static_cast<pid_t>(strtol(name.c_str(), nullptr, 10));
    if (tid > 0) tids->push_back(tid);
  }
  return tids->empty() ? ESRCH : 0;
}

ProcessEvents::ProcessEvents(ProcessEvents &&other) noexcept
    : own_(std::move(other.own_)), tree_(std::move(other.tree_)) {
  other.own_.clear();
  other.tree_.clear();
}

ProcessEvents &ProcessEvents::operator=(ProcessEvents &&other) noexcept {
  if (this != &other) {
    Close();
    own_ = std::move(other.own_);
    tree_ = std::move(other.tree_);
    other.own_.clear();
    other.tree_.clear();
  }
  return *this;
}

int ProcessEvents::OpenOne(perf_event_attr attr, pid_t tid, std::vector<int> *fds) {
  int fd = pmapi::CurrentKernel().PerfEventOpen(attr, tid, -1, -1);
  if (fd < 0) {
    // A thread that exited since /proc/self/task was listed has nothing left to count.
    return fd == -ESRCH ? 0 : ErrnoForKernelFailure(-fd);
  }
  fds->push_back(fd);
  return 0;
}

int ProcessEvents::OpenCounting(const CounterEvent &event, const std::vector<pid_t> &tids) {
  Close();
  perf_event_attr attr = event.attr;
  attr.disabled = 1;
  attr.inherit = 1;
  // Pinned: the kernel counts the event all the time or marks it failed (a
  // 0-byte read), never a silently multiplexed share.
  attr.pinned = 1;
  perf_event_attr own = attr;
  own.inherit_thread = 1;
  for (pid_t tid : tids) {
    int err = OpenOne(own, tid, &own_);
    if (!err) err = OpenOne(attr, tid, &tree_);
    if (err) {
      Close();
      return err;
    }
  }
  if (own_.empty() || own_.size() != tree_.size()) {
    Close();
    return ESRCH;
  }
  return 0;
}

int ProcessEvents::OpenProfiling(const CounterEvent &event, uint64_t period,
                                 const std::vector<pid_t> &tids) {
  Close();
  perf_event_attr attr = event.attr;
  attr.disabled = 1;
  attr.inherit = 1;
  attr.sample_period = period;
  attr.sample_type = PERF_SAMPLE_IP;
  for (pid_t tid : tids) {
    int err = OpenOne(attr, tid, &own_);
    if (err) {
      Close();
      return err;
    }
  }
  return own_.empty() ? ESRCH : 0;
}

int ProcessEvents::ControlAll(unsigned long request) {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  for (const std::vector<int> *fds : {&own_, &tree_}) {
    for (int fd : *fds) {
      int rc = kernel.Ioctl(fd, request, 0);
      if (rc < 0) return ErrnoForKernelFailure(-rc);
    }
  }
  return 0;
}

int ProcessEvents::Enable() {
  int err = ControlAll(PERF_EVENT_IOC_ENABLE);
  if (err) ControlAll(PERF_EVENT_IOC_DISABLE);
  return err;
}

int ProcessEvents::Disable() { return ControlAll(PERF_EVENT_IOC_DISABLE); }

int ProcessEvents::SumReads(const std::vector<int> &fds, uint64_t *value) {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  uint64_t sum = 0;
  for (int fd : fds) {
    uint64_t count = 0;
    ssize_t n = kernel.Read(fd, &count, sizeof count);
    if (n < 0) return ErrnoForKernelFailure(static_cast<int>(-n));
    if (n != sizeof count) return EBUSY;  // pinned event in error state: not schedulable
    sum += count;
  }
  *value = sum;
  return 0;
}

int ProcessEvents::ReadOwn(uint64_t *value) const { return SumReads(own_, value); }

int ProcessEvents::ReadTree(uint64_t *value) const { return SumReads(tree_, value); }

void ProcessEvents::Close() {
  pmapi::Kernel &kernel = pmapi::CurrentKernel();
  for (int fd : own_) kernel.Close(fd);
  for (int fd : tree_) kernel.Close(fd);
  own_.clear();
  tree_.clear();
}

}  // namespace pmc_netbsd
