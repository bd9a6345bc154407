/* SPDX-License-Identifier: MIT */
// What a counting gives (a Sample per target, read by a Counting), and the counting through AIX's
// _mx programs, public pmapi calls only: event sets multiplexed set by set on a command's
// counting group (pm_set_program_group_mx: the command and everything it starts), on an
// attached thread or process, or on the system-wide context (pm_set_program_mx, read per CPU).
// One set of events counts through the counting session instead (session_counting.h).
#pragma once

#include <pmapi.h>
#include <stdint.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "attach_targets.h"

namespace tools {

// One read of one target (the command's group, one CPU, one attached thread or process).
struct Sample {
  // A program's accu[], per counter; a session's counts, per event in the session's order.
  std::vector<uint64_t> values = std::vector<uint64_t>(MAX_COUNTERS);
  uint64_t enabled_ns = 0;  // pm_accu_time_t.accu_timebase: time enabled
  uint64_t running_ns = 0;  // accu_purr: time actually counting
  // A session: each value's own times (its events are not one group); empty for a program,
  // whose counters share enabled_ns and running_ns.
  std::vector<uint64_t> enabled_of, running_of;
  int rc = 0;  // 0, Pmapi_Multiplexed, or why there is no data
};

class Counting {
 public:
  virtual ~Counting() = default;
  // Reads every target; for a command one sample, system-wide one per selected CPU.
  // Returns 0 or the pmapi code of a failure that left no data at all.
  virtual int Read(std::vector<Sample> *samples) = 0;
  // pm_delete_program*, once however often it is called (the destructors call it too).
  void Delete() {
    if (deleted_) return;
    deleted_ = true;
    DeleteProgram();
  }
  // -T: complete rounds through every set at the last Read (nb_mx_round); -1 otherwise.
  virtual int rounds() const { return -1; }
  // -D: starts counting that was programmed off (pm_start_group, pm_start). Returns the code.
  virtual int Start() = 0;

 protected:
  virtual void DeleteProgram() = 0;

 private:
  bool deleted_ = false;
};

// Programs `prog` on the command `pid` (stopped: the AIX rule for third-party calls) as a
// counting group (pm_set_program_group_mx), or on every CPU (pm_set_program_mx; reads report
// the Linux CPUs `cpus`); `on` false: programmed with counting off, for Start() later (-D).
// Reads are set-major: set k's sample of target t is at k * targets + t. A sample's running_ns
// (and enabled_ns) is the time its set counted (accu_time). Returns 0 or the pmapi code.
int CountCommandMx(pid_t pid, const pm_prog_mx_t &prog, bool on, std::unique_ptr<Counting> *out);
int CountSystemWideMx(const pm_prog_mx_t &prog, std::vector<int> cpus, bool on,
                      std::unique_ptr<Counting> *out);
// One attached target (pmcount multiplexes one target only): pm_set_program_group_mx with
// PM_PROCESS for a whole process, pm_set_program_thread_mx for a thread.
int CountAttachedMx(const AttachTarget &target, const pm_prog_mx_t &prog,
                    std::unique_ptr<Counting> *out);

}  // namespace tools
