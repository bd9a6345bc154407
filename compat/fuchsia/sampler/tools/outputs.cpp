// SPDX-License-Identifier: MIT
// Each output walks the grouped stacks once; symbolization is cached per PC and image.
#include "outputs.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "flame_graph.h"
#include "fuchsia_common/fxt.h"
#include "fuchsia_common/pprof_writer.h"
#include "printable.h"

namespace pmsample {
namespace {

namespace fxt = fuchsia_common::fxt;

// Interned trace strings: indices 1..0x7fff, then inline.
class StringTable {
 public:
  explicit StringTable(fxt::Writer* writer) : writer_(writer) {}
  fxt::StringRef Ref(const std::string& text) {
    auto found = ids_.find(text);
    if (found != ids_.end()) return fxt::StringRef::Indexed(found->second);
    if (next_ > 0x7fff || text.size() > 0x7fff) return fxt::StringRef::Inline(text);
    uint16_t id = next_++;
    writer_->String(id, text);
    ids_.emplace(text, id);
    return fxt::StringRef::Indexed(id);
  }

 private:
  fxt::Writer* writer_;
  std::unordered_map<std::string, uint16_t> ids_;
  uint16_t next_ = 1;
};

// Writes `size` bytes as the whole of `file` and puts it at its path.
bool Save(tools::OutputFile& file, const void* data, size_t size, std::string* error) {
  *error = file.Write(data, size);
  if (error->empty()) *error = file.Commit();
  return error->empty();
}

}  // namespace

bool WriteTrace(Recording& recording, const std::vector<std::vector<uint64_t>>& raw_regions,
                tools::OutputFile& file, std::string* error) {
  fxt::Writer writer;
  writer.Magic();
  writer.Initialization(1000000000);
  std::set<uint32_t> pids, tids;
  for (const Stack& s : recording.stacks()) {
    pids.insert(s.pid);
    tids.insert(s.tid);
  }
  const auto& names = recording.thread_names();
  std::map<uint32_t, uint32_t> pid_of;
  for (const Stack& s : recording.stacks()) pid_of[s.tid] = s.pid;
  for (uint32_t pid : pids) {
    auto name = names.find(pid);
    writer.ProcessName(pid, name != names.end() ? name->second : "pid " + std::to_string(pid));
  }
  for (const auto& [tid, pid] : pid_of) {
    auto name = names.find(tid);
    writer.ThreadName(pid, tid, name != names.end() ? name->second : "tid " + std::to_string(tid));
  }
  StringTable strings(&writer);
  fxt::StringRef category = strings.Ref("sample");
  fxt::StringRef stack_name = strings.Ref("stack");
  std::vector<fxt::StringRef> leaf(recording.stacks().size()), stack(recording.stacks().size());
  std::vector<bool> named(recording.stacks().size(), false);
  // Instant events, time-ordered: one per sample, its stack an argument.
  for (const auto& [ticks, index] : recording.sample_order()) {
    const Stack& s = recording.stacks()[index];
    if (!named[index]) {
      std::string joined;
      for (size_t i = 0; i < s.pcs.size(); ++i) {
        if (i) joined += ';';
        joined += recording.FrameOf(s.space, s.pcs[i], i > 0).function;
      }
      leaf[index] = strings.Ref(recording.FrameOf(s.space, s.pcs[0], false).function);
      stack[index] = strings.Ref(joined);
      named[index] = true;
    }
    // The stack as an interned string argument: one word per sample once interned.
    writer.InstantEvent(ticks, s.pid, s.tid, category, leaf[index], {{stack_name, stack[index]}});
  }
  for (const auto& region : raw_regions) writer.Append(region.data(), region.size());
  return Save(file, writer.words().data(), writer.bytes(), error);
}

bool WritePprof(Recording& recording, const RunFacts& facts, tools::OutputFile& file,
                std::string* error) {
  fuchsia_common::PprofWriter writer({{"samples", "count"}, {"cpu", "nanoseconds"}},
                                     {"cpu", "nanoseconds"}, facts.period_ns);
  // Mappings are numbered as their first PC is met: the program's is met first.
  if (!facts.program.empty()) {
    bool placed = false;
    for (const Stack& s : recording.stacks()) {
      for (size_t i = 0; i < s.pcs.size() && !placed; ++i)
        for (const fuchsia_common::Mapping& m : s.space->mappings)
          if (m.path == facts.program && s.pcs[i] >= m.start && s.pcs[i] < m.end) {
            writer.LocationFor(s.space->Symbols(), s.pcs[i], i > 0);  // the id a sample reuses
            placed = true;
            break;
          }
      if (placed) break;
    }
  }
  std::vector<uint64_t> locations;
  for (const Stack& s : recording.stacks()) {
    fuchsia_common::Symbolizer& symbols = s.space->Symbols();
    locations.clear();
    for (size_t i = 0; i < s.pcs.size(); ++i)
      locations.push_back(writer.LocationFor(symbols, s.pcs[i], i > 0));
    auto name = recording.thread_names().find(s.tid);
    std::vector<fuchsia_common::Label> labels = {{"pid", "", static_cast<int64_t>(s.pid), ""},
                                                 {"tid", "", static_cast<int64_t>(s.tid), ""}};
    if (name != recording.thread_names().end()) labels.push_back({"thread", name->second, 0, ""});
    writer.AddSample(
        locations, {static_cast<int64_t>(s.count), static_cast<int64_t>(s.count) * facts.period_ns},
        labels);
  }
  writer.SetTimes(0, static_cast<int64_t>(facts.end_ticks - facts.start_ticks));
  if (!facts.command.empty()) writer.AddComment("pmsample " + facts.command);
  std::string compressed;
  if (!fuchsia_common::Gzip(writer.Serialize(), &compressed, error)) return false;
  return Save(file, compressed.data(), compressed.size(), error);
}

tools::FoldedStacks FoldedStacksOf(Recording& recording) {
  tools::FoldedStacks folded;
  std::vector<std::string> frames;
  for (const Stack& s : recording.stacks()) {
    frames.clear();
    auto name = recording.thread_names().find(s.tid);
    if (name == recording.thread_names().end()) name = recording.thread_names().find(s.pid);
    frames.push_back(name != recording.thread_names().end() ? name->second
                                                            : "pid " + std::to_string(s.pid));
    for (size_t i = s.pcs.size(); i-- > 0;)
      frames.push_back(recording.FrameOf(s.space, s.pcs[i], i > 0).function);
    folded.Add(frames, s.count);
  }
  return folded;
}

bool WriteFolded(Recording& recording, tools::OutputFile& file, std::string* error) {
  std::string text = FoldedStacksOf(recording).Text();
  return Save(file, text.data(), text.size(), error);
}

bool WriteFlameGraph(Recording& recording, const RunFacts& facts, tools::OutputFile& file,
                     std::string* error) {
  tools::FlameGraphOptions options;
  options.title = "pmsample " + facts.command;
  char period[96];
  std::snprintf(period, sizeof period, "one sample per %" PRId64 " ns of a thread's CPU time",
                facts.period_ns);
  options.subtitle = period;
  tools::FoldedStacks folded = FoldedStacksOf(recording);
  std::string page = tools::IsHtmlPath(file.path()) ? tools::FlameGraphHtml(folded, options)
                                                    : tools::FlameGraphSvg(folded, options);
  return Save(file, page.data(), page.size(), error);
}

std::string RawRegionPath(const std::string& prefix, size_t region) {
  return prefix + ".cpu" + std::to_string(region);
}

bool WriteRawRegions(const std::vector<std::vector<uint64_t>>& raw_regions,
                     std::vector<tools::OutputFile>& files, std::string* error) {
  if (files.size() != raw_regions.size()) {
    *error = "the sampler has " + std::to_string(raw_regions.size()) + " regions, not the " +
             std::to_string(files.size()) + " files prepared for them";
    return false;
  }
  for (size_t i = 0; i < raw_regions.size(); ++i) {
    std::vector<uint64_t> words = raw_regions[i];
    words.push_back(0);
    if (!Save(files[i], words.data(), words.size() * 8, error)) return false;
  }
  return true;
}

std::string Summary(Recording& recording, const RunFacts& facts, size_t top) {
  struct Counts {
    uint64_t self = 0, total = 0;
    std::string where;
  };
  std::unordered_map<std::string, Counts> by_function;
  std::set<uint32_t> pids, tids;
  uint64_t samples = 0;
  for (const Stack& s : recording.stacks()) {
    samples += s.count;
    pids.insert(s.pid);
    tids.insert(s.tid);
    std::set<std::string> seen;
    for (size_t i = 0; i < s.pcs.size(); ++i) {
      const Frame& frame = recording.FrameOf(s.space, s.pcs[i], i > 0);
      Counts& c = by_function[frame.function];
      if (c.where.empty()) c.where = frame.where;
      if (i == 0) c.self += s.count;
      if (seen.insert(frame.function).second) c.total += s.count;
    }
  }
  std::vector<std::pair<std::string, Counts>> rows(by_function.begin(), by_function.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.second.self != b.second.self) return a.second.self > b.second.self;
    if (a.second.total != b.second.total) return a.second.total > b.second.total;
    return a.first < b.first;
  });
  std::string out;
  char line[512];
  std::snprintf(
      line, sizeof line,
      "pmsample: %" PRIu64 " samples of %zu thread(s) in %zu process(es), one per %" PRId64
      " %s (written %" PRIu64 ", dropped %" PRIu64 " to full regions, lost %" PRIu64 ")\n",
      samples, tids.size(), pids.size(), facts.period_ns, facts.period_unit.c_str(), facts.written,
      facts.dropped, facts.lost);
  out += line;
  out += "   self%  total%  samples  function (where)\n";
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const Counts& c = rows[i].second;
    double self = samples ? 100.0 * static_cast<double>(c.self) / static_cast<double>(samples) : 0;
    double total =
        samples ? 100.0 * static_cast<double>(c.total) / static_cast<double>(samples) : 0;
    // The numbers formatted, the names appended whole (a C++ template's name runs long), each
    // made printable: they are the program's, and go to a terminal.
    std::snprintf(line, sizeof line, "  %6.2f  %6.2f  %7" PRIu64 "  ", self, total, c.self);
    out += line + tools::Printable(rows[i].first);
    if (!c.where.empty()) out += " (" + tools::Printable(c.where) + ")";
    out += '\n';
  }
  return out;
}

}  // namespace pmsample
