// SPDX-License-Identifier: MIT
#include "process_events.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "core/program.h"
#include "core/thread_map.h"

namespace pmc_netbsd {
namespace {

// A context of `attr` on every thread, stopped (or started, with `start`).
int OpenContext(const CounterEvent &event, const perf_event_attr &attr,
                const std::vector<pmapi::GroupTarget> &threads, bool start,
                std::unique_ptr<pmapi::Context> *out) {
  pmapi::Program program = pmapi::Program::ForEncodedEvent(event.id, event.name, attr);
  pmapi::Status status = pmapi::Context::Create(std::move(program), threads, start, out);
  if (!status.ok()) return ErrnoForStatus(status);
  if ((*out)->group_count() > 0) return 0;
  // Every thread exited while the list was opened: nothing of the process is left to count.
  out->reset();
  return ESRCH;
}

int ReadSum(const pmapi::Context *context, uint64_t *value) {
  if (!context) {
    *value = 0;
    return 0;
  }
  pmapi::GroupReading totals;
  bool multiplexed = false;  // never: the events are pinned
  pmapi::Status status = context->ReadTotals(-1, &totals, &multiplexed);
  if (!status.ok()) return ErrnoForStatus(status);
  *value = totals.values[0];
  return 0;
}

int Stop(pmapi::Context *context) {
  if (!context || !context->counting()) return 0;
  return ErrnoForStatus(context->Stop());
}

}  // namespace

pmapi::GroupTarget ThreadTarget(pid_t tid) {
  pmapi::GroupTarget target;
  target.pid = tid;
  target.inherit = true;
  // A thread that exited since /proc/self/task was listed has nothing left to count.
  target.may_vanish = true;
  target.description = "thread " + std::to_string(tid);
  return target;
}

int ThreadsOfThisProcess(std::vector<pmapi::GroupTarget> *threads) {
  std::vector<pid_t> tids;
  const int rc = pmapi::ListThreads(getpid(), &tids);
  if (rc < 0) return -rc;
  threads->clear();
  for (pid_t tid : tids) threads->push_back(ThreadTarget(tid));
  return threads->empty() ? ESRCH : 0;
}

int ProcessEvents::OpenCounting(const CounterEvent &event,
                                const std::vector<pmapi::GroupTarget> &threads) {
  Close();
  // The core pins each group's leader: the kernel counts the event all the
  // time or marks it failed (a 0-byte read), never a silently multiplexed share.
  perf_event_attr own = event.attr;
  own.inherit_thread = 1;
  std::unique_ptr<pmapi::Context> own_context;
  std::unique_ptr<pmapi::Context> tree_context;
  int err = OpenContext(event, own, threads, false, &own_context);
  if (!err) err = OpenContext(event, event.attr, threads, false, &tree_context);
  if (err) return err;
  // A thread that exited between its two opens would make tree - own meaningless.
  if (own_context->group_count() != tree_context->group_count()) return ESRCH;
  own_ = std::move(own_context);
  tree_ = std::move(tree_context);
  return 0;
}

int ProcessEvents::OpenProfiling(const CounterEvent &event, uint64_t period,
                                 const std::vector<pmapi::GroupTarget> &threads) {
  Close();
  perf_event_attr attr = event.attr;
  attr.sample_period = period;
  attr.sample_type = PERF_SAMPLE_IP;
  return OpenContext(event, attr, threads, true, &own_);
}

int ProcessEvents::Enable() {
  int err = own_ ? ErrnoForStatus(own_->Start()) : 0;
  if (!err && tree_) err = ErrnoForStatus(tree_->Start());
  if (err) Disable();  // a failed Start stopped its own context; this stops the other
  return err;
}

int ProcessEvents::Disable() {
  int err = Stop(own_.get());
  int tree_err = Stop(tree_.get());
  return err ? err : tree_err;
}

int ProcessEvents::ReadOwn(uint64_t *value) const { return ReadSum(own_.get(), value); }

int ProcessEvents::ReadTree(uint64_t *value) const { return ReadSum(tree_.get(), value); }

void ProcessEvents::Close() {
  own_.reset();
  tree_.reset();
}

}  // namespace pmc_netbsd
