// SPDX-License-Identifier: MIT
// Fork: a child holds none of its parent's traces. Every call it makes on the controller or
// handle it inherited fails with ZX_ERR_BAD_HANDLE and touches nothing the two processes share
// (no disabled event, no drained ring), so the parent's trace is exactly what it would have been.
#include <gtest/gtest.h>

#include "perfmon_test_helpers.h"

namespace perfmon_test {
namespace {

constexpr long kCalls = 1000;

// What the child checks; its exit code says which check failed (0: all held).
int ChildUsesTheInheritedController(Api *api, cpuperf_handle_t handle) {
  // Stop first: it is what disabled the shared events and drained rings the child lacks.
  if (handle != 0) {
    if (ioctl_cpuperf_stop(handle) != ZX_ERR_BAD_HANDLE) return 20;
  } else {
    api->Stop();  // void: must do nothing
  }
  if (api->Start() != ZX_ERR_BAD_HANDLE) return 10;
  if (api->StageConfig(Config({{Id("linux:task-clock"), 0, 0}})) != ZX_ERR_BAD_HANDLE) return 11;
  perfmon_allocation_t allocation{};
  if (api->GetAllocation(&allocation) != ZX_ERR_BAD_HANDLE) return 12;
  int fd = -1;
  if (api->GetBufferHandle(0, &fd) != ZX_ERR_BAD_HANDLE) return 13;
  if (api->SetTarget({getpid(), 0}) != ZX_ERR_BAD_HANDLE) return 14;
  api->Terminate();
  if (handle != 0) {
    if (ioctl_cpuperf_free_trace(handle) != ZX_ERR_BAD_HANDLE) return 21;
    if (cpuperf_close(handle) != ZX_ERR_BAD_HANDLE) return 22;
  } else if (api->LastError().find("opened before fork") == std::string::npos) {
    return 15;
  }
  // The child may open a controller of its own meanwhile.
  cpuperf_handle_t own = 0;
  if (cpuperf_open(&own) != ZX_OK) return 30;
  if (cpuperf_close(own) != ZX_OK) return 31;
  return 0;
}

class Fork : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    getppid_ = Id(kGetppid);
    ASSERT_NE(getppid_, 0) << "tracefs must be readable (root)";
  }
  // Traces kCalls getppid calls of the workload at rate 1. Halfway the workload stops itself;
  // meanwhile `in_child` runs in a fork child of this process (whose exit status goes to
  // *child_status); then the workload goes on, and the parent stops and reads the buffers.
  Buffers Trace(const std::function<int(Api *, cpuperf_handle_t)> &in_child, int *child_status) {
    std::unique_ptr<Api> api = OpenApi(GetParam());
    EXPECT_TRUE(api);
    if (!api) return {};
    EXPECT_EQ(api->Initialize(Allocation(64)), ZX_OK);
    EXPECT_EQ(api->StageConfig(Config({{getppid_, 1, PERFMON_FLAG_COLLECT_USER}})), ZX_OK);
    CApi *c = dynamic_cast<CApi *>(api.get());
    cpuperf_handle_t handle = c ? c->handle() : 0;
    int go[2];
    EXPECT_EQ(pipe2(go, O_CLOEXEC), 0);
    const std::string calls = std::to_string(kCalls), half = std::to_string(kCalls / 2);
    pid_t workload = fork();
    if (workload == 0) {
      char byte;
      if (read(go[0], &byte, 1) != 1) _exit(90);
      execl(GETPPID_CALLS_PATH, GETPPID_CALLS_PATH, calls.c_str(), "--stop-at", half.c_str(),
            (char *)nullptr);
      _exit(91);
    }
    close(go[0]);
    EXPECT_EQ(api->SetTarget({workload, 1}), ZX_OK);
    EXPECT_EQ(api->Start(), ZX_OK) << api->LastError();
    (void)!write(go[1], "g", 1);
    close(go[1]);
    int status = 0;
    EXPECT_EQ(waitpid(workload, &status, WUNTRACED), workload);
    EXPECT_TRUE(WIFSTOPPED(status));
    if (in_child) {
      pid_t pid = fork();
      if (pid == 0) _exit(in_child(api.get(), handle));
      waitpid(pid, child_status, 0);
    }
    kill(workload, SIGCONT);
    EXPECT_EQ(waitpid(workload, &status, 0), workload);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    api->Stop();
    Buffers buffers = ReadBuffers(api.get());
    // The parent's controller still works after the child's calls.
    EXPECT_EQ(api->StageConfig(Config({{getppid_, 0, 0}})), ZX_OK) << api->LastError();
    return buffers;
  }
  perfmon_event_id_t getppid_ = 0;
};

TEST_P(Fork, AChildsCallsOnTheInheritedControllerFailAndLeaveTheParentsTraceWhole) {
  int ignored = 0;
  Buffers alone = Trace(nullptr, &ignored);
  ASSERT_EQ(alone.status, ZX_OK);
  ASSERT_EQ(alone.CountOf(PERFMON_RECORD_TICK, getppid_), static_cast<size_t>(kCalls));

  int child = -1;
  Buffers forked = Trace(&ChildUsesTheInheritedController, &child);
  ASSERT_EQ(forked.status, ZX_OK);
  EXPECT_TRUE(WIFEXITED(child)) << "the child died of signal " << WTERMSIG(child);
  EXPECT_EQ(WEXITSTATUS(child), 0) << "the child's check that failed (fork_test.cpp)";
  EXPECT_EQ(forked.CountOf(PERFMON_RECORD_TICK, getppid_), static_cast<size_t>(kCalls));
  EXPECT_EQ(forked.records.size(), alone.records.size());
  for (size_t cpu = 0; cpu < NumCpus(); ++cpu) {
    EXPECT_EQ(forked.Header(cpu).flags & PERFMON_BUFFER_FLAG_FULL, 0u);
  }
}

TEST_P(Fork, AChildThatDestroysItsCopyClosesOnlyItsOwnDescriptors) {
  int child = -1;
  Buffers forked = Trace(
      [](Api *api, cpuperf_handle_t handle) -> int {
        // The perf rings are never in the child; the buffers' mappings are copied.
        const size_t before = OpenDescriptors(), mapped = EngineMappings();
        delete api;  // the child's copy: ~Controller, or cpuperf_close (BAD_HANDLE)
        const size_t after = OpenDescriptors();
        if (EngineMappings() != 0) return 42;
        // A C handle's copies were let go of at the fork already; a Controller's go now.
        if (handle != 0) return after == before && mapped == 0 ? 0 : 41;
        return after < before && mapped == NumCpus() ? 0 : 40;
      },
      &child);
  ASSERT_EQ(forked.status, ZX_OK);
  EXPECT_TRUE(WIFEXITED(child)) << "the child died of signal " << WTERMSIG(child);
  EXPECT_EQ(WEXITSTATUS(child), 0);
  EXPECT_EQ(forked.CountOf(PERFMON_RECORD_TICK, getppid_), static_cast<size_t>(kCalls));
}

TEST_P(Fork, AChildThatJustExitsLeavesTheParentsTraceWhole) {
  // The child's exit destroys nothing of the parent's: it runs its static destructors and
  // closes its copies of the descriptors.
  int child = -1;
  Buffers forked = Trace([](Api *, cpuperf_handle_t) -> int { exit(0); }, &child);
  ASSERT_EQ(forked.status, ZX_OK);
  EXPECT_TRUE(WIFEXITED(child) && WEXITSTATUS(child) == 0);
  EXPECT_EQ(forked.CountOf(PERFMON_RECORD_TICK, getppid_), static_cast<size_t>(kCalls));
}

INSTANTIATE_TEST_SUITE_P(FrontEnds, Fork, ::testing::Values("cpp", "c"));

}  // namespace
}  // namespace perfmon_test
