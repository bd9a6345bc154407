/* SPDX-License-Identifier: MIT */
// The Fuchsia Trace Format (FXT) records our tools write and read: the magic and
// initialization records, strings, process and thread names, instant events with string
// arguments, and the Large BLOB "sample" record the thread sampler writes per stack.
// Every record is a whole number of little-endian 64-bit words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fuchsia_common {
namespace fxt {

constexpr uint64_t kMagicRecord = 0x0016547846040010ull;
// A record's size field is 12 bits (words, header included) for all but large records; we
// keep every record under it so that readers that use those 12 bits (Perfetto) stay in step.
constexpr size_t kMaxRecordWords = 4095;

// The sampler's record for `frame_count` PCs: header, blob header, timestamp, pid, tid,
// payload size, then the PCs.
constexpr size_t SampleRecordWords(size_t frame_count) { return 6 + frame_count; }

// Writes one sample record (SampleRecordWords(frame_count) words) at `out`.
void EncodeSample(uint64_t* out, uint64_t ticks, uint64_t pid, uint64_t tid, const uint64_t* pcs,
                  size_t frame_count);

struct Sample {
  uint64_t ticks = 0;
  uint64_t pid = 0;
  uint64_t tid = 0;
  const uint64_t* pcs = nullptr;  // innermost first; points into the region
  size_t frame_count = 0;
};

// Walks a sampler region (`size` bytes, 8-aligned): every record from offset 0 up to the first
// zero word (or the end), calling `each` per sample. False, with *error saying where, if a
// record is not a sample record (format 0, empty category and name, inline thread, no
// arguments, blob size = 8 x PC count) or runs past the region. *used: bytes of records.
bool WalkSampleRegion(const void* data, size_t size, const std::function<void(const Sample&)>& each,
                      size_t* used, std::string* error);

// A string reference: an index into the string table (1..0x7fff) or an inline string.
struct StringRef {
  uint16_t index = 0;
  std::string text;  // used when index == 0 and text is non-empty
  static StringRef Indexed(uint16_t i) { return StringRef{i, ""}; }
  static StringRef Inline(std::string s) { return StringRef{0, std::move(s)}; }
};

// Appends records to a word buffer (a trace file is the buffer's bytes).
class Writer {
 public:
  void Magic();
  void Initialization(uint64_t ticks_per_second);
  void String(uint16_t index, const std::string& text);
  void ProcessName(uint64_t pid, const std::string& name);
  void ThreadName(uint64_t pid, uint64_t tid, const std::string& name);
  // An instant event on thread (pid, tid), with up to 15 string arguments (name, value);
  // inline names and values are truncated so that the record stays under kMaxRecordWords.
  void InstantEvent(uint64_t ticks, uint64_t pid, uint64_t tid, const StringRef& category,
                    const StringRef& name,
                    const std::vector<std::pair<StringRef, StringRef>>& string_args);
  void Sample(uint64_t ticks, uint64_t pid, uint64_t tid, const uint64_t* pcs, size_t count);
  // Raw words (a region's records copied as they are).
  void Append(const uint64_t* words, size_t count) {
    words_.insert(words_.end(), words, words + count);
  }

  const std::vector<uint64_t>& words() const { return words_; }
  size_t bytes() const { return words_.size() * 8; }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace fxt
}  // namespace fuchsia_common
