/* SPDX-License-Identifier: MIT */
// The kernel double for tests: passes every call to the real kernel unless told otherwise, and
// can make an operation fail with an errno, for all paths or for paths under a prefix, or
// serve a file or directory listing from memory. Every other double derives from it and
// overrides only what it simulates (LevelDB's EnvWrapper pattern): the seam's calls are all
// pure, so a call added to pmapi::Kernel is added here once.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/kernel.h"

namespace pmapi_test {

class FakeKernel : public pmapi::Kernel {
 public:
  enum class Op {
    kPerfEventOpen,
    kIoctl,
    kRead,
    kClose,
    kMapRing,
    kReadFile,
    kListDirectory,
    kAccess,
    kStat,
    kMapFile,
    kMakeDirectory,
    kWriteNewFile,
    kRename,
    kUnlink,
    kWriteFileAtomically,
  };

  // Makes `op` fail with `err` (a positive errno). For the ops that take a path (kReadFile and
  // every op after it), only paths starting with `path_prefix` fail ("" = every path); for
  // kRename the prefix is matched against the destination. Other ops ignore the prefix.
  void FailWith(Op op, int err, const std::string &path_prefix = "");
  // Decides perf_event_open: return a positive errno to fail, 0 to pass to the real kernel.
  void SetPerfEventOpenHook(std::function<int(const perf_event_attr &)> hook);
  // Serves `contents` for ReadFile(path) / `names` for ListDirectory(path); Access and Stat
  // then report the path as a readable file or directory owned by the caller. Serving a path
  // replaces a FailWith(kReadFile / kListDirectory) given for exactly that path.
  void SetFile(const std::string &path, const std::string &contents);
  void SetDirectory(const std::string &path, const std::vector<std::string> &names);
  // Serves MapRing from `memory` (not owned, `size` bytes, page-aligned) instead of mapping the
  // event, so that a test writes the records and data_head the kernel would; a larger request
  // fails with ENOMEM. nullptr maps real rings again.
  void ServeRing(void *memory, size_t size);
  // Forgets every rule.
  void Clear();
  // How many times `op` was called (including failed calls).
  int Calls(Op op) const;

  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override;
  // Failed as PerfEventOpen is (FailWith(kPerfEventOpen), the hook), and counted as one.
  int PerfEventOpenCgroup(const perf_event_attr &attr, const std::string &cgroup_dir, int cpu,
                          int group_fd) override;
  int Ioctl(int fd, unsigned long request, unsigned long arg) override;
  ssize_t Read(int fd, void *buf, size_t size) override;
  int Close(int fd) override;
  int ReadFile(const std::string &path, std::string *contents) override;
  // Served and failed as ReadFile is (SetFile, FailWith(kReadFile)).
  ssize_t ReadInto(const char *path, char *buf, size_t size) override;
  int ListDirectory(const std::string &path, std::vector<std::string> *names) override;
  int Access(const std::string &path, int mode) override;
  int Stat(const std::string &path, pmapi::FileStat *info) override;
  // Files served with SetFile are not mapped: the real file is (tests use it for the cache).
  int MapFile(const std::string &path, const char **data, size_t *size,
              pmapi::FileStat *info) override;
  int MakeDirectory(const std::string &path, mode_t mode) override;
  int WriteNewFile(const std::string &path, const std::string &contents, mode_t mode) override;
  int Rename(const std::string &from, const std::string &to) override;
  int Unlink(const std::string &path) override;
  int WriteFileAtomically(const std::string &path, const std::string &contents,
                          mode_t mode) override;
  // Passed to the real kernel, with no failure to inject.
  void UnmapFile(const char *data, size_t size) override;
  int MapPerfPage(int fd, const perf_event_mmap_page **page) override;
  void UnmapPerfPage(const perf_event_mmap_page *page) override;
  uint64_t ReadPmc(uint32_t counter) override;
  uint64_t ReadTimestamp() override;
  // Failed with FailWith(kMapRing), served with ServeRing, or passed to the real kernel.
  int MapRing(int fd, size_t size, void **ring) override;
  void UnmapRing(void *ring, size_t size) override;

 private:
  struct Failure {
    Op op;
    int err;
    std::string path_prefix;
  };
  // Drops the failures of `op` given for exactly `path` (mutex_ held).
  void ForgetFailure(Op op, const std::string &path);
  // Returns the errno to fail with, or 0; counts the call.
  // Allocates nothing: the library's allocation-free paths (signal_safety_test) call through it.
  int Check(Op op, std::string_view path);

  mutable std::mutex mutex_;
  std::vector<Failure> failures_;
  std::function<int(const perf_event_attr &)> open_hook_;
  std::map<std::string, std::string, std::less<>> files_;
  std::map<std::string, std::vector<std::string>> directories_;
  void *ring_memory_ = nullptr;
  size_t ring_size_ = 0;
  std::array<int, static_cast<size_t>(Op::kWriteFileAtomically) + 1> calls_{};
};

// Installs a kernel for the scope of a test, and the real one again afterwards.
class ScopedKernel {
 public:
  explicit ScopedKernel(pmapi::Kernel *kernel) { pmapi::SetKernelForTesting(kernel); }
  ~ScopedKernel() { pmapi::SetKernelForTesting(nullptr); }
  ScopedKernel(const ScopedKernel &) = delete;
  ScopedKernel &operator=(const ScopedKernel &) = delete;
};

// A FakeKernel installed for its own lifetime (FakeKernel and ScopedKernel in one), for tests
// that fake a file or two around one call.
class InstalledKernel : public FakeKernel {
 public:
  InstalledKernel() { pmapi::SetKernelForTesting(this); }
  ~InstalledKernel() override { pmapi::SetKernelForTesting(nullptr); }
  InstalledKernel(const InstalledKernel &) = delete;
  InstalledKernel &operator=(const InstalledKernel &) = delete;
};

}  // namespace pmapi_test
