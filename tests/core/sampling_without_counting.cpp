// SPDX-License-Identifier: MIT
// A sampling session linked with the base layer and the sampling nouns alone
// (tests/core/CMakeLists.txt lists the objects): it links only while sampling needs nothing of
// the counting core (no registry, no context, no counting group, no catalog). And its fork
// handling works there, through the fork service: the child holds none of the session, the
// parent samples on, one fork handler serves the process.
#include <dirent.h>
#include <gtest/gtest.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>

#include "base/engine_counts.h"
#include "base/kernel.h"
#include "base/tracefs.h"
#include "core/sampling_session.h"

namespace {

uint64_t GetppidTracepoint() {
  for (const char *root : pmapi::kTracefsRoots) {
    uint64_t id = 0;
    std::string text;
    if (pmapi::ReadTracepointId(pmapi::TracepointIdPath(root, "syscalls:sys_enter_getppid"), &id,
                                &text) == 0)
      return id;
  }
  return 0;
}

// Perf descriptors open in this process (the sampling session's alone here).
int PerfDescriptors() {
  int count = 0;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  while (dirent *entry = readdir(dir)) {
    char target[64] = {};
    const std::string link = std::string("/proc/self/fd/") + entry->d_name;
    if (readlink(link.c_str(), target, sizeof target - 1) > 0 &&
        strcmp(target, "anon_inode:[perf_event]") == 0)
      ++count;
  }
  closedir(dir);
  return count;
}

std::atomic<long> g_samples{0};

TEST(SamplingWithoutCounting, AForkedChildHoldsNoneOfTheSessionAndTheParentSamplesOn) {
  const uint64_t tracepoint = GetppidTracepoint();
  if (tracepoint == 0) GTEST_SKIP() << "no tracefs";
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  std::unique_ptr<pmapi::SamplingSession> session;
  ASSERT_TRUE(pmapi::SamplingSession::Create(
                  [tid](size_t, const perf_event_header &header, const uint8_t *record) {
                    uint32_t ids[2];
                    memcpy(ids, record + sizeof header, sizeof ids);  // PERF_SAMPLE_TID
                    if (header.type == PERF_RECORD_SAMPLE && static_cast<pid_t>(ids[1]) == tid)
                      ++g_samples;
                  },
                  &session)
                  .ok());
  perf_event_attr anchor{};
  anchor.size = sizeof anchor;
  anchor.type = PERF_TYPE_SOFTWARE;
  anchor.config = PERF_COUNT_SW_DUMMY;
  anchor.exclude_kernel = 1;
  anchor.exclude_hv = 1;
  for (long cpu = 0; cpu < sysconf(_SC_NPROCESSORS_ONLN); ++cpu)
    ASSERT_TRUE(session->AddRing(static_cast<int>(cpu), anchor, 16).ok());
  perf_event_attr every_getppid{};
  every_getppid.size = sizeof every_getppid;
  every_getppid.type = PERF_TYPE_TRACEPOINT;
  every_getppid.config = tracepoint;
  every_getppid.sample_period = 1;
  every_getppid.sample_type = PERF_SAMPLE_TID;
  every_getppid.disabled = 1;
  ASSERT_TRUE(session->AddTarget(tid, every_getppid).ok());
  ASSERT_TRUE(session->Enable().ok());
  ASSERT_GT(PerfDescriptors(), 0);

  const unsigned long prepared = pmapi::EngineEventCount(pmapi::EngineEvent::kForkPrepared);
  const pid_t child = fork();
  if (child == 0) {
    int failed = 0;
    if (!session->held_by_parent()) failed |= 1;
    session->Disable();
    session->Drain();
    session.reset();
    if (PerfDescriptors() != 0) failed |= 2;
    _exit(failed);
  }
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "bits: 1 held, 2 a perf descriptor kept; status " << status;
  EXPECT_EQ(pmapi::EngineEventCount(pmapi::EngineEvent::kForkHandlerRegistered), 1u);
  EXPECT_EQ(pmapi::EngineEventCount(pmapi::EngineEvent::kForkPrepared), prepared + 1);

  EXPECT_FALSE(session->held_by_parent());
  session->Drain();
  g_samples = 0;
  for (int i = 0; i < 300; ++i) syscall(SYS_getppid);
  session->Disable();
  session->Drain();
  EXPECT_EQ(g_samples.load(), 300) << "still enabled: the child's Disable was its own";
}

}  // namespace
