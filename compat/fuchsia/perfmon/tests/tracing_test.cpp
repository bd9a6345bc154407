// SPDX-License-Identifier: MIT
// Traces with exact answers: a command limited trace (our extension) of a program that makes a
// known number of getppid calls, so that every record can be counted and placed.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "perfmon_test_helpers.h"

namespace perfmon_test {
namespace {

class Tracing : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    api_ = OpenApi(GetParam());
    ASSERT_TRUE(api_);
    getppid_ = Id(kGetppid);
    ASSERT_NE(getppid_, 0) << "tracefs must be readable (root)";
  }
  // The workload makes `calls` getppid calls under the staged trace; then its buffers are read.
  void TraceCalls(long calls, Buffers *buffers) {
    const WorkloadRun run = RunTraced(api_.get(), calls);
    ASSERT_EQ(run.start, ZX_OK) << api_->LastError();
    ASSERT_EQ(run.exit_status, 0);
    *buffers = ReadBuffers(api_.get());
    ASSERT_EQ(buffers->status, ZX_OK);  // every record up to capture_end is whole
  }
  std::unique_ptr<Api> api_;
  perfmon_event_id_t getppid_ = 0;
};

TEST_P(Tracing, RateOneGivesOnePcRecordPerCallAtTheCallSite) {
  ASSERT_EQ(api_->Initialize(Allocation(64)), ZX_OK);
  ASSERT_EQ(api_->StageConfig(
                Config({{getppid_, 1, PERFMON_FLAG_COLLECT_USER | PERFMON_FLAG_COLLECT_PC}})),
            ZX_OK);
  WorkloadRun run = RunTraced(api_.get(), 1000);
  ASSERT_EQ(run.start, ZX_OK) << api_->LastError();
  ASSERT_EQ(run.exit_status, 0);
  Buffers buffers = ReadBuffers(api_.get());
  ASSERT_EQ(buffers.status, ZX_OK);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_PC, getppid_), 1000u);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_TICK, getppid_), 0u);
  // Each sample is TIME then PC; each buffer ends with TIME and a COUNT of what is left (0).
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_COUNT, getppid_), NumCpus());
  EXPECT_EQ(buffers.SumOf(PERFMON_RECORD_COUNT, getppid_), 0u);
  uint64_t last_time = 0;
  uint32_t last_cpu = 0;
  for (const Record &r : buffers.records) {
    if (r.cpu != last_cpu) last_time = 0;
    last_cpu = r.cpu;
    EXPECT_GE(r.time, last_time);
    last_time = r.time;
    if (r.type != PERFMON_RECORD_PC) continue;
    EXPECT_EQ(r.aspace, static_cast<uint64_t>(run.pid));
#if defined(__x86_64__)
    EXPECT_EQ(r.value, run.pc) << "the PC after the program's syscall instruction";
#endif
  }
  for (size_t cpu = 0; cpu < NumCpus(); ++cpu) {
    EXPECT_EQ(buffers.Header(cpu).flags & PERFMON_BUFFER_FLAG_FULL, 0u);
  }
}

TEST_P(Tracing, PcCollectionRecordsTheTargetsExecutableMappings) {
  std::vector<perfmon_mapping_t> mappings;
  EXPECT_EQ(api_->GetMappings(&mappings), ZX_ERR_BAD_STATE);
  ASSERT_EQ(api_->Initialize(Allocation(4)), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 100, PERFMON_FLAG_COLLECT_PC}})), ZX_OK);
  WorkloadRun run = RunTraced(api_.get(), 1000);
  ASSERT_EQ(run.start, ZX_OK) << api_->LastError();
  ASSERT_EQ(api_->GetMappings(&mappings), ZX_OK);
  // The program's own text, mapped at exec: it holds every PC the trace recorded.
  bool found = false;
  for (const perfmon_mapping_t &m : mappings) {
    EXPECT_LT(m.start, m.end);
    if (m.pid == run.pid && strstr(m.path, "perfmon_getppid_calls") && m.start <= run.pc &&
        run.pc < m.end) {
      found = true;
    }
  }
#if defined(__x86_64__)
  EXPECT_TRUE(found) << mappings.size() << " mappings";
#endif
  // Without PC collection none are recorded.
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 100, 0}})), ZX_OK);
  ASSERT_EQ(RunTraced(api_.get(), 10).start, ZX_OK);
  ASSERT_EQ(api_->GetMappings(&mappings), ZX_OK);
  EXPECT_TRUE(mappings.empty());
}

TEST_P(Tracing, RateHundredGivesOneTickPerHundredCalls) {
  ASSERT_EQ(api_->Initialize(Allocation(8)), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 100, PERFMON_FLAG_COLLECT_USER}})), ZX_OK);
  Buffers buffers;
  ASSERT_NO_FATAL_FAILURE(TraceCalls(1000, &buffers));
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_TICK, getppid_), 10u);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_PC, getppid_), 0u);
  EXPECT_EQ(buffers.SumOf(PERFMON_RECORD_COUNT, getppid_), 0u);
}

TEST_P(Tracing, RateZeroGivesOneCountPerCpuSummingToTheCalls) {
  ASSERT_EQ(api_->Initialize(Allocation(1)), ZX_OK);
  perfmon_event_id_t task = Id("linux:task-clock");
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 0, 0}, {task, 0, 0}})), ZX_OK);
  Buffers buffers;
  ASSERT_NO_FATAL_FAILURE(TraceCalls(1234, &buffers));
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_COUNT, getppid_), NumCpus());
  EXPECT_EQ(buffers.SumOf(PERFMON_RECORD_COUNT, getppid_), 1234u);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_COUNT, task), NumCpus());
  EXPECT_GT(buffers.SumOf(PERFMON_RECORD_COUNT, task), 0u);
  // Tally mode: per buffer exactly TIME then the COUNTs.
  EXPECT_EQ(buffers.records.size(), NumCpus() * 3u);
}

TEST_P(Tracing, ATracepointTimebaseReadsItsFollowerEachTime) {
  ASSERT_EQ(api_->Initialize(Allocation(16)), ZX_OK);
  perfmon_event_id_t task = Id("linux:task-clock");
  ASSERT_EQ(api_->StageConfig(Config({{task, 0, 0}, {getppid_, 10, PERFMON_FLAG_IS_TIMEBASE}})),
            ZX_OK);
  Buffers buffers;
  ASSERT_NO_FATAL_FAILURE(TraceCalls(1000, &buffers));
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_TICK, getppid_), 100u);
  EXPECT_EQ(buffers.CountOf(PERFMON_RECORD_VALUE, task), 100u);
  // Each VALUE follows its timebase's TICK, and readings only grow on one CPU.
  uint64_t last = 0;
  uint32_t cpu = 0;
  for (size_t i = 0; i < buffers.records.size(); ++i) {
    const Record &r = buffers.records[i];
    if (r.cpu != cpu) last = 0;
    cpu = r.cpu;
    if (r.type != PERFMON_RECORD_VALUE) continue;
    ASSERT_GT(i, 0u);
    EXPECT_EQ(buffers.records[i - 1].type, PERFMON_RECORD_TICK);
    EXPECT_EQ(r.event, task);
    EXPECT_GE(r.value, last);
    last = r.value;
  }
}

TEST_P(Tracing, AOnePageBufferFillsWithoutTearingARecord) {
  ASSERT_EQ(api_->Initialize(Allocation(1)), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 1, PERFMON_FLAG_COLLECT_PC}})), ZX_OK);
  Buffers buffers;
  ASSERT_NO_FATAL_FAILURE(TraceCalls(1000, &buffers));
  size_t pcs = buffers.CountOf(PERFMON_RECORD_PC, getppid_);
  EXPECT_GT(pcs, 0u);
  EXPECT_LT(pcs, 1000u);
  bool some_full = false;
  for (size_t cpu = 0; cpu < NumCpus(); ++cpu) {
    const perfmon_buffer_header_t &header = buffers.Header(cpu);
    EXPECT_LE(header.capture_end, 4096u);
    EXPECT_EQ(header.capture_end % 4, 0u);
    if (header.flags & PERFMON_BUFFER_FLAG_FULL) {
      some_full = true;
      // A whole sample (TIME + PC = 32 bytes) no longer fitted.
      EXPECT_GT(header.capture_end + 32, 4096u);
    }
    // Nothing after capture_end: never written.
    for (size_t at = header.capture_end; at < 4096; ++at) {
      ASSERT_EQ(buffers.bytes[cpu][at], 0) << "cpu " << cpu << " offset " << at;
    }
  }
  EXPECT_TRUE(some_full);
}

TEST_P(Tracing, AFullBufferDoesNotLeaveStaleBytesForTheNextRun) {
  ASSERT_EQ(api_->Initialize(Allocation(1)), ZX_OK);
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 1, PERFMON_FLAG_COLLECT_PC}})), ZX_OK);
  ASSERT_EQ(RunTraced(api_.get(), 500).start, ZX_OK);
  ASSERT_EQ(api_->StageConfig(Config({{getppid_, 0, 0}})), ZX_OK);
  ASSERT_EQ(RunTraced(api_.get(), 5).start, ZX_OK);
  Buffers buffers = ReadBuffers(api_.get());
  ASSERT_EQ(buffers.status, ZX_OK);
  EXPECT_EQ(buffers.SumOf(PERFMON_RECORD_COUNT, getppid_), 5u);
  for (size_t cpu = 0; cpu < NumCpus(); ++cpu) {
    EXPECT_EQ(buffers.Header(cpu).flags, 0u);
    for (size_t at = buffers.Header(cpu).capture_end; at < 4096; ++at) {
      ASSERT_EQ(buffers.bytes[cpu][at], 0) << "cpu " << cpu << " offset " << at;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, Tracing, ::testing::Values("cpp", "c"));

}  // namespace
}  // namespace perfmon_test

namespace perfmon_test {
namespace {

double CpuSeconds() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

TEST(TracingAfterTheTarget, ATraceOutlivingItsTargetDoesNotSpin) {
  std::unique_ptr<Api> api = OpenApi("cpp");
  ASSERT_TRUE(api);
  ASSERT_EQ(api->Initialize(Allocation(4)), ZX_OK);
  ASSERT_EQ(api->StageConfig(Config({{Id(kGetppid), 10, 0}})), ZX_OK);
  int hold[2];
  ASSERT_EQ(pipe(hold), 0);
  pid_t child = fork();
  if (child == 0) {
    close(hold[1]);
    char byte;
    (void)!read(hold[0], &byte, 1);  // until the parent closes its end
    _exit(0);
  }
  close(hold[0]);
  ASSERT_EQ(api->SetTarget({child, 0}), ZX_OK);
  zx_status_t started = api->Start();
  close(hold[1]);
  waitpid(child, nullptr, 0);  // its events hang up (POLLHUP) from now on
  ASSERT_EQ(started, ZX_OK) << api->LastError();
  double before = CpuSeconds();
  usleep(500000);
  double used = CpuSeconds() - before;
  api->Stop();
  // The drain thread waits in poll(2), waking every 100 ms: well under a millisecond of CPU.
  // A thread spinning on the hung-up rings used all it could get of the half second (70 ms on
  // a machine loaded with two compilers).
  EXPECT_LT(used, 0.02);
}

}  // namespace
}  // namespace perfmon_test
