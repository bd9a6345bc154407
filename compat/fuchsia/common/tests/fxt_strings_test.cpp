// SPDX-License-Identifier: MIT
// Every string the FXT writer puts in a trace, decoded back as a reader (Perfetto, Fuchsia's
// trace2json) decodes it: a 16-bit reference is either an index into the string table (defined
// by an earlier string record) or, with bit 15 set, an inline string of (ref & 0x7fff) bytes
// that follows, padded to whole words. A reference without its inline flag would be read as a
// table index, and every name would come out wrong or missing.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "fuchsia_common/fxt.h"

namespace fxt = fuchsia_common::fxt;

namespace {

// A strict reader of the records our writer makes: the strings of each record in order, or
// the first thing a reader would trip on.
class StringDecoder {
 public:
  explicit StringDecoder(const std::vector<uint64_t>& words) : words_(words) {}

  bool Decode(std::vector<std::vector<std::string>>* records, std::string* error) {
    while (at_ < words_.size()) {
      const uint64_t header = words_[at_];
      const size_t type = header & 15;
      const size_t size = type == 15 ? (header >> 4) & 0xffffffff : (header >> 4) & 0xfff;
      if (size == 0 || at_ + size > words_.size()) return Fail("record size", error);
      end_ = at_ + size;
      next_ = at_ + 1;
      std::vector<std::string> strings;
      bool ok = true;
      switch (type) {
        case 0:   // magic
        case 1:   // initialization
        case 15:  // sample blob
          next_ = end_;
          break;
        case 2: {  // string record: [16..30] index, [32..46] length
          const uint16_t index = (header >> 16) & 0x7fff;
          const size_t length = (header >> 32) & 0x7fff;
          std::string text;
          ok = index != 0 && Bytes(length, &text);
          table_[index] = text;
          strings.push_back(text);
          break;
        }
        case 7: {  // kernel object: [24..39] name ref, [40..43] argument count; koid word
          ++next_;
          std::string name;
          ok = Ref((header >> 24) & 0xffff, &name) && Arguments((header >> 40) & 15, &strings);
          strings.insert(strings.begin(), name);
          break;
        }
        case 4: {  // event: [20..23] arguments, [24..31] thread, [32..47] category, [48..63] name
          if (((header >> 24) & 0xff) != 0) return Fail("thread not inline", error);
          next_ += 3;  // ticks, pid, tid
          std::string category, name;
          ok = Ref((header >> 32) & 0xffff, &category) && Ref((header >> 48) & 0xffff, &name) &&
               Arguments((header >> 20) & 15, &strings);
          strings.insert(strings.begin(), {category, name});
          break;
        }
        default:
          return Fail("record type " + std::to_string(type), error);
      }
      if (!ok) return Fail(problem_, error);
      if (next_ != end_) return Fail("the strings do not fill the record exactly", error);
      records->push_back(strings);
      at_ = end_;
    }
    return true;
  }

 private:
  bool Fail(const std::string& why, std::string* error) {
    *error = "record at word " + std::to_string(at_) + ": " + why;
    return false;
  }
  bool Bytes(size_t length, std::string* text) {
    const size_t words = (length + 7) / 8;
    if (next_ + words > end_) {
      problem_ = "an inline string runs past its record";
      return false;
    }
    text->assign(reinterpret_cast<const char*>(&words_[next_]), length);
    next_ += words;
    return true;
  }
  bool Ref(uint64_t ref, std::string* text) {
    if (ref & 0x8000) return Bytes(ref & 0x7fff, text);
    if (ref == 0) {
      text->clear();
      return true;
    }
    auto found = table_.find(static_cast<uint16_t>(ref));
    if (found == table_.end()) {
      problem_ = "string index " + std::to_string(ref) + " is not in the string table";
      return false;
    }
    *text = found->second;
    return true;
  }
  // String (6) and koid (8) arguments: [4..15] size, [16..31] name ref, [32..47] value ref.
  bool Arguments(size_t count, std::vector<std::string>* strings) {
    for (size_t i = 0; i < count; ++i) {
      if (next_ >= end_) {
        problem_ = "an argument runs past its record";
        return false;
      }
      const uint64_t arg = words_[next_];
      const size_t arg_end = next_ + ((arg >> 4) & 0xfff);
      ++next_;
      std::string name, value;
      if (!Ref((arg >> 16) & 0xffff, &name)) return false;
      if ((arg & 15) == 6) {
        if (!Ref((arg >> 32) & 0xffff, &value)) return false;
      } else if ((arg & 15) == 8) {
        value = "koid " + std::to_string(words_[next_++]);
      } else {
        problem_ = "argument type " + std::to_string(arg & 15);
        return false;
      }
      if (next_ != arg_end) {
        problem_ = "argument " + name + " does not fill its size";
        return false;
      }
      strings->push_back(name);
      strings->push_back(value);
    }
    return true;
  }

  const std::vector<uint64_t>& words_;
  std::map<uint16_t, std::string> table_;
  size_t at_ = 0, next_ = 0, end_ = 0;
  std::string problem_;
};

using Records = std::vector<std::vector<std::string>>;

TEST(FxtStrings, EveryInlineAndIndexedStringDecodesToWhatWasWritten) {
  fxt::Writer writer;
  writer.Magic();
  writer.Initialization(1000000000);
  writer.String(1, "sample");
  writer.String(2, "");  // an empty string in the table
  writer.ProcessName(100, "myproc");
  writer.ThreadName(100, 101, "main thread");
  writer.InstantEvent(5, 100, 101, fxt::StringRef::Indexed(1), fxt::StringRef::Inline("hot"),
                      {{fxt::StringRef::Inline("stack"), fxt::StringRef::Inline("hot;main;_start")},
                       {fxt::StringRef::Inline("pcs"), fxt::StringRef::Indexed(1)},
                       {fxt::StringRef::Inline("eight by"), fxt::StringRef::Inline("exactly8")},
                       {fxt::StringRef::Inline("empty"), fxt::StringRef::Inline("")}});
  const uint64_t pcs[2] = {1, 2};
  writer.Sample(6, 100, 101, pcs, 2);
  writer.InstantEvent(7, 100, 101, fxt::StringRef::Inline("cat"), fxt::StringRef::Indexed(1), {});

  Records records;
  std::string error;
  ASSERT_TRUE(StringDecoder(writer.words()).Decode(&records, &error)) << error;
  const Records expected = {
      {},
      {},
      {"sample"},
      {""},
      {"myproc"},
      {"main thread", "process", "koid 100"},
      {"sample", "hot", "stack", "hot;main;_start", "pcs", "sample", "eight by", "exactly8",
       "empty", ""},
      {},
      {"cat", "sample"},
  };
  EXPECT_EQ(records, expected);
}

TEST(FxtStrings, LongNamesAreCutButStayInlineAndWhole) {
  fxt::Writer writer;
  writer.ProcessName(1, std::string(3000, 'p'));
  writer.InstantEvent(2, 1, 1, fxt::StringRef::Inline("c"), fxt::StringRef::Inline("n"),
                      {{fxt::StringRef::Inline(std::string(200, 'k')),
                        fxt::StringRef::Inline(std::string(100000, 'v'))}});
  Records records;
  std::string error;
  ASSERT_TRUE(StringDecoder(writer.words()).Decode(&records, &error)) << error;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], std::vector<std::string>{std::string(1024, 'p')});
  ASSERT_EQ(records[1].size(), 4u);
  EXPECT_EQ(records[1][2], std::string(63, 'k'));
  EXPECT_GT(records[1][3].size(), 30000u);
  EXPECT_EQ(records[1][3], std::string(records[1][3].size(), 'v'));
}

}  // namespace
