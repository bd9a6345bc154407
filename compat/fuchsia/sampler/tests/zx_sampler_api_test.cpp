// SPDX-License-Identifier: MIT
// The zx_sampler_* calls through the C interface: every status in Fuchsia's order, the
// session's lifetime, and what a session leaves behind (no descriptor, no mapping).
#include <dirent.h>
#include <errno.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "sampler_test_support.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace {

zx_sampler_config_t Config(int64_t period = 100000, size_t buffer = 1 << 20) {
  zx_sampler_config_t config{};
  config.period = period;
  config.buffer_size = buffer;
  config.iobuffer_discipline = ZX_IOB_DISCIPLINE_TYPE_NONE;
  return config;
}

TEST(ZxSamplerCreate, RejectsBadConfigsInFuchsiasOrder) {
  zx_handle_t h = ZX_HANDLE_INVALID;
  zx_sampler_config_t config = Config();
  EXPECT_EQ(zx_sampler_create(0, 1, &config, &h), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(zx_sampler_create(0, 0, nullptr, &h), ZX_ERR_INVALID_ARGS);
  // Discipline is checked before the size, the size before the period.
  zx_sampler_config_t bad = Config(1, ZX_SAMPLER_MAX_BUFFER_SIZE + 1);
  bad.iobuffer_discipline = 1;
  EXPECT_EQ(zx_sampler_create(0, 0, &bad, &h), ZX_ERR_INVALID_ARGS);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("discipline"), std::string::npos);
  bad.iobuffer_discipline = 0;
  EXPECT_EQ(zx_sampler_create(0, 0, &bad, &h), ZX_ERR_INVALID_ARGS);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("buffer_size"), std::string::npos);
  bad.buffer_size = 4096;
  EXPECT_EQ(zx_sampler_create(0, 0, &bad, &h), ZX_ERR_INVALID_ARGS);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("period"), std::string::npos);
  bad.period = ZX_SAMPLER_MIN_PERIOD - 1;
  EXPECT_EQ(zx_sampler_create(0, 0, &bad, &h), ZX_ERR_INVALID_ARGS);
  EXPECT_EQ(h, ZX_HANDLE_INVALID);
  bad.period = ZX_SAMPLER_MIN_PERIOD;
  ASSERT_EQ(zx_sampler_create(0, 0, &bad, &h), ZX_OK) << zx_sampler_last_error();
  EXPECT_STREQ(zx_sampler_last_error(), "");
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerCreate, TheBufferIsRoundedUpToThePageSizeAndOneRegionPerCpu) {
  zx_handle_t h;
  zx_sampler_config_t config = Config(100000, 1);
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  zx_sampler_info_t info;
  ASSERT_EQ(zx_sampler_get_info(h, &info), ZX_OK);
  EXPECT_EQ(info.region_size, static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_EQ(info.region_count, static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_CONF)));
  EXPECT_EQ(info.ticks_per_second, static_cast<uint64_t>(zx_ticks_per_second()));
  EXPECT_EQ(info.running, 0u);
  EXPECT_EQ(zx_sampler_region_fd(h, info.region_count, nullptr), ZX_ERR_INVALID_ARGS);
  int fd = -1;
  EXPECT_EQ(zx_sampler_region_fd(h, info.region_count, &fd), ZX_ERR_OUT_OF_RANGE);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerCreate, ASecondLiveSessionAlreadyExistsUntilTheFirstIsClosed) {
  zx_handle_t first, second;
  zx_sampler_config_t config = Config();
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &first), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_create(0, 0, &config, &second), ZX_ERR_ALREADY_EXISTS);
  EXPECT_EQ(zx_handle_close(first), ZX_OK);
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &second), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_handle_close(second), ZX_OK);
  EXPECT_EQ(zx_handle_close(second), ZX_ERR_BAD_HANDLE);
}

TEST(ZxSamplerState, WithoutASessionEveryCallIsBadState) {
  zx_sampler_info_t info;
  EXPECT_EQ(zx_sampler_attach(3, static_cast<zx_handle_t>(sampler_test::Tid())), ZX_ERR_BAD_STATE);
  EXPECT_EQ(zx_sampler_start(3), ZX_ERR_BAD_STATE);
  EXPECT_EQ(zx_sampler_stop(3), ZX_ERR_BAD_STATE);
  EXPECT_EQ(zx_sampler_get_info(3, &info), ZX_ERR_BAD_STATE);
  EXPECT_EQ(zx_handle_close(3), ZX_ERR_BAD_HANDLE);
}

TEST(ZxSamplerState, AnotherHandleIsBadHandleAndTheWrongStateIsBadState) {
  zx_handle_t h;
  zx_sampler_config_t config = Config();
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  zx_handle_t other = h + 1000;
  zx_handle_t self = static_cast<zx_handle_t>(sampler_test::Tid());
  EXPECT_EQ(zx_sampler_attach(other, self), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_sampler_start(other), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_sampler_stop(other), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_handle_close(other), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_sampler_attach(h, ZX_HANDLE_INVALID), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_sampler_stop(h), ZX_ERR_BAD_STATE);  // not started
  ASSERT_EQ(zx_sampler_attach(h, self), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_attach(h, self), ZX_OK);  // twice: sampled once
  ASSERT_EQ(zx_sampler_start(h), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_start(h), ZX_ERR_BAD_STATE);  // already started
  zx_sampler_info_t info;
  ASSERT_EQ(zx_sampler_get_info(h, &info), ZX_OK);
  EXPECT_EQ(info.running, 1u);
  EXPECT_EQ(info.attached_threads, 1u);
  ASSERT_EQ(zx_sampler_stop(h), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_stop(h), ZX_ERR_BAD_STATE);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerAttach, ADeadThreadIsBadState) {
  pid_t dead = 0;
  std::thread([&] { dead = sampler_test::Tid(); }).join();
  zx_handle_t h;
  zx_sampler_config_t config = Config();
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(dead)), ZX_ERR_BAD_STATE);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("does not exist"), std::string::npos)
      << zx_sampler_last_error();
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

// Attaching a thread of root's (init) as an unprivileged user: done in a child that gives up
// root, when the test runs as root.
TEST(ZxSamplerAttach, AnotherUsersThreadIsAccessDeniedNamingPerfEventParanoid) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fds[0]);
    if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    struct stat init;
    if (stat("/proc/1", &init) != 0 || init.st_uid == getuid()) _exit(4);  // init is ours
    zx_handle_t h;
    zx_sampler_config_t config = Config();
    zx_status_t status = zx_sampler_create(0, 0, &config, &h);
    if (status == ZX_OK) status = zx_sampler_attach(h, 1);
    std::string message = std::to_string(status) + " " + zx_sampler_last_error();
    (void)!write(pipe_fds[1], message.data(), message.size());
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[512];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0)
    message.append(buffer, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
    GTEST_SKIP() << "process 1 belongs to the test's user here: no other user's thread to try";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_EQ(message.substr(0, message.find(' ')), std::to_string(ZX_ERR_ACCESS_DENIED)) << message;
  EXPECT_NE(message.find("perf_event_paranoid"), std::string::npos) << message;
}

TEST(ZxSamplerUnwind, ChosenBeforeTheFirstAttachWithItsArgumentsChecked) {
  EXPECT_EQ(zx_sampler_set_unwind(3, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_ERR_BAD_STATE);
  zx_handle_t h;
  zx_sampler_config_t config = Config();
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_set_unwind(h + 1, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_ERR_BAD_HANDLE);
  EXPECT_EQ(zx_sampler_set_unwind(h, 2, 0), ZX_ERR_INVALID_ARGS);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("unknown unwinding method 2"),
            std::string::npos)
      << zx_sampler_last_error();
  for (uint32_t bad : {12u, ZX_SAMPLER_UNWIND_MAX_STACK + 8}) {
    EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, bad), ZX_ERR_INVALID_ARGS) << bad;
    EXPECT_NE(std::string(zx_sampler_last_error()).find("stack_bytes"), std::string::npos);
  }
#if defined(__x86_64__) || defined(__aarch64__)
  EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, ZX_SAMPLER_UNWIND_MAX_STACK), ZX_OK)
      << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_OK);
#else
  EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_ERR_NOT_SUPPORTED);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("not supported on this architecture"),
            std::string::npos);
#endif
  EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_FRAME_POINTERS, 0), ZX_OK);
  // Every event of a ring writes records of one layout: no change once a thread is attached.
  ASSERT_EQ(zx_sampler_attach(h, static_cast<zx_handle_t>(sampler_test::Tid())), ZX_OK)
      << zx_sampler_last_error();
  EXPECT_EQ(zx_sampler_set_unwind(h, ZX_SAMPLER_UNWIND_DWARF, 0), ZX_ERR_BAD_STATE);
  EXPECT_NE(std::string(zx_sampler_last_error()).find("before the first attach"),
            std::string::npos);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerRegions, TheCallersDescriptorIsReadOnly) {
  zx_handle_t h;
  zx_sampler_config_t config = Config();
  ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
  int fd = -1;
  ASSERT_EQ(zx_sampler_region_fd(h, 0, &fd), ZX_OK) << zx_sampler_last_error();
  void* writable = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  EXPECT_EQ(writable, MAP_FAILED);
  EXPECT_EQ(errno, EACCES);
  void* readable = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(readable, MAP_FAILED);
  EXPECT_EQ(*static_cast<const uint64_t*>(readable), 0u);  // empty: the zero word
  munmap(readable, 4096);
  close(fd);
  EXPECT_EQ(zx_handle_close(h), ZX_OK);
}

TEST(ZxSamplerStatus, NamesEveryStatusItReturns) {
  EXPECT_STREQ(zx_sampler_status_name(ZX_ERR_BAD_STATE), "ZX_ERR_BAD_STATE");
  EXPECT_STREQ(zx_sampler_status_name(ZX_ERR_ALREADY_EXISTS), "ZX_ERR_ALREADY_EXISTS");
  EXPECT_STREQ(zx_sampler_status_name(ZX_ERR_ACCESS_DENIED), "ZX_ERR_ACCESS_DENIED");
  // The thread of an attach that is gone (the errno map's ESRCH).
  EXPECT_STREQ(zx_sampler_status_name(ZX_ERR_NOT_FOUND), "ZX_ERR_NOT_FOUND");
  EXPECT_STREQ(zx_sampler_status_name(-12345), "ZX_ERR_UNKNOWN");
  EXPECT_EQ(ZX_ERR_BAD_STATE, -20);
  EXPECT_EQ(ZX_ERR_ALREADY_EXISTS, -26);
  EXPECT_EQ(ZX_ERR_ACCESS_DENIED, -30);
  EXPECT_EQ(ZX_ERR_BAD_HANDLE, -11);
  EXPECT_EQ(ZX_ERR_INVALID_ARGS, -10);
}

size_t OpenDescriptors() {
  size_t count = 0;
  if (DIR* dir = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(dir))
      if (e->d_name[0] != '.') ++count;
    closedir(dir);
  }
  return count;
}

// The mappings a session makes: its regions (memfds named zx_sampler_region_N) and its perf
// rings. Counted by name, not all lines: a sanitizer's allocator maps memory of its own.
size_t SessionMappings() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  size_t count = 0;
  while (std::getline(maps, line))
    count += line.find("zx_sampler_region") != std::string::npos ||
             line.find("[perf_event]") != std::string::npos;
  return count;
}

TEST(ZxSamplerLifetime, AThousandCyclesLeakNoDescriptorOrMapping) {
  zx_handle_t self = static_cast<zx_handle_t>(sampler_test::Tid());
  zx_sampler_config_t config = Config(100000, 65536);
  // One cycle first: whatever the C++ runtime and the sanitizers map once is not a leak.
  for (int warm = 0; warm < 2; ++warm) {
    zx_handle_t h;
    ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << zx_sampler_last_error();
    ASSERT_EQ(zx_handle_close(h), ZX_OK);
  }
  size_t descriptors = OpenDescriptors();
  EXPECT_EQ(SessionMappings(), 0u);
  for (int i = 0; i < 1000; ++i) {
    zx_handle_t h;
    ASSERT_EQ(zx_sampler_create(0, 0, &config, &h), ZX_OK) << i << ": " << zx_sampler_last_error();
    ASSERT_EQ(zx_sampler_attach(h, self), ZX_OK) << i << ": " << zx_sampler_last_error();
    ASSERT_EQ(zx_sampler_start(h), ZX_OK) << i;
    ASSERT_EQ(zx_sampler_stop(h), ZX_OK) << i;
    if (i == 0) {
      // The check below can fail: a live session shows its mappings and descriptors.
      EXPECT_GT(SessionMappings(), 0u);
      EXPECT_GT(OpenDescriptors(), descriptors);
    }
    ASSERT_EQ(zx_handle_close(h), ZX_OK) << i;
  }
  EXPECT_EQ(OpenDescriptors(), descriptors);
  EXPECT_EQ(SessionMappings(), 0u);
}

}  // namespace
