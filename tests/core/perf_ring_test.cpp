// SPDX-License-Identifier: MIT
// The ring reader (core/perf_ring.h) on a ring the test writes as the kernel would, served by
// the fake kernel: records in order and the tail given back, a record wrapping the ring's end
// handed over whole, one ending exactly at the head or at the ring's end, corrupt records
// (torn, too short, a head too far, fewer bytes than a header) skipped and counted rather than
// read past or stalled on, and the mapping's faults (ENOMEM, EPERM: smaller rings first;
// anything else at once).
#include <errno.h>
#include <gtest/gtest.h>
#include <string.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "core/perf_ring.h"
#include "support/fake_kernel.h"

using namespace pmapi_test;

namespace {

struct Seen {
  uint32_t type;
  uint16_t size;
  std::vector<uint8_t> bytes;
  const uint8_t *at;
};

// A ring of kMinRingPages data pages in test memory, served by the fake kernel.
class RingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_ = (1 + pmapi::kMinRingPages) * page_;
    ASSERT_EQ(posix_memalign(&memory_, page_, size_), 0);
    memset(memory_, 0, size_);
    kernel_.ServeRing(memory_, size_);
    ASSERT_EQ(ring_.Map(-1, pmapi::kMinRingPages), 0);
    data_size_ = pmapi::kMinRingPages * page_;
  }
  void TearDown() override {
    ring_.Unmap();
    free(memory_);
  }

  perf_event_mmap_page *meta() { return static_cast<perf_event_mmap_page *>(memory_); }
  uint8_t *data() { return static_cast<uint8_t *>(memory_) + page_; }

  // Writes a record of `size` bytes at the head, as the kernel would (wrapping), its body
  // bytes counting up from `seed`, and publishes the new head.
  void Write(uint32_t type, uint16_t size, uint8_t seed, bool publish = true) {
    std::vector<uint8_t> bytes(size);
    perf_event_header header{type, 0, size};
    memcpy(bytes.data(), &header, sizeof header);
    for (size_t i = sizeof header; i < size; ++i) bytes[i] = static_cast<uint8_t>(seed + i);
    uint64_t head = meta()->data_head;
    for (size_t i = 0; i < size; ++i) data()[(head + i) % data_size_] = bytes[i];
    if (publish) meta()->data_head = head + size;
  }
  void MoveTo(uint64_t position) { meta()->data_head = meta()->data_tail = position; }

  std::vector<Seen> Drain() {
    std::vector<Seen> seen;
    ring_.Drain([&](const perf_event_header &header, const uint8_t *record) {
      seen.push_back(Seen{header.type, header.size,
                          std::vector<uint8_t>(record, record + header.size), record});
    });
    return seen;
  }
  bool InRing(const uint8_t *p) { return p >= data() && p < data() + data_size_; }

  InstalledKernel kernel_;
  pmapi::PerfRing ring_;
  void *memory_ = nullptr;
  size_t page_ = 0, size_ = 0, data_size_ = 0;
};

TEST_F(RingTest, HandsEveryPublishedRecordInOrderAndGivesTheSpaceBack) {
  Write(PERF_RECORD_SAMPLE, 32, 1);
  Write(PERF_RECORD_LOST, 24, 2);
  Write(PERF_RECORD_SAMPLE, 40, 3);
  std::vector<Seen> seen = Drain();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].type, static_cast<uint32_t>(PERF_RECORD_SAMPLE));
  EXPECT_EQ(seen[1].type, static_cast<uint32_t>(PERF_RECORD_LOST));
  EXPECT_EQ(seen[2].size, 40);
  EXPECT_EQ(seen[2].bytes[8], 3 + 8);
  EXPECT_EQ(meta()->data_tail, 96u);
  EXPECT_TRUE(Drain().empty());  // nothing twice
  EXPECT_EQ(ring_.discarded_bytes(), 0u);
}

TEST_F(RingTest, ARecordWrappingTheEndIsHandedWhole) {
  MoveTo(3 * data_size_ - 16);  // positions grow without bound; the ring wraps them
  Write(PERF_RECORD_SAMPLE, 48, 7);
  std::vector<Seen> seen = Drain();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(InRing(seen[0].at)) << "a wrapped record must be copied whole";
  for (size_t i = 8; i < 48; ++i) ASSERT_EQ(seen[0].bytes[i], static_cast<uint8_t>(7 + i)) << i;
  EXPECT_EQ(meta()->data_tail, 3 * data_size_ + 32);
}

TEST_F(RingTest, RecordsEndingExactlyAtTheHeadAndAtTheRingsEndAreRead) {
  MoveTo(data_size_ - 64);
  Write(PERF_RECORD_SAMPLE, 64, 5);  // ends exactly at the ring's end, and at the head
  std::vector<Seen> seen = Drain();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(InRing(seen[0].at)) << "a record that fits is read in place";
  EXPECT_EQ(seen[0].bytes[63], static_cast<uint8_t>(5 + 63));
  Write(PERF_RECORD_SAMPLE, 16, 6);  // from the ring's start
  seen = Drain();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].at, data());
  EXPECT_EQ(meta()->data_tail, data_size_ + 16);
}

TEST_F(RingTest, ATornRecordIsSkippedNotReadPastNorWaitedOnForever) {
  Write(PERF_RECORD_SAMPLE, 32, 1);
  Write(PERF_RECORD_SAMPLE, 64, 2, /*publish=*/false);
  meta()->data_head += 24;  // published up to the middle of the second record
  std::vector<Seen> seen = Drain();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(ring_.discarded_bytes(), 24u);
  EXPECT_EQ(meta()->data_tail, meta()->data_head);
  Write(PERF_RECORD_SAMPLE, 16, 3);  // the ring goes on
  EXPECT_EQ(Drain().size(), 1u);
}

TEST_F(RingTest, ARecordShorterThanItsHeaderOrAHeadTooFarIsSkipped) {
  Write(PERF_RECORD_SAMPLE, 32, 1);
  perf_event_header zero{PERF_RECORD_SAMPLE, 0, 0};  // would loop forever if trusted
  memcpy(data() + 32, &zero, sizeof zero);
  meta()->data_head = 64;
  EXPECT_EQ(Drain().size(), 1u);
  EXPECT_EQ(ring_.discarded_bytes(), 32u);
  meta()->data_head = meta()->data_tail + data_size_ + 8;  // more than the ring holds
  EXPECT_TRUE(Drain().empty());
  EXPECT_EQ(ring_.discarded_bytes(), 32u + data_size_ + 8);
  EXPECT_EQ(meta()->data_tail, meta()->data_head);
}

TEST_F(RingTest, OneToSevenBytesPublishedAfterTheLastWholeRecordAreCountedAsDiscarded) {
  uint64_t discarded = 0;
  for (uint16_t extra = 1; extra < sizeof(perf_event_header); ++extra) {
    Write(PERF_RECORD_SAMPLE, 32, 1);
    meta()->data_head += extra;  // less than a header: no record can start there
    EXPECT_EQ(Drain().size(), 1u) << extra;
    discarded += extra;
    EXPECT_EQ(ring_.discarded_bytes(), discarded) << extra;
    EXPECT_EQ(meta()->data_tail, meta()->data_head) << extra;
  }
}

// Past the locked-memory limit the kernel says EPERM or ENOMEM: smaller rings are tried down to
// kMinRingPages, and the last error is the answer. Any other error is the answer at once.
TEST(RingMapTest, LockedMemoryFaultsTrySmallerRingsThenFail) {
  for (int err : {ENOMEM, EPERM}) {
    InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kMapRing, err);
    pmapi::PerfRing ring;
    EXPECT_EQ(ring.Map(-1, 64), -err);
    EXPECT_EQ(kernel.Calls(FakeKernel::Op::kMapRing), 4) << "64, 32, 16, 8 pages";
    EXPECT_FALSE(ring.mapped());
  }
  InstalledKernel kernel;
  kernel.FailWith(FakeKernel::Op::kMapRing, EINVAL);
  pmapi::PerfRing ring;
  EXPECT_EQ(ring.Map(-1, 64), -EINVAL);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kMapRing), 1);
}

TEST(RingMapTest, SettlesForTheLargestRingTheLimitAllows) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t size = (1 + 16) * page;
  void *memory = nullptr;
  ASSERT_EQ(posix_memalign(&memory, page, size), 0);
  memset(memory, 0, size);
  InstalledKernel kernel;
  kernel.ServeRing(memory, size);  // a larger request is ENOMEM
  pmapi::PerfRing ring;
  ASSERT_EQ(ring.Map(-1, 128), 0);
  EXPECT_EQ(ring.data_size(), 16 * page);
  EXPECT_EQ(kernel.Calls(FakeKernel::Op::kMapRing), 4) << "128, 64, 32, 16 pages";
  ring.Unmap();
  free(memory);
}

}  // namespace
