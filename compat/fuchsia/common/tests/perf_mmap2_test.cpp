// SPDX-License-Identifier: MIT
// The one PERF_RECORD_MMAP2 reader (perf_mmap2.h): the file name stops before the sample id
// tail, for the tails of both its users' events (perfmon's sampling events, the sampler's).
#include "fuchsia_common/perf_mmap2.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <vector>

namespace fuchsia_common {
namespace {

// perfmon's kBaseSampleType (compat/fuchsia/perfmon/src/sample_converter.h) and the sampler's
// kSessionSampleType (compat/fuchsia/sampler/src/session.cpp).
constexpr uint64_t kPerfmonSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
constexpr uint64_t kSamplerSampleType =
    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;

// A record as the kernel writes it, with `name` filling its padded room (no NUL when its
// length is a multiple of 8), then a tail of `tail` bytes that are no NUL either.
std::vector<uint8_t> Record(const std::string &name, size_t tail) {
  struct {
    uint32_t pid, tid;
    uint64_t addr, len, pgoff;
    uint32_t maj, min;
    uint64_t ino, ino_generation;
    uint32_t prot, flags;
  } fixed = {41, 42, 0x400000, 0x1000, 0x2000, 8, 1, 77, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE};
  const size_t room = (name.size() + 7) / 8 * 8;
  perf_event_header header{PERF_RECORD_MMAP2, 0,
                           static_cast<uint16_t>(sizeof header + sizeof fixed + room + tail)};
  std::vector<uint8_t> record(header.size, 0);
  memcpy(record.data(), &header, sizeof header);
  memcpy(record.data() + sizeof header, &fixed, sizeof fixed);
  memcpy(record.data() + sizeof header + sizeof fixed, name.data(), name.size());
  memset(record.data() + header.size - tail, 'X', tail);
  return record;
}

TEST(PerfMmap2, TheSampleIdTailsOfBothUsers) {
  EXPECT_EQ(SampleIdBytes(kPerfmonSampleType), 24u);  // {pid, tid}, time, identifier
  EXPECT_EQ(SampleIdBytes(kSamplerSampleType), 32u);  // {pid, tid}, time, id, {cpu, reserved}
  EXPECT_EQ(SampleIdBytes(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN), 0u);
}

TEST(PerfMmap2, TheNameStopsBeforeTheSampleIdTail) {
  for (uint64_t type : {kPerfmonSampleType, kSamplerSampleType}) {
    const size_t tail = SampleIdBytes(type);
    SCOPED_TRACE(tail);
    for (const std::string name : {"/lib/abc", "/usr/lib/libfoo.so.1", "/bin/x"}) {
      const std::vector<uint8_t> record = Record(name, tail);
      perf_event_header header;
      memcpy(&header, record.data(), sizeof header);
      Mmap2Record mmap2;
      ASSERT_TRUE(ReadMmap2(header, record.data(), tail, &mmap2));
      EXPECT_EQ(mmap2.name, name);
      EXPECT_EQ(mmap2.pid, 41u);
      EXPECT_EQ(mmap2.tid, 42u);
      EXPECT_EQ(mmap2.addr, 0x400000u);
      EXPECT_EQ(mmap2.len, 0x1000u);
      EXPECT_EQ(mmap2.pgoff, 0x2000u);
      EXPECT_TRUE(mmap2.prot & PROT_EXEC);
    }
  }
}

TEST(PerfMmap2, ARecordTooShortForItsTailIsRefused) {
  const std::vector<uint8_t> record = Record("/lib/abc", 24);
  perf_event_header header;
  memcpy(&header, record.data(), sizeof header);
  header.size = static_cast<uint16_t>(header.size - 8 - 24);  // the name's room only
  Mmap2Record mmap2;
  EXPECT_FALSE(ReadMmap2(header, record.data(), 32, &mmap2));
}

}  // namespace
}  // namespace fuchsia_common
