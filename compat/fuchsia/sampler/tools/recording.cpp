// SPDX-License-Identifier: MIT
// Address spaces from task events: an exec starts a new image for its process, a fork copies
// its parent's, a mapping joins the image current at its time.
#include "recording.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace pmsample {

fuchsia_common::Symbolizer& AddressSpace::Symbols() {
  if (!symbolizer) {
    symbolizer.reset(files ? new fuchsia_common::Symbolizer(files)
                           : new fuchsia_common::Symbolizer);
    for (const auto& m : mappings) symbolizer->AddMapping(m);
  }
  return *symbolizer;
}

void Recording::OnTaskEvent(void* context, const zx_sampler_task_event_t* event) {
  auto* self = static_cast<Recording*>(context);
  std::lock_guard<std::mutex> lock(self->events_mutex_);
  self->events_.push_back(*event);
  self->events_.back().name = nullptr;
  self->event_names_.push_back(event->name ? event->name : "");
}

void Recording::AddInitialProcess(pid_t pid, const std::vector<fuchsia_common::Mapping>& mappings) {
  AddressSpace* space = SpaceAt(static_cast<uint32_t>(pid), 0, true);
  space->mappings.insert(space->mappings.end(), mappings.begin(), mappings.end());
}

AddressSpace* Recording::SpaceAt(uint32_t pid, uint64_t ticks, bool create) {
  auto& list = spaces_[pid];
  for (auto it = list.rbegin(); it != list.rend(); ++it)
    if ((*it)->since <= ticks) return it->get();
  if (!create) return nullptr;
  list.insert(list.begin(), std::unique_ptr<AddressSpace>(new AddressSpace));
  list.front()->files = files_;
  return list.front().get();
}

AddressSpace* Recording::NewSpace(uint32_t pid, uint64_t ticks) {
  auto space = std::unique_ptr<AddressSpace>(new AddressSpace);
  space->since = ticks;
  space->files = files_;
  spaces_[pid].push_back(std::move(space));
  return spaces_[pid].back().get();
}

void Recording::Map(uint32_t pid, uint64_t ticks, const fuchsia_common::Mapping& mapping) {
  AddressSpace* space = SpaceAt(pid, ticks, true);
  auto overlaps = [&](const fuchsia_common::Mapping& m) {
    return m.start < mapping.end && mapping.start < m.end;
  };
  if (std::any_of(space->mappings.begin(), space->mappings.end(), overlaps)) {
    // What was there is gone from now on; the samples before still name it.
    AddressSpace* next = NewSpace(pid, ticks);
    for (const fuchsia_common::Mapping& m : space->mappings)
      if (!overlaps(m)) next->mappings.push_back(m);
    space = next;
  }
  space->mappings.push_back(mapping);
}

void Recording::ApplyTaskEvents() {
  std::lock_guard<std::mutex> lock(events_mutex_);
  std::vector<size_t> order(events_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return events_[a].ticks < events_[b].ticks; });
  for (size_t i : order) {
    const zx_sampler_task_event_t& e = events_[i];
    const std::string& name = event_names_[i];
    switch (e.kind) {
      case ZX_SAMPLER_TASK_MAP:
        Map(e.pid, e.ticks,
            fuchsia_common::Mapping{e.start, e.start + e.length, e.file_offset, name});
        break;
      case ZX_SAMPLER_TASK_EXEC: {
        NewSpace(e.pid, e.ticks)->exec = true;
        thread_names_[e.tid] = name;
        break;
      }
      case ZX_SAMPLER_TASK_NAME:
        thread_names_[e.tid] = name;
        break;
      case ZX_SAMPLER_TASK_FORK:
        if (e.pid != e.parent_pid) {
          AddressSpace* parent = SpaceAt(e.parent_pid, e.ticks, false);
          AddressSpace* space = NewSpace(e.pid, e.ticks);
          if (parent) space->mappings = parent->mappings;
          auto parent_name = thread_names_.find(e.parent_tid);
          if (parent_name != thread_names_.end()) thread_names_[e.tid] = parent_name->second;
        } else {
          auto parent_name = thread_names_.find(e.parent_tid);
          if (parent_name != thread_names_.end() && !thread_names_.count(e.tid))
            thread_names_[e.tid] = parent_name->second;
        }
        break;
      default:
        break;
    }
  }
  events_.clear();
  event_names_.clear();
}

std::string Recording::ExecutedProgram(uint32_t pid) const {
  auto found = spaces_.find(pid);
  if (found == spaces_.end()) return "";
  for (auto it = found->second.rbegin(); it != found->second.rend(); ++it)
    if ((*it)->exec) return (*it)->mappings.empty() ? "" : (*it)->mappings.front().path;
  return "";
}

namespace {

bool InCode(const AddressSpace& space, uint64_t pc) {
  for (const fuchsia_common::Mapping& m : space.mappings)
    if (pc >= m.start && pc < m.end) return true;
  return false;
}

}  // namespace

size_t Recording::PlausibleFrames(const AddressSpace& space, const uint64_t* pcs, size_t count) {
  for (size_t i = 1; i < count; ++i)
    if (!InCode(space, pcs[i])) return i;
  return count;
}

AddressSpace* Recording::SpaceOfSample(uint32_t pid, uint64_t ticks, uint64_t pc) {
  AddressSpace* space = SpaceAt(pid, ticks, true);
  if (!space->exec || InCode(*space, pc)) return space;
  // The end of an exec: the kernel has announced the new image (its time is the sample's or
  // earlier) while the thread still returns into the old one, whose PCs the sample holds.
  auto& list = spaces_[pid];
  for (size_t i = 1; i < list.size(); ++i)
    if (list[i].get() == space) return InCode(*list[i - 1], pc) ? list[i - 1].get() : space;
  return space;
}

void Recording::AddSample(uint64_t ticks, uint32_t pid, uint32_t tid, const uint64_t* pcs,
                          size_t count) {
  AddressSpace* space = SpaceOfSample(pid, ticks, count ? pcs[0] : 0);
  // Known mappings only: a process sampled without them (none read) keeps its whole walk.
  if (!space->mappings.empty()) count = PlausibleFrames(*space, pcs, count);
  std::string key(reinterpret_cast<const char*>(pcs), count * 8);
  key.append(reinterpret_cast<const char*>(&tid), 4);
  key.append(reinterpret_cast<const char*>(&space), sizeof space);
  auto [it, inserted] = stack_index_.emplace(std::move(key), stacks_.size());
  if (inserted) {
    Stack stack;
    stack.pid = pid;
    stack.tid = tid;
    stack.space = space;
    stack.pcs.assign(pcs, pcs + count);
    stack.first_ticks = ticks;
    stacks_.push_back(std::move(stack));
  }
  ++stacks_[it->second].count;
  order_.emplace_back(ticks, it->second);
}

const Frame& Recording::FrameOf(AddressSpace* space, uint64_t pc, bool return_address) {
  FrameKey key{space, pc, return_address};
  auto found = frames_.find(key);
  if (found != frames_.end()) return found->second;
  fuchsia_common::Symbol s = space->Symbols().Resolve(return_address && pc ? pc - 1 : pc);
  Frame frame;
  std::string module = s.module.substr(s.module.rfind('/') + 1);
  char text[64];
  if (!s.function.empty()) {
    frame.function = s.function;
  } else if (s.in_module) {
    std::snprintf(text, sizeof text, "+0x%" PRIx64, s.module_offset);
    frame.function = module + text;
  } else {
    std::snprintf(text, sizeof text, "0x%" PRIx64, pc);
    frame.function = text;
  }
  if (!s.file.empty())
    frame.where = s.file.substr(s.file.rfind('/') + 1) + ":" + std::to_string(s.line);
  else if (!s.function.empty())
    frame.where = module;
  return frames_.emplace(key, std::move(frame)).first->second;
}

}  // namespace pmsample
