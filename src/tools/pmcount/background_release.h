// Lets pmcount finish without waiting for the kernel to tear its counters down.
//
// When the last perf event on a tracepoint closes, the kernel waits for an RCU grace period
// before it returns (perf_trace_event_unreg -> tracepoint_synchronize_unregister): 25-40 ms on
// the development VM. libpmapi's counting groups count their members with the tracepoint
// sched:sched_process_fork, so every pm_delete_program_group (and pmcount's exit) pays that,
// which is most of the time `pmcount -- true` takes. The wait is idle time, not work: nothing
// needs pmcount to be there for it.
//
// So before deleting, pmcount forks a holder process that keeps one reference to every perf
// event descriptor and nothing else; pmcount's own close then only drops a reference, and the
// holder closes the last ones after pmcount lets it go, waiting out the grace period in the
// background. The holder is detached (double fork, own session), holds no pipe or terminal,
// and is gone about one grace period later.
#pragma once

namespace pmcount {

class BackgroundRelease {
 public:
  BackgroundRelease() = default;
  ~BackgroundRelease() { End(); }
  BackgroundRelease(const BackgroundRelease &) = delete;
  BackgroundRelease &operator=(const BackgroundRelease &) = delete;

  // Starts the holder. Returns false if it could not (then the close simply waits).
  bool Begin();
  // After the counters are deleted: the holder closes its references and exits.
  void End();

 private:
  int release_fd_ = -1;  // the holder exits when this pipe's write end closes
};

}  // namespace pmcount
