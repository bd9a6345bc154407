// SPDX-License-Identifier: MIT
// FXT encoding per Fuchsia's trace-format reference; field positions are named where used.
#include "fuchsia_common/fxt.h"

#include <cstring>

namespace fuchsia_common {
namespace fxt {
namespace {

enum RecordType : uint64_t {
  kMetadata = 0,
  kInitialization = 1,
  kStringRecord = 2,
  kEvent = 4,
  kKernelObject = 7,
  kLargeRecord = 15,
};
enum ArgumentType : uint64_t { kStringArg = 6, kKoidArg = 8 };
constexpr uint64_t kInlineString = 0x8000;
constexpr size_t kMaxInlineBytes = 0x7fff;

size_t WordsFor(size_t bytes) { return (bytes + 7) / 8; }

// A string's 16-bit reference and, for an inline one, its bytes to append.
uint64_t Ref(const StringRef& s) {
  if (s.index != 0 || s.text.empty()) return s.index;
  return kInlineString | s.text.size();
}
size_t InlineWords(const StringRef& s) { return s.index == 0 ? WordsFor(s.text.size()) : 0; }

void AppendBytes(std::vector<uint64_t>* words, const std::string& text) {
  size_t at = words->size();
  words->resize(at + WordsFor(text.size()), 0);
  if (!text.empty()) std::memcpy(&(*words)[at], text.data(), text.size());
}
void AppendInline(std::vector<uint64_t>* words, const StringRef& s) {
  if (s.index == 0) AppendBytes(words, s.text);
}

StringRef Truncated(StringRef s, size_t max_bytes) {
  if (s.index == 0 && s.text.size() > max_bytes) s.text.resize(max_bytes);
  return s;
}

}  // namespace

void EncodeSample(uint64_t* out, uint64_t ticks, uint64_t pid, uint64_t tid, const uint64_t* pcs,
                  size_t frame_count) {
  // Large record header: [0..3] type 15, [4..35] size in words, [36..39] large type 0 (blob),
  // [40..43] blob format 0 (in-band with metadata).
  out[0] = kLargeRecord | static_cast<uint64_t>(SampleRecordWords(frame_count)) << 4;
  // Blob header: empty category and name, no arguments, thread ref 0 (inline).
  out[1] = 0;
  out[2] = ticks;
  out[3] = pid;
  out[4] = tid;
  out[5] = frame_count * 8;
  std::memcpy(out + 6, pcs, frame_count * 8);
}

bool WalkSampleRegion(const void* data, size_t size, const std::function<void(const Sample&)>& each,
                      size_t* used, std::string* error) {
  const uint64_t* words = static_cast<const uint64_t*>(data);
  size_t count = size / 8, at = 0;
  auto fail = [&](const std::string& why) {
    *error = "record at byte " + std::to_string(at * 8) + ": " + why;
    *used = at * 8;
    return false;
  };
  while (at < count && words[at] != 0) {
    uint64_t header = words[at];
    if ((header & 15) != kLargeRecord) return fail("not a large record");
    size_t record_words = (header >> 4) & 0xffffffffull;
    if (((header >> 36) & 15) != 0 || ((header >> 40) & 15) != 0)
      return fail("not a blob with metadata");
    if (record_words < 6 || record_words > count - at) return fail("size runs past the region");
    if (words[at + 1] != 0) return fail("category, name, arguments or thread ref not empty/inline");
    size_t frames = record_words - 6;
    if (words[at + 5] != frames * 8) return fail("blob size is not 8 x the PC count");
    Sample sample;
    sample.ticks = words[at + 2];
    sample.pid = words[at + 3];
    sample.tid = words[at + 4];
    sample.pcs = words + at + 6;
    sample.frame_count = frames;
    each(sample);
    at += record_words;
  }
  *used = at * 8;
  return true;
}

void Writer::Magic() { words_.push_back(kMagicRecord); }

void Writer::Initialization(uint64_t ticks_per_second) {
  words_.push_back(kInitialization | 2 << 4);
  words_.push_back(ticks_per_second);
}

void Writer::String(uint16_t index, const std::string& full_text) {
  std::string text = full_text.substr(0, kMaxInlineBytes);
  // [16..30] index, [32..46] length.
  words_.push_back(kStringRecord | (1 + WordsFor(text.size())) << 4 |
                   static_cast<uint64_t>(index & 0x7fff) << 16 |
                   static_cast<uint64_t>(text.size()) << 32);
  AppendBytes(&words_, text);
}

void Writer::ProcessName(uint64_t pid, const std::string& name) {
  StringRef ref = Truncated(StringRef::Inline(name), 1024);
  // [16..23] object type 1 (process), [24..39] name ref, [40..43] no arguments.
  words_.push_back(kKernelObject | (2 + InlineWords(ref)) << 4 | 1ull << 16 | Ref(ref) << 24);
  words_.push_back(pid);
  AppendInline(&words_, ref);
}

void Writer::ThreadName(uint64_t pid, uint64_t tid, const std::string& name) {
  StringRef ref = Truncated(StringRef::Inline(name), 1024);
  StringRef arg_name = StringRef::Inline("process");
  size_t arg_words = 1 + InlineWords(arg_name) + 1;
  // Object type 2 (thread) with one argument, "process" (a koid), which links it to pid.
  words_.push_back(kKernelObject | (2 + InlineWords(ref) + arg_words) << 4 | 2ull << 16 |
                   Ref(ref) << 24 | 1ull << 40);
  words_.push_back(tid);
  AppendInline(&words_, ref);
  words_.push_back(kKoidArg | arg_words << 4 | Ref(arg_name) << 16);
  AppendInline(&words_, arg_name);
  words_.push_back(pid);
}

void Writer::InstantEvent(uint64_t ticks, uint64_t pid, uint64_t tid, const StringRef& category,
                          const StringRef& full_name,
                          const std::vector<std::pair<StringRef, StringRef>>& string_args) {
  StringRef name = Truncated(full_name, 1024);
  size_t arg_count = string_args.size() < 15 ? string_args.size() : 15;
  // Room left for argument values once the fixed parts are counted (each argument name is
  // kept under 64 bytes).
  size_t fixed = 4 + InlineWords(category) + InlineWords(name) + arg_count * (1 + 8);
  size_t room_bytes = fixed < kMaxRecordWords ? (kMaxRecordWords - fixed) * 8 : 0;
  size_t per_value = arg_count ? room_bytes / arg_count : 0;
  std::vector<std::pair<StringRef, StringRef>> args;
  size_t words = 4 + InlineWords(category) + InlineWords(name);
  for (size_t i = 0; i < arg_count; ++i) {
    StringRef key = Truncated(string_args[i].first, 63);
    StringRef value =
        Truncated(string_args[i].second, per_value < kMaxInlineBytes ? per_value : kMaxInlineBytes);
    words += 1 + InlineWords(key) + InlineWords(value);
    args.emplace_back(std::move(key), std::move(value));
  }
  // [16..19] event type 0 (instant), [20..23] arguments, [24..31] thread ref 0 (inline),
  // [32..47] category, [48..63] name.
  words_.push_back(kEvent | words << 4 | static_cast<uint64_t>(arg_count) << 20 |
                   Ref(category) << 32 | Ref(name) << 48);
  words_.push_back(ticks);
  words_.push_back(pid);
  words_.push_back(tid);
  AppendInline(&words_, category);
  AppendInline(&words_, name);
  for (const auto& [key, value] : args) {
    uint64_t arg_words = 1 + InlineWords(key) + InlineWords(value);
    // String argument: [16..31] name ref, [32..47] value ref.
    words_.push_back(kStringArg | arg_words << 4 | Ref(key) << 16 | Ref(value) << 32);
    AppendInline(&words_, key);
    AppendInline(&words_, value);
  }
}

void Writer::Sample(uint64_t ticks, uint64_t pid, uint64_t tid, const uint64_t* pcs, size_t count) {
  size_t at = words_.size();
  words_.resize(at + SampleRecordWords(count));
  EncodeSample(&words_[at], ticks, pid, tid, pcs, count);
}

}  // namespace fxt
}  // namespace fuchsia_common
