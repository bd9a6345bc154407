// SPDX-License-Identifier: MIT
// Section start and stop. The hot path is one pm_get_data_mythread read, one
// clock read and relaxed atomic adds into the shared table: no lock, no
// allocation, no search beyond the thread's own (short) stack of open sections.
#include "sections.h"

#include <stdint.h>
#include <string.h>

#include <new>

namespace hpm {
namespace {

constexpr int kMaxDepth = 64;  // sections open at once in one thread

struct Frame {
  int id;
  int reentries;  // starts of this id while open, each waiting for its stop
  long long start_ns;
  long long child_ns;
  long long start[MAX_COUNTERS];
  long long child[MAX_COUNTERS];
};

struct ThreadState {
  int generation = -1;  // the run this state belongs to
  bool counting = false;
  bool forked = false;  // this process is a child forked since the thread last counted
  int depth = 0;
  int dropped = 0;  // starts beyond kMaxDepth, whose stops are ignored silently
  Frame frames[kMaxDepth];
};

thread_local ThreadState t_state;

// Gives the calling thread a _mythread context with the run's events, unless
// it has one (inherited from its creator); true when it counts.
bool HaveContext(Run *run) {
  if (!run->counting) return false;
  pm_data_t data;
  int rc = pm_get_data_mythread(&data);
  if (rc == Pmapi_NoSetProg) rc = pm_set_program_mythread(&run->events.prog);
  return rc == 0;
}

// The calling thread's state for `run`: on its first call in this run the
// thread makes sure it has a _mythread context (threads started after hpmInit
// inherit one; older threads are programmed here, once). So does the thread
// of a forked child at its first call after the fork: libpmapi dropped the
// child's copy of the context, and a read would fail with Pmapi_NoSetProg.
ThreadState &StateFor(Run *run) {
  ThreadState &t = t_state;
  if (t.generation == run->generation && !t.forked) return t;
  if (t.generation == run->generation) {  // forked: the open frames go on (ContinueInChild)
    t.forked = false;
    t.counting = HaveContext(run);
    return t;
  }
  t.generation = run->generation;
  t.forked = false;
  t.depth = 0;
  t.dropped = 0;
  t.counting = HaveContext(run);
  return t;
}

bool IsOpen(const ThreadState &t, int id) {
  for (int k = 0; k < t.depth; ++k) {
    if (t.frames[k].id == id) return true;
  }
  return false;
}

void ReadCounts(const ThreadState &t, const Run *run, long long out[MAX_COUNTERS]) {
  if (!t.counting) {
    memset(out, 0, sizeof(long long) * MAX_COUNTERS);
    return;
  }
  pm_data_t data;
  if (pm_get_data_mythread(&data) != 0) {
    memset(out, 0, sizeof(long long) * MAX_COUNTERS);
    return;
  }
  int n = static_cast<int>(run->events.names.size());
  for (int i = 0; i < n; ++i) out[i] = data.accu[i];
}

void Describe(Run *run, Section &s, const char *label, size_t label_len, const char *file,
              int line) {
  std::lock_guard<std::mutex> lock(run->describe_lock);
  if (s.described.load(std::memory_order_relaxed) == 2) return;
  if (label) {
    if (label_len == SIZE_MAX) label_len = strlen(label);
    while (label_len > 0 && label[label_len - 1] == ' ') --label_len;  // Fortran padding
    s.label.assign(label, label_len);
  }
  if (file) s.file = file;
  s.start_line = line;
  s.described.store(2, std::memory_order_release);
}

// Closes the top frame with the counts `now` read at `now_ns`.
void CloseTop(Run *run, ThreadState &t, const long long now[MAX_COUNTERS], long long now_ns) {
  Frame &f = t.frames[--t.depth];
  Section &s = run->sections[f.id];
  int n = static_cast<int>(run->events.names.size());
  long long inclusive[MAX_COUNTERS];
  for (int i = 0; i < n; ++i) {
    inclusive[i] = now[i] - f.start[i];
    s.inclusive[i].fetch_add(inclusive[i], std::memory_order_relaxed);
    s.exclusive[i].fetch_add(inclusive[i] - f.child[i], std::memory_order_relaxed);
  }
  long long wall = now_ns - f.start_ns;
  s.calls.fetch_add(1, std::memory_order_relaxed);
  s.wall_ns.fetch_add(wall, std::memory_order_relaxed);
  s.exclusive_wall_ns.fetch_add(wall - f.child_ns, std::memory_order_relaxed);
  if (t.depth > 0) {
    Frame &parent = t.frames[t.depth - 1];
    for (int i = 0; i < n; ++i) parent.child[i] += inclusive[i];
    parent.child_ns += wall;
  }
}

}  // namespace

void StartSection(Run *run, int id, const char *label, size_t label_len, const char *file, int line,
                  bool threaded) {
  if (id < 0 || id >= run->num_sections) {
    Report(Misuse::kIdOutOfRange, &run->misuse, file, line, id);
    return;
  }
  Section &s = run->sections[id];
  if (s.described.load(std::memory_order_acquire) != 2)
    Describe(run, s, label, label_len, file, line);
  if (threaded && !s.threaded.load(std::memory_order_relaxed)) {
    s.threaded.store(true, std::memory_order_relaxed);
  }
  ThreadState &t = StateFor(run);
  for (int k = 0; k < t.depth; ++k) {
    if (t.frames[k].id == id) {
      ++t.frames[k].reentries;
      Report(Misuse::kStartedTwice, &run->misuse, file, line, id);
      return;
    }
  }
  if (t.depth == kMaxDepth) {
    ++t.dropped;
    Report(Misuse::kTooDeep, &run->misuse, file, line, id);
    return;
  }
  Frame &f = t.frames[t.depth];
  f.id = id;
  f.reentries = 0;
  f.child_ns = 0;
  memset(f.child, 0, sizeof f.child);
  ReadCounts(t, run, f.start);
  f.start_ns = static_cast<long long>(pmapi::MonotonicNanos());
  ++t.depth;  // last: the frame is complete before a signal handler could see it
}

void StopSection(Run *run, int id, const char *file, int line) {
  if (id < 0 || id >= run->num_sections) {
    Report(Misuse::kIdOutOfRange, &run->misuse, file, line, id);
    return;
  }
  ThreadState &t = StateFor(run);
  int k = t.depth - 1;
  while (k >= 0 && t.frames[k].id != id) --k;
  if (k < 0) {
    if (t.dropped > 0) {
      --t.dropped;
      return;
    }
    Report(Misuse::kStopWithoutStart, &run->misuse, file, line, id);
    return;
  }
  if (t.frames[k].reentries > 0) {
    --t.frames[k].reentries;
    return;
  }
  long long now_ns = static_cast<long long>(pmapi::MonotonicNanos());
  long long now[MAX_COUNTERS];
  ReadCounts(t, run, now);
  if (k != t.depth - 1) Report(Misuse::kUnbalanced, &run->misuse, file, line, id);
  while (t.depth > k) CloseTop(run, t, now, now_ns);
  Section &s = run->sections[id];
  if (s.stop_line.load(std::memory_order_relaxed) == 0 && line > 0) {
    s.stop_line.store(line, std::memory_order_relaxed);
  }
}

void StopAllSections(Run *run, const char *file, int line) {
  ThreadState &t = StateFor(run);
  if (t.depth == 0) return;
  Report(Misuse::kOpenAtTerminate, &run->misuse, file, line, t.frames[t.depth - 1].id);
  long long now_ns = static_cast<long long>(pmapi::MonotonicNanos());
  long long now[MAX_COUNTERS];
  ReadCounts(t, run, now);
  while (t.depth > 0) CloseTop(run, t, now, now_ns);
}

void ContinueInChild(Run *run) {
  ThreadState &t = t_state;
  bool mine = t.generation == run->generation;
  // Another thread may have held the lock at the fork; it does not exist here.
  new (&run->describe_lock) std::mutex;
  for (int id = 0; id < run->num_sections; ++id) {
    Section &s = run->sections[id];
    if (s.described.load(std::memory_order_relaxed) == 0 && s.calls.load() == 0) continue;
    // A section this thread has open goes on in the child; the others appear in the child's
    // report only if the child starts them.
    if (!(mine && IsOpen(t, id))) {
      s.described.store(0, std::memory_order_relaxed);
      s.threaded.store(false, std::memory_order_relaxed);
    }
    s.stop_line.store(0, std::memory_order_relaxed);
    s.calls.store(0, std::memory_order_relaxed);
    s.wall_ns.store(0, std::memory_order_relaxed);
    s.exclusive_wall_ns.store(0, std::memory_order_relaxed);
    for (int i = 0; i < MAX_COUNTERS; ++i) {
      s.inclusive[i].store(0, std::memory_order_relaxed);
      s.exclusive[i].store(0, std::memory_order_relaxed);
    }
  }
  for (int k = 0; k < static_cast<int>(Misuse::kCount); ++k) {
    run->misuse.counts[k].store(0, std::memory_order_relaxed);
  }
  if (!mine) return;
  // The open sections count from here: the context the next call programs starts at 0.
  long long now_ns = static_cast<long long>(pmapi::MonotonicNanos());
  for (int k = 0; k < t.depth; ++k) {
    Frame &f = t.frames[k];
    memset(f.start, 0, sizeof f.start);
    memset(f.child, 0, sizeof f.child);
    f.start_ns = now_ns;
    f.child_ns = 0;
  }
  t.forked = true;
}

bool ReadThreadCounts(Run *run, long long values[MAX_COUNTERS]) {
  ThreadState &t = StateFor(run);
  memset(values, 0, sizeof(long long) * MAX_COUNTERS);
  ReadCounts(t, run, values);
  return t.counting;
}

}  // namespace hpm
