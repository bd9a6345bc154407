// SPDX-License-Identifier: MIT
// A child of fork holds none of its parent's sessions: every call on the inherited handle is
// ZX_ERR_BAD_HANDLE, the child keeps none of the session's descriptors or mappings, may make a
// session of its own, and nothing it does (stop, close, exit) changes the parent's sampling,
// which is measured against the parent thread's own CPU time after the child is gone.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>

#include "sampler_test_support.h"

using sampler_test::ReadRegions;
using sampler_test::RegionContents;
using sampler_test::SampleCopy;

namespace {

std::atomic<uint64_t> g_sink{0};

extern "C" __attribute__((noinline)) void SamplerForkHot(int64_t cpu_ns) {
  int64_t end = sampler_test::ThreadCpuNs() + cpu_ns;
  uint64_t x = 1;
  while (sampler_test::ThreadCpuNs() < end)
    for (int i = 0; i < 20000; ++i) x = x * 6364136223846793005ull + 1;
  g_sink += x;
}

constexpr int64_t kPeriod = 100000;  // 100 us

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

zx_handle_t CreateStarted() {
  zx_sampler_config_t config{};
  config.period = kPeriod;
  config.buffer_size = 8 << 20;
  zx_handle_t h = ZX_HANDLE_INVALID;
  EXPECT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(sampler_test::Tid())), ZX_OK)
      << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_start(h), ZX_OK) << zx_sampler_last_error();
  return h;
}

// Descriptors of perf events open in this process.
int PerfDescriptors() {
  int n = 0;
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  while (dirent* entry = readdir(dir)) {
    std::string path = std::string("/proc/self/fd/") + entry->d_name;
    char target[256] = {};
    if (readlink(path.c_str(), target, sizeof target - 1) > 0 &&
        std::string(target) == "anon_inode:[perf_event]")
      ++n;
  }
  closedir(dir);
  return n;
}

bool MapsMention(const std::string& text) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// The child's checks, as bits of its exit status (0: all held).
int ChildUsesTheInheritedHandle(zx_handle_t inherited) {
  int failed = 0;
  if (zx_sampler_stop(inherited) != ZX_ERR_BAD_HANDLE) failed |= 1;
  if (std::string(zx_sampler_last_error()).find("parent") == std::string::npos) failed |= 2;
  zx_sampler_info_t info;
  if (zx_sampler_get_info(inherited, &info) != ZX_ERR_BAD_HANDLE) failed |= 4;
  if (zx_handle_close(inherited) != ZX_ERR_BAD_HANDLE) failed |= 8;
  if (PerfDescriptors() != 0) failed |= 16;
  if (MapsMention("zx_sampler_region")) failed |= 32;
  if (kThreadSanitizer) return failed;  // it cannot start a thread after this fork
  // A session of its own works, and samples only what the child burns.
  zx_handle_t own = CreateStarted();
  SamplerForkHot(30000000);
  if (zx_sampler_stop(own) != ZX_OK) failed |= 64;
  if (zx_sampler_get_info(own, &info) != ZX_OK || info.samples_written == 0) failed |= 64;
  if (zx_handle_close(own) != ZX_OK) failed |= 64;
  return failed;
}

// Runs `child` in a fork (stdio flushed first), waits at most 30 s; its exit status, or
// 128 + signal.
template <typename Child>
int RunChild(Child child) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) child();  // does not return
  if (pid < 0) return -1;
  int status = 0;
  for (int i = 0; i < 3000; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    usleep(10000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -2;  // hung
}

// The parent's samples of its own thread from `since` on, against the CPU time it burns.
void ExpectTheParentsRate(zx_handle_t h, zx_ticks_t since, int64_t cpu) {
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK) << zx_sampler_last_error();
  RegionContents c = ReadRegions(h);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  size_t after = 0;
  for (const SampleCopy& s : c.samples)
    after += s.tid == static_cast<uint64_t>(sampler_test::Tid()) &&
             s.ticks >= static_cast<uint64_t>(since);
  double expected = static_cast<double>(cpu) / kPeriod;
  EXPECT_GE(after, 0.75 * expected) << "cpu " << cpu << " ns after the child";
  EXPECT_LE(after, 1.25 * expected) << "cpu " << cpu << " ns after the child";
  EXPECT_EQ(zx_handle_close(h), ZX_OK) << zx_sampler_last_error();
}

TEST(ZxSamplerFork, AChildsStopAndCloseAreBadHandleAndTheParentSamplesOn) {
  zx_handle_t h = CreateStarted();
  SamplerForkHot(100000000);
  int child = RunChild([h] { _exit(ChildUsesTheInheritedHandle(h)); });
  EXPECT_EQ(child, 0) << "bits: 1 stop, 2 message, 4 info, 8 close, 16 perf descriptors kept, "
                         "32 regions kept mapped, 64 own session; above 128 a signal";
  zx_ticks_t since = zx_ticks_get();
  int64_t before = sampler_test::ThreadCpuNs();
  SamplerForkHot(300000000);
  ExpectTheParentsRate(h, since, sampler_test::ThreadCpuNs() - before);
}

TEST(ZxSamplerFork, AChildThatExitsNormallyDoesNotHangNorStopTheParent) {
  zx_handle_t h = CreateStarted();
  // exit runs the library's static destructors in the child, which must not touch the
  // parent's session (its drainer thread is not in the child).
  int child = RunChild([] { std::exit(0); });
  EXPECT_EQ(child, 0) << "-2: hung; above 128: a signal";
  zx_ticks_t since = zx_ticks_get();
  int64_t before = sampler_test::ThreadCpuNs();
  SamplerForkHot(200000000);
  ExpectTheParentsRate(h, since, sampler_test::ThreadCpuNs() - before);
}

}  // namespace
