// SPDX-License-Identifier: MIT
// The sampling session (core/sampling_session.h) on the real kernel: one ring per CPU, a thread
// sampled on every one of them through PERF_EVENT_IOC_SET_OUTPUT, exactly one sample per
// getppid call (the tracepoint with sample_period 1); its faults through the seam; and fork:
// a child holds none of the session, and nothing it does reaches the parent's sampling.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>

#include "base/kernel.h"
#include "core/sampling_session.h"
#include "support/counting.h"
#include "support/fake_kernel.h"
#include "support/perf_attr.h"

using namespace pmapi_test;

namespace {

constexpr size_t kRingPages = 16;

// The getppid tracepoint's id, or 0 without tracefs.
uint64_t GetppidTracepoint() {
  for (const char *root : pmapi::kTracefsRoots) {
    std::string id;
    if (pmapi::RealKernel().ReadFile(std::string(root) + "/events/syscalls/sys_enter_getppid/id",
                                     &id) == 0)
      return std::strtoull(id.c_str(), nullptr, 10);
  }
  return 0;
}

perf_event_attr Anchor() {
  return pmapi_test::UserModeAttr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
}

perf_event_attr EveryGetppid(uint64_t tracepoint) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = tracepoint;
  attr.sample_period = 1;
  attr.sample_type = PERF_SAMPLE_TID;
  attr.disabled = 1;
  return attr;
}

// A session sampling the calling thread's getppid calls on every online CPU, counting the
// samples of `tid`.
struct GetppidSampler {
  std::atomic<long> samples{0};
  std::unique_ptr<pmapi::SamplingSession> session;
  pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));

  pmapi::Status Open(uint64_t tracepoint) {
    pmapi::Status status = pmapi::SamplingSession::Create(
        [this](size_t, const perf_event_header &header, const uint8_t *record) {
          uint32_t ids[2];
          memcpy(ids, record + sizeof header, sizeof ids);  // PERF_SAMPLE_TID: pid, tid
          if (header.type == PERF_RECORD_SAMPLE && static_cast<pid_t>(ids[1]) == tid) ++samples;
        },
        &session);
    for (long cpu = 0; status.ok() && cpu < sysconf(_SC_NPROCESSORS_ONLN); ++cpu)
      status = session->AddRing(static_cast<int>(cpu), Anchor(), kRingPages);
    if (status.ok()) status = session->AddTarget(tid, EveryGetppid(tracepoint));
    return status;
  }
  long SamplesOf(long calls) {
    samples = 0;
    session->Enable();
    CallGetppid(calls);
    session->Disable();
    session->Drain();
    return samples.load();
  }
  // The same without enabling: the session must still be enabled (what was queued before is
  // dropped first).
  long SamplesWhileStillEnabled(long calls) {
    session->Drain();
    samples = 0;
    CallGetppid(calls);
    session->Disable();
    session->Drain();
    return samples.load();
  }
};

TEST(SamplingSessionTest, EveryGetppidCallIsOneSample) {
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  GetppidSampler sampler;
  pmapi::Status status = sampler.Open(tracepoint);
  ASSERT_TRUE(status.ok()) << status.detail();
  EXPECT_EQ(sampler.SamplesOf(1000), 1000);
  EXPECT_EQ(sampler.SamplesOf(3), 3);
  EXPECT_EQ(sampler.session->discarded_bytes(), 0u);
}

// DWARF unwinding's samples (sample_type with PERF_SAMPLE_STACK_USER, as libzx_sampler's
// --call-graph dwarf asks): 8 KiB records, each handed over whole, also the ones that wrap
// around the ring's end (two rounds of 40 in a 512 KiB ring).
TEST(SamplingSessionTest, SamplesWithAUserStackCopyComeWholeAcrossTheRingsEnd) {
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  constexpr uint64_t kStack = 8192;
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  std::atomic<long> whole{0}, other{0};
  std::unique_ptr<pmapi::SamplingSession> session;
  pmapi::Status status = pmapi::SamplingSession::Create(
      [&](size_t, const perf_event_header &header, const uint8_t *record) {
        if (header.type != PERF_RECORD_SAMPLE) return;
        // {pid, tid}, {u64 size, u8 data[size], u64 dyn_size}
        uint32_t ids[2];
        uint64_t size = 0, copied = 0;
        memcpy(ids, record + sizeof header, sizeof ids);
        memcpy(&size, record + sizeof header + 8, 8);
        if (static_cast<pid_t>(ids[1]) != tid) return;
        if (size != kStack || header.size != sizeof header + 8 + 8 + kStack + 8) {
          ++other;
          return;
        }
        memcpy(&copied, record + sizeof header + 16 + kStack, 8);
        (copied > 0 && copied <= kStack ? whole : other)++;
      },
      &session);
  for (long cpu = 0; status.ok() && cpu < sysconf(_SC_NPROCESSORS_ONLN); ++cpu)
    status = session->AddRing(static_cast<int>(cpu), Anchor(), 128);
  perf_event_attr attr = EveryGetppid(tracepoint);
  attr.sample_type |= PERF_SAMPLE_STACK_USER;
  attr.sample_stack_user = kStack;
  if (status.ok()) status = session->AddTarget(tid, attr);
  ASSERT_TRUE(status.ok()) << status.detail();
  for (int round = 0; round < 2; ++round) {
    whole = 0;
    session->Enable();
    CallGetppid(40);
    session->Disable();
    session->Drain();
    EXPECT_EQ(whole.load(), 40) << "round " << round;
  }
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(session->discarded_bytes(), 0u);
}

TEST(SamplingSessionTest, AThreadThatDoesNotExistIsNamedAndNothingStaysOpen) {
  GetppidSampler sampler;
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  ASSERT_TRUE(sampler.Open(tracepoint).ok());
  const int before = CountPerfDescriptors();
  pmapi::Status status = sampler.session->AddTarget(2147483000, EveryGetppid(tracepoint));
  EXPECT_EQ(status.kernel_errno(), ESRCH);
  EXPECT_NE(status.detail().find("thread 2147483000 on CPU 0"), std::string::npos)
      << status.detail();
  EXPECT_EQ(CountPerfDescriptors(), before);
}

// A ring the locked-memory limit refuses at every size is an error that says so, and its
// anchor is closed.
TEST(SamplingSessionTest, ARingThatCannotBeMappedClosesItsAnchor) {
  for (int err : {EPERM, ENOMEM}) {
    InstalledKernel kernel;
    kernel.FailWith(FakeKernel::Op::kMapRing, err);
    std::unique_ptr<pmapi::SamplingSession> session;
    ASSERT_TRUE(pmapi::SamplingSession::Create(
                    [](size_t, const perf_event_header &, const uint8_t *) {}, &session)
                    .ok());
    const int before = CountPerfDescriptors();
    pmapi::Status status = session->AddRing(0, Anchor(), kRingPages);
    EXPECT_EQ(status.kernel_errno(), err);
    EXPECT_NE(status.detail().find("mapping the sampling ring of CPU 0"), std::string::npos)
        << status.detail();
    EXPECT_EQ(CountPerfDescriptors(), before);
    EXPECT_EQ(session->ring_count(), 0u);
  }
}

// The child's bits: 1 it thinks it holds the session, 2 it kept a perf descriptor.
TEST(SamplingSessionTest, AChildHoldsNoneOfTheSessionAndCannotStopTheParents) {
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  GetppidSampler sampler;
  ASSERT_TRUE(sampler.Open(tracepoint).ok());
  sampler.session->Enable();
  int child = InChild([&] {
    int failed = 0;
    if (!sampler.session->held_by_parent()) failed |= 1;
    // What a front end does with it in the child: stop, drain, close.
    sampler.session->Disable();
    sampler.session->Drain();
    sampler.session.reset();
    if (CountPerfDescriptors() != 0) failed |= 2;
    _exit(failed);
  });
  EXPECT_EQ(child, 0) << "bits: 1 held, 2 a perf descriptor kept";
  EXPECT_FALSE(sampler.session->held_by_parent());
  // Still enabled: the child's Disable was its own business.
  EXPECT_EQ(sampler.SamplesWhileStillEnabled(500), 500);
}

}  // namespace

namespace {

std::unique_ptr<pmapi::SamplingSession> g_front_ends_session;
int g_child_handler_runs = 0;

// A front end's child handler: runs once the core let go of the session and of every lock, so
// destroying the session there neither deadlocks nor touches the parent's events.
void DropTheFrontEndsSession() {
  ++g_child_handler_runs;
  g_front_ends_session.reset();
}

TEST(SamplingSessionTest, AFrontEndsChildHandlerRunsAfterTheCoreAndMayDestroyTheSession) {
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  GetppidSampler sampler;
  ASSERT_TRUE(sampler.Open(tracepoint).ok());
  g_front_ends_session = std::move(sampler.session);
  pmapi::SamplingSession::AtForkInChild(&DropTheFrontEndsSession);
  pmapi::SamplingSession::AtForkInChild(&DropTheFrontEndsSession);  // kept once
  g_front_ends_session->Enable();
  int child = InChild([] {
    int failed = 0;
    if (g_child_handler_runs != 1) failed |= 1;
    if (g_front_ends_session) failed |= 2;
    if (CountPerfDescriptors() != 0) failed |= 4;
    _exit(failed);
  });
  EXPECT_EQ(child, 0) << "bits: 1 handler runs, 2 session kept, 4 a perf descriptor kept";
  EXPECT_EQ(g_child_handler_runs, 0);
  sampler.session = std::move(g_front_ends_session);
  EXPECT_EQ(sampler.SamplesWhileStillEnabled(200), 200);
}

}  // namespace
