// SPDX-License-Identifier: MIT
// The buffer format, byte by byte: a real trace's buffers are walked by hand at the offsets
// the format fixes, and must agree with perfmon_reader; then the reader's refusals.
#include <gtest/gtest.h>

#include "perfmon_test_helpers.h"

namespace perfmon_test {
namespace {

template <typename T>
T At(const std::vector<uint8_t> &bytes, size_t offset) {
  T value;
  memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

TEST(Format, StructSizesAreFuchsias) {
  EXPECT_EQ(sizeof(perfmon_buffer_header_t), 24u);
  EXPECT_EQ(sizeof(perfmon_record_header_t), 4u);
  EXPECT_EQ(sizeof(perfmon_time_record_t), 12u);
  EXPECT_EQ(sizeof(perfmon_tick_record_t), 4u);
  EXPECT_EQ(sizeof(perfmon_count_record_t), 12u);
  EXPECT_EQ(sizeof(perfmon_value_record_t), 12u);
  EXPECT_EQ(sizeof(perfmon_pc_record_t), 20u);
  EXPECT_EQ(PERFMON_LAST_BRANCH_RECORD_SIZE(0), 16u);
  EXPECT_EQ(PERFMON_LAST_BRANCH_RECORD_SIZE(32), 16u + 32 * 24);
  EXPECT_EQ(sizeof(perfmon_event_config_t), 12u);
  EXPECT_EQ(sizeof(perfmon_config_t), 384u);
  EXPECT_EQ(sizeof(perfmon_allocation_t), 8u);
  EXPECT_EQ(sizeof(perfmon_properties_t), 32u);
}

TEST(Format, EveryRecordOfARealTraceByHand) {
  std::unique_ptr<Api> api = OpenApi("cpp");
  ASSERT_TRUE(api);
  perfmon_event_id_t getppid = Id(kGetppid), task = Id("linux:task-clock");
  ASSERT_EQ(api->Initialize(Allocation(16)), ZX_OK);
  // TIME, PC, VALUE, TICK and COUNT records all appear.
  ASSERT_EQ(
      api->StageConfig(Config({{getppid, 7, PERFMON_FLAG_IS_TIMEBASE | PERFMON_FLAG_COLLECT_PC},
                               {task, 0, 0},
                               {Id("linux:cpu-clock"), 0, 0}})),
      ZX_OK);
  WorkloadRun run = RunTraced(api.get(), 700);
  ASSERT_EQ(run.start, ZX_OK) << api->LastError();
  Buffers buffers = ReadBuffers(api.get());
  ASSERT_EQ(buffers.status, ZX_OK);
  size_t next_record = 0, seen[7] = {};
  for (uint32_t cpu = 0; cpu < NumCpus(); ++cpu) {
    const std::vector<uint8_t> &b = buffers.bytes[cpu];
    EXPECT_EQ(At<uint16_t>(b, 0), PERFMON_BUFFER_VERSION);
#if defined(__x86_64__)
    EXPECT_EQ(At<uint16_t>(b, 2), PERFMON_ARCH_X64);
#endif
    EXPECT_EQ(At<uint32_t>(b, 4), 0u);  // not full
    EXPECT_EQ(At<int64_t>(b, 8), 1000000000);
    uint64_t end = At<uint64_t>(b, 16);
    ASSERT_LE(end, b.size());
    size_t offset = 24;
    while (offset < end) {
      ASSERT_EQ(offset % 4, 0u);
      uint8_t type = b[offset];
      EXPECT_EQ(b[offset + 1], 0) << "reserved flags";
      uint16_t event = At<uint16_t>(b, offset + 2);
      ASSERT_LT(next_record, buffers.records.size());
      const Record &r = buffers.records[next_record++];
      EXPECT_EQ(r.offset, offset);
      EXPECT_EQ(r.type, type);
      EXPECT_EQ(r.event, event);
      EXPECT_EQ(r.cpu, cpu);
      ASSERT_LT(type, 7);
      ++seen[type];
      switch (type) {
        case PERFMON_RECORD_TIME:
          EXPECT_EQ(event, 0);
          EXPECT_EQ(r.time, At<uint64_t>(b, offset + 4));
          offset += 12;
          break;
        case PERFMON_RECORD_TICK:
          offset += 4;
          break;
        case PERFMON_RECORD_COUNT:
        case PERFMON_RECORD_VALUE:
          EXPECT_EQ(r.value, At<uint64_t>(b, offset + 4));
          offset += 12;
          break;
        case PERFMON_RECORD_PC:
          EXPECT_EQ(event, getppid);
          EXPECT_EQ(r.aspace, At<uint64_t>(b, offset + 4));
          EXPECT_EQ(r.aspace, static_cast<uint64_t>(run.pid));
          EXPECT_EQ(r.value, At<uint64_t>(b, offset + 12));
          offset += 20;
          break;
        default:
          FAIL() << "unexpected record type " << int(type) << " at " << offset;
      }
    }
    EXPECT_EQ(offset, end);
  }
  EXPECT_EQ(next_record, buffers.records.size());
  EXPECT_EQ(seen[PERFMON_RECORD_PC], 100u);
  EXPECT_EQ(seen[PERFMON_RECORD_VALUE], 200u);  // two followers, read at every timebase record
  EXPECT_EQ(seen[PERFMON_RECORD_TIME], 100u + NumCpus());
  EXPECT_EQ(seen[PERFMON_RECORD_COUNT], 3 * NumCpus());
}

std::vector<uint8_t> Buffer(std::initializer_list<std::vector<uint8_t>> records) {
  std::vector<uint8_t> b(24, 0);
  for (const auto &r : records) b.insert(b.end(), r.begin(), r.end());
  uint64_t end = b.size();
  memcpy(&b[16], &end, 8);
  return b;
}

TEST(Reader, RefusesWhatIsNotWhole) {
  perfmon_reader_t reader;
  perfmon_record_t record;
  std::vector<uint8_t> good = Buffer({{1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 5, 0}});
  ASSERT_EQ(perfmon_reader_init(&reader, good.data(), good.size()), ZX_OK);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_OK);
  EXPECT_EQ(record.type, PERFMON_RECORD_TIME);
  EXPECT_EQ(record.time, 1u);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_OK);
  EXPECT_EQ(record.type, PERFMON_RECORD_TICK);
  EXPECT_EQ(record.event, 5);
  EXPECT_EQ(record.time, 1u);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_NOT_FOUND);

  std::vector<uint8_t> short_buffer(20, 0);
  EXPECT_EQ(perfmon_reader_init(&reader, short_buffer.data(), short_buffer.size()),
            ZX_ERR_INVALID_ARGS);
  std::vector<uint8_t> bad_version = good;
  bad_version[0] = 1;
  EXPECT_EQ(perfmon_reader_init(&reader, bad_version.data(), bad_version.size()),
            ZX_ERR_INVALID_ARGS);
  std::vector<uint8_t> past_end = good;
  past_end[16] = 200;
  EXPECT_EQ(perfmon_reader_init(&reader, past_end.data(), past_end.size()), ZX_ERR_INVALID_ARGS);
  std::vector<uint8_t> below_header = good;
  below_header[16] = 8;
  EXPECT_EQ(perfmon_reader_init(&reader, below_header.data(), below_header.size()),
            ZX_ERR_INVALID_ARGS);

  std::vector<uint8_t> unknown = Buffer({{9, 0, 0, 0}});
  ASSERT_EQ(perfmon_reader_init(&reader, unknown.data(), unknown.size()), ZX_OK);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_IO);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_IO);  // it stays stopped

  std::vector<uint8_t> torn = Buffer({{3, 0, 1, 0, 1, 2, 3}});  // a COUNT cut short
  ASSERT_EQ(perfmon_reader_init(&reader, torn.data(), torn.size()), ZX_OK);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_IO);

  std::vector<uint8_t> many = Buffer({{6, 0, 1, 0, 33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}});
  ASSERT_EQ(perfmon_reader_init(&reader, many.data(), many.size()), ZX_OK);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_IO);  // more than 32 branches

  std::vector<uint8_t> branches =
      Buffer({{6, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
               0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0}});
  ASSERT_EQ(perfmon_reader_init(&reader, branches.data(), branches.size()), ZX_OK);
  ASSERT_EQ(perfmon_reader_next(&reader, &record), ZX_OK);
  EXPECT_EQ(record.aspace, 7u);
  ASSERT_NE(record.last_branch, nullptr);
  perfmon_last_branch_t branch;
  memcpy(&branch, &record.last_branch->branches[0], sizeof branch);
  EXPECT_EQ(branch.from, 1u);
  EXPECT_EQ(branch.to, 2u);
  EXPECT_EQ(branch.info, 3u | PERFMON_LAST_BRANCH_MISPRED);
  EXPECT_EQ(perfmon_reader_next(&reader, &record), ZX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace perfmon_test
