/* SPDX-License-Identifier: MIT */
// What pmsample collected: the samples read back from the sampler's regions, grouped by
// identical stacks, and the task events that say which address space (exec generation) each
// process had when, so that every PC is symbolized against the files mapped at the time.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "fuchsia_common/symbolizer.h"
#include "zircon/sampler-linux.h"

namespace pmsample {

// One process image: the executable mappings it had from `since` (ticks) on. A mapping over
// one it had (a library mapped where another was unmapped) starts the next image.
struct AddressSpace {
  uint64_t since = 0;
  bool exec = false;  // made by an exec: its first mapping is the program (mapped before ld.so)
  std::vector<fuchsia_common::Mapping> mappings;
  std::shared_ptr<fuchsia_common::SymbolFiles> files;      // the recording's, shared
  std::unique_ptr<fuchsia_common::Symbolizer> symbolizer;  // made on first use
  fuchsia_common::Symbolizer& Symbols();
};

// A symbolized frame, as the summary and the trace print it.
struct Frame {
  std::string function;  // or "module+0xoffset", or "0xpc"
  std::string where;     // "file:line" or the module's name, may be empty
};

// Samples with the same process image, thread and stack, counted once.
struct Stack {
  uint32_t pid = 0, tid = 0;
  AddressSpace* space = nullptr;
  std::vector<uint64_t> pcs;  // innermost first
  uint64_t count = 0;
  uint64_t first_ticks = 0;
};

class Recording {
 public:
  // Task events arrive on the sampler's thread: kept under a lock, sorted later.
  static void OnTaskEvent(void* recording, const zx_sampler_task_event_t* event);

  // A process whose image is known before sampling starts (-p, or pmsample's own forked
  // child before it execs): its current executable mappings.
  void AddInitialProcess(pid_t pid, const std::vector<fuchsia_common::Mapping>& mappings);
  void SetThreadName(uint32_t tid, const std::string& name) { thread_names_[tid] = name; }

  // Orders the task events and builds the address spaces; call once, after sampling.
  void ApplyTaskEvents();
  // One sample from a region (after ApplyTaskEvents). Its stack ends before the first return
  // address outside every executable mapping of the process: a frame-pointer walk through code
  // built without frame pointers reads whatever the frame register held (0, a small number, a
  // heap or stack address), and each frame after such a one came from the same bad read.
  // The innermost PC is the sampled instruction itself and is always kept.
  void AddSample(uint64_t ticks, uint32_t pid, uint32_t tid, const uint64_t* pcs, size_t count);
  // Per raw sample, in region order (for the trace): the stack index it was counted under.
  const std::vector<std::pair<uint64_t, size_t>>& sample_order() const { return order_; }

  const std::vector<Stack>& stacks() const { return stacks_; }
  std::vector<Stack>& stacks() { return stacks_; }
  uint64_t sample_count() const { return order_.size(); }
  const std::map<uint32_t, std::string>& thread_names() const { return thread_names_; }
  // The program `pid` last exec'd while sampled (after ApplyTaskEvents), or "".
  std::string ExecutedProgram(uint32_t pid) const;
  // The symbol tables of every file of every image: each file indexed once.
  const fuchsia_common::SymbolFiles& symbol_files() const { return *files_; }
  // The frame for a PC of a stack; return addresses (every frame but the innermost) are
  // looked up at pc - 1 so that the line is the call's.
  const Frame& FrameOf(AddressSpace* space, uint64_t pc, bool return_address);

 private:
  AddressSpace* SpaceAt(uint32_t pid, uint64_t ticks, bool create);
  // A new image of `pid` from `ticks` on (after the ones it had).
  AddressSpace* NewSpace(uint32_t pid, uint64_t ticks);
  void Map(uint32_t pid, uint64_t ticks, const fuchsia_common::Mapping& mapping);
  // The image a sample's PC belongs to: the one current at its time, or the one before it
  // when the sample was taken in an exec past its announcement, still in the old code.
  AddressSpace* SpaceOfSample(uint32_t pid, uint64_t ticks, uint64_t pc);
  static size_t PlausibleFrames(const AddressSpace& space, const uint64_t* pcs, size_t count);

  std::shared_ptr<fuchsia_common::SymbolFiles> files_ =
      std::make_shared<fuchsia_common::SymbolFiles>();
  std::mutex events_mutex_;
  std::vector<zx_sampler_task_event_t> events_;
  std::vector<std::string> event_names_;  // events_[i].name points nowhere: names live here
  std::map<uint32_t, std::vector<std::unique_ptr<AddressSpace>>> spaces_;  // by pid, by since
  std::map<uint32_t, std::string> thread_names_;
  std::vector<Stack> stacks_;
  std::unordered_map<std::string, size_t> stack_index_;
  std::vector<std::pair<uint64_t, size_t>> order_;  // (ticks, stack index) per sample
  struct FrameKey {
    AddressSpace* space;
    uint64_t pc;
    bool return_address;  // looked up at pc - 1: the same PC may name another line
    bool operator==(const FrameKey& o) const {
      return space == o.space && pc == o.pc && return_address == o.return_address;
    }
  };
  struct FrameKeyHash {
    size_t operator()(const FrameKey& k) const {
      return std::hash<uint64_t>()(k.pc ^ (reinterpret_cast<uintptr_t>(k.space) << 1) ^
                                   k.return_address);
    }
  };
  std::unordered_map<FrameKey, Frame, FrameKeyHash> frames_;
};

}  // namespace pmsample
