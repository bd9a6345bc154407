// SPDX-License-Identifier: MIT
// FXT records: the sampler's sample record field by field, the region walker's checks, and a
// trace whose record-size chain walks exactly to its end.
#include "fuchsia_common/fxt.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace fxt = fuchsia_common::fxt;

namespace {

TEST(Fxt, ASampleRecordIsALargeBlobWithMetadataAndInlineThread) {
  const uint64_t pcs[3] = {0x1111, 0x2222, 0x3333};
  std::vector<uint64_t> words(fxt::SampleRecordWords(3));
  fxt::EncodeSample(words.data(), 123456, 10, 11, pcs, 3);
  ASSERT_EQ(words.size(), 9u);
  EXPECT_EQ(words[0] & 15, 15u);                // large record
  EXPECT_EQ((words[0] >> 4) & 0xffffffff, 9u);  // size in words
  EXPECT_EQ((words[0] >> 36) & 15, 0u);         // blob
  EXPECT_EQ((words[0] >> 40) & 15, 0u);         // format 0, with metadata
  EXPECT_EQ(words[1], 0u);                      // empty category/name, inline thread
  EXPECT_EQ(words[2], 123456u);
  EXPECT_EQ(words[3], 10u);
  EXPECT_EQ(words[4], 11u);
  EXPECT_EQ(words[5], 24u);
  EXPECT_EQ(words[6], 0x1111u);
  EXPECT_EQ(words[8], 0x3333u);
}

TEST(Fxt, TheRegionWalkerStopsAtTheZeroWordAndChecksEveryRecord) {
  std::vector<uint64_t> region(64, 0);
  const uint64_t pcs[2] = {0xa, 0xb};
  fxt::EncodeSample(&region[0], 1, 2, 3, pcs, 2);
  fxt::EncodeSample(&region[8], 4, 5, 6, pcs, 1);
  int seen = 0;
  size_t used = 0;
  std::string error;
  ASSERT_TRUE(fxt::WalkSampleRegion(
      region.data(), region.size() * 8,
      [&](const fxt::Sample& s) {
        ++seen;
        EXPECT_EQ(s.pcs[0], 0xau);
        EXPECT_EQ(s.frame_count, seen == 1 ? 2u : 1u);
      },
      &used, &error))
      << error;
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(used, 15u * 8);

  region[8 + 5] = 16;  // blob size no longer 8 x the PC count
  EXPECT_FALSE(fxt::WalkSampleRegion(
      region.data(), region.size() * 8, [](const fxt::Sample&) {}, &used, &error));
  EXPECT_NE(error.find("byte 64"), std::string::npos) << error;

  std::vector<uint64_t> short_region(region.begin(), region.begin() + 10);
  EXPECT_FALSE(fxt::WalkSampleRegion(
      short_region.data(), short_region.size() * 8, [](const fxt::Sample&) {}, &used, &error));
}

// Walks a trace by each record's size field; false if it does not land exactly on the end.
bool SizeChainWalks(const std::vector<uint64_t>& words, std::vector<int>* types) {
  size_t at = 0;
  while (at < words.size()) {
    uint64_t header = words[at];
    int type = static_cast<int>(header & 15);
    size_t size = type == 15 ? (header >> 4) & 0xffffffff : (header >> 4) & 0xfff;
    if (size == 0) return false;
    types->push_back(type);
    at += size;
  }
  return at == words.size();
}

TEST(Fxt, ATraceStartsWithTheMagicRecordAndItsSizesChainToTheEnd) {
  fxt::Writer writer;
  writer.Magic();
  writer.Initialization(1000000000);
  writer.String(1, "sample");
  writer.ProcessName(100, "myproc");
  writer.ThreadName(100, 101, "main thread");
  writer.InstantEvent(5, 100, 101, fxt::StringRef::Indexed(1), fxt::StringRef::Inline("hot"),
                      {{fxt::StringRef::Inline("stack"), fxt::StringRef::Inline("hot;main;_start")},
                       {fxt::StringRef::Inline("pcs"), fxt::StringRef::Indexed(1)}});
  const uint64_t pcs[2] = {1, 2};
  writer.Sample(6, 100, 101, pcs, 2);
  // A very long argument is cut so the record stays under 4095 words.
  writer.InstantEvent(
      7, 100, 101, fxt::StringRef::Indexed(1), fxt::StringRef::Inline("big"),
      {{fxt::StringRef::Inline("stack"), fxt::StringRef::Inline(std::string(100000, 'x'))}});
  const auto& words = writer.words();
  EXPECT_EQ(words[0], 0x0016547846040010ull);
  unsigned char first[8];
  std::memcpy(first, words.data(), 8);
  EXPECT_EQ(first[0], 0x10);
  EXPECT_EQ(first[3], 0x46);
  std::vector<int> types;
  ASSERT_TRUE(SizeChainWalks(words, &types));
  EXPECT_EQ(types, (std::vector<int>{0, 1, 2, 7, 7, 4, 15, 4}));
  // The thread record names the thread and links it to its process with a koid argument.
  size_t thread_at = 1 + 2 + 2 + 3;
  EXPECT_EQ((words[thread_at] >> 16) & 0xff, 2u);
  EXPECT_EQ(words[thread_at + 1], 101u);
  EXPECT_EQ((words[thread_at] >> 40) & 15, 1u);
  size_t last = words.size();
  size_t big_at = 0;
  for (size_t at = 0; at < last;) {
    size_t size = (words[at] & 15) == 15 ? (words[at] >> 4) & 0xffffffff : (words[at] >> 4) & 0xfff;
    big_at = at;
    at += size;
  }
  EXPECT_LE((words[big_at] >> 4) & 0xfff, fxt::kMaxRecordWords);
  EXPECT_GT((words[big_at] >> 4) & 0xfff, 3000u);
}

}  // namespace
