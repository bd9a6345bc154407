/* SPDX-License-Identifier: MIT */
// DWARF unwinding of sampled user stacks with libdw: each sampled process's executable
// mappings (from the kernel's mmap, fork and exec records, or /proc/PID/maps for a process
// that was running before it was attached) become a Dwfl of its modules, and a sample's
// registers and copied stack are unwound by their call frame information (.eh_frame or
// .debug_frame). Memory is read from the copy only, never from the process, which may be
// gone when its samples are drained.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "user_registers.h"

typedef struct Dwfl Dwfl;

namespace zx_sampler {

class DwarfUnwinder {
 public:
  DwarfUnwinder() = default;
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  // Thread `tid` is being attached: if its process is new to the unwinder, what it has mapped
  // so far is read now (/proc/PID/maps), so that a mapping recorded later joins it.
  void Attaching(pid_t tid);
  // The kernel's task records, in the order they are drained. A mapping retires every earlier
  // one it overlaps (a library mapped where another was unmapped).
  void Mapped(pid_t pid, uint64_t start, uint64_t length, uint64_t file_offset,
              const std::string& path);
  void Forked(pid_t child, pid_t parent);
  void Execed(pid_t pid);
  // Its main thread exited: its Dwfl is ended (a sample still waiting in another CPU's ring
  // builds it again), its mappings kept.
  void Exited(pid_t pid);

  // Unwinds a sample of thread `tid` of process `pid`: `registers` and the `stack_size` bytes
  // of the stack copied from registers.sp. Writes up to `max` PCs, innermost first (the
  // return addresses of the callers, as a frame-pointer callchain has them); returns how many.
  size_t Unwind(pid_t pid, pid_t tid, const DwarfRegisters& registers, const uint8_t* stack,
                size_t stack_size, uint64_t* pcs, size_t max);

  // What libdw's callbacks read: the sample being unwound (public for them only).
  struct Current {
    const DwarfRegisters* registers = nullptr;
    const uint8_t* stack = nullptr;
    size_t stack_size = 0;
  };
  // The word at `address` of the sample's stack copy, which starts at registers->sp: false
  // for an address any of whose 8 bytes lie outside the copy (the unwinding ends there).
  static bool ReadStackWord(const Current& current, uint64_t address, uint64_t* word);

 private:
  struct Mapping {
    uint64_t start, length, file_offset;
    std::string path;
  };
  struct Process {
    std::vector<Mapping> mappings;
    bool known = false;     // its mappings came from records (or /proc) already
    Dwfl* dwfl = nullptr;   // built on its next sample after the mappings changed
    bool attached = false;  // dwfl_attach_state succeeded on dwfl
    size_t modules = 0;     // reported to dwfl: libdwfl holds a descriptor of each
    uint64_t last_use = 0;
  };

  void Invalidate(Process* process);
  // The executable file mappings /proc/PID/maps lists now, into `process` (marked known).
  static void ReadMappings(pid_t pid, Process* process);
  Dwfl* DwflOf(pid_t pid, Process* process);
  // Ends the least recently used Dwfl (never `keep`'s) past the limits on Dwfl and modules.
  void EvictIdle(const Process* keep);

  std::map<pid_t, Process> processes_;
  uint64_t uses_ = 0;
  Current current_;
};

}  // namespace zx_sampler
