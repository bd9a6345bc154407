// SPDX-License-Identifier: MIT
// FakeKernel: rules first, then the real kernel.
#include "support/fake_kernel.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace pmapi_test {
namespace {

// Copies the faked entry for `path` into *out; false when the path is not faked (the real
// kernel answers then).
template <typename Table, typename Value>
bool Faked(std::mutex &mutex, const Table &table, const std::string &path, Value *out) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = table.find(path);
  if (found == table.end()) return false;
  *out = found->second;
  return true;
}

}  // namespace

void FakeKernel::FailWith(Op op, int err, const std::string &path_prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  failures_.push_back(Failure{op, err, path_prefix});
}

void FakeKernel::SetPerfEventOpenHook(std::function<int(const perf_event_attr &)> hook) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_hook_ = std::move(hook);
}

void FakeKernel::SetFile(const std::string &path, const std::string &contents) {
  std::lock_guard<std::mutex> lock(mutex_);
  files_[path] = contents;
  ForgetFailure(Op::kReadFile, path);
}

void FakeKernel::ForgetFailure(Op op, const std::string &path) {
  for (auto it = failures_.begin(); it != failures_.end();) {
    it = it->op == op && it->path_prefix == path ? failures_.erase(it) : it + 1;
  }
}

void FakeKernel::SetDirectory(const std::string &path, const std::vector<std::string> &names) {
  std::lock_guard<std::mutex> lock(mutex_);
  directories_[path] = names;
  ForgetFailure(Op::kListDirectory, path);
}

void FakeKernel::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  failures_.clear();
  open_hook_ = nullptr;
  files_.clear();
  directories_.clear();
  ring_memory_ = nullptr;
  ring_size_ = 0;
  calls_.fill(0);
}

void FakeKernel::ServeRing(void *memory, size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  ring_memory_ = memory;
  ring_size_ = size;
}

int FakeKernel::Calls(Op op) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_[static_cast<size_t>(op)];
}

int FakeKernel::Check(Op op, std::string_view path) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++calls_[static_cast<size_t>(op)];
  for (const Failure &failure : failures_) {
    if (failure.op == op && path.substr(0, failure.path_prefix.size()) == failure.path_prefix) {
      return failure.err;
    }
  }
  return 0;
}

int FakeKernel::PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) {
  if (int err = Check(Op::kPerfEventOpen, "")) return -err;
  std::function<int(const perf_event_attr &)> hook;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hook = open_hook_;
  }
  if (hook) {
    if (int err = hook(attr)) return -err;
  }
  return pmapi::RealKernel().PerfEventOpen(attr, pid, cpu, group_fd);
}

int FakeKernel::PerfEventOpenCgroup(const perf_event_attr &attr, const std::string &cgroup_dir,
                                    int cpu, int group_fd) {
  if (int err = Check(Op::kPerfEventOpen, "")) return -err;
  std::function<int(const perf_event_attr &)> hook;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hook = open_hook_;
  }
  if (hook) {
    if (int err = hook(attr)) return -err;
  }
  return pmapi::RealKernel().PerfEventOpenCgroup(attr, cgroup_dir, cpu, group_fd);
}

int FakeKernel::Ioctl(int fd, unsigned long request, unsigned long arg) {
  if (int err = Check(Op::kIoctl, "")) return -err;
  return pmapi::RealKernel().Ioctl(fd, request, arg);
}

ssize_t FakeKernel::Read(int fd, void *buf, size_t size) {
  if (int err = Check(Op::kRead, "")) return -err;
  return pmapi::RealKernel().Read(fd, buf, size);
}

int FakeKernel::Close(int fd) {
  // An injected failure still closes the descriptor: tests must not leak them.
  int err = Check(Op::kClose, "");
  int result = pmapi::RealKernel().Close(fd);
  return err ? -err : result;
}

ssize_t FakeKernel::ReadInto(const char *path, char *buf, size_t size) {
  if (int err = Check(Op::kReadFile, path)) return -err;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = files_.find(std::string_view(path));
    if (found != files_.end()) {
      const size_t n = std::min(size, found->second.size());
      memcpy(buf, found->second.data(), n);
      return static_cast<ssize_t>(n);
    }
  }
  return pmapi::RealKernel().ReadInto(path, buf, size);
}

int FakeKernel::ReadFile(const std::string &path, std::string *contents) {
  if (int err = Check(Op::kReadFile, path)) return -err;
  if (Faked(mutex_, files_, path, contents)) return 0;
  return pmapi::RealKernel().ReadFile(path, contents);
}

int FakeKernel::ListDirectory(const std::string &path, std::vector<std::string> *names) {
  if (int err = Check(Op::kListDirectory, path)) return -err;
  if (Faked(mutex_, directories_, path, names)) return 0;
  return pmapi::RealKernel().ListDirectory(path, names);
}

int FakeKernel::Access(const std::string &path, int mode) {
  if (int err = Check(Op::kAccess, path)) return -err;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (files_.count(path) || directories_.count(path)) return 0;
  }
  return pmapi::RealKernel().Access(path, mode);
}

int FakeKernel::Stat(const std::string &path, pmapi::FileStat *info) {
  if (int err = Check(Op::kStat, path)) return -err;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto file = files_.find(path);
    if (file != files_.end() || directories_.count(path)) {
      *info = pmapi::FileStat{};
      info->owner = geteuid();
      info->mode = file != files_.end() ? (S_IFREG | 0644) : (S_IFDIR | 0755);
      if (file != files_.end()) info->size = static_cast<off_t>(file->second.size());
      return 0;
    }
  }
  return pmapi::RealKernel().Stat(path, info);
}

int FakeKernel::MapFile(const std::string &path, const char **data, size_t *size,
                        pmapi::FileStat *info) {
  if (int err = Check(Op::kMapFile, path)) return -err;
  return pmapi::RealKernel().MapFile(path, data, size, info);
}

int FakeKernel::MakeDirectory(const std::string &path, mode_t mode) {
  if (int err = Check(Op::kMakeDirectory, path)) return -err;
  return pmapi::RealKernel().MakeDirectory(path, mode);
}

int FakeKernel::WriteNewFile(const std::string &path, const std::string &contents, mode_t mode) {
  if (int err = Check(Op::kWriteNewFile, path)) return -err;
  return pmapi::RealKernel().WriteNewFile(path, contents, mode);
}

int FakeKernel::Rename(const std::string &from, const std::string &to) {
  if (int err = Check(Op::kRename, to)) return -err;
  return pmapi::RealKernel().Rename(from, to);
}

int FakeKernel::Unlink(const std::string &path) {
  if (int err = Check(Op::kUnlink, path)) return -err;
  return pmapi::RealKernel().Unlink(path);
}

int FakeKernel::WriteFileAtomically(const std::string &path, const std::string &contents,
                                    mode_t mode) {
  if (int err = Check(Op::kWriteFileAtomically, path)) return -err;
  return pmapi::RealKernel().WriteFileAtomically(path, contents, mode);
}
void FakeKernel::UnmapFile(const char *data, size_t size) {
  pmapi::RealKernel().UnmapFile(data, size);
}
int FakeKernel::MapPerfPage(int fd, const perf_event_mmap_page **page) {
  return pmapi::RealKernel().MapPerfPage(fd, page);
}
void FakeKernel::UnmapPerfPage(const perf_event_mmap_page *page) {
  pmapi::RealKernel().UnmapPerfPage(page);
}
int FakeKernel::MapRing(int fd, size_t size, void **ring) {
  if (int err = Check(Op::kMapRing, "")) return -err;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ring_memory_) {
      if (size > ring_size_) return -ENOMEM;
      *ring = ring_memory_;
      return 0;
    }
  }
  return pmapi::RealKernel().MapRing(fd, size, ring);
}
void FakeKernel::UnmapRing(void *ring, size_t size) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ring_memory_ && ring == ring_memory_) return;  // the test's memory
  }
  pmapi::RealKernel().UnmapRing(ring, size);
}
uint64_t FakeKernel::ReadPmc(uint32_t counter) { return pmapi::RealKernel().ReadPmc(counter); }
uint64_t FakeKernel::ReadTimestamp() { return pmapi::RealKernel().ReadTimestamp(); }

}  // namespace pmapi_test
