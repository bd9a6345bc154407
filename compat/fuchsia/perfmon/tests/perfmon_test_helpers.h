/* SPDX-License-Identifier: MIT */
// What the perfmon tests share: one interface over both front ends (the C++ Controller and the
// C cpuperf calls, so that every rule is checked through each), config building, a workload
// run under a trace, and the buffers read back record by record.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "lib/perfmon/controller.h"
#include "lib/perfmon/cpuperf.h"
#include "lib/perfmon/reader.h"

namespace perfmon_test {

class Api {
 public:
  virtual ~Api() = default;
  virtual perfmon_properties_t GetProperties() = 0;
  virtual zx_status_t Initialize(const perfmon_allocation_t &a) = 0;
  virtual void Terminate() = 0;
  virtual zx_status_t GetAllocation(perfmon_allocation_t *a) = 0;
  virtual zx_status_t StageConfig(const perfmon_config_t &c) = 0;
  virtual zx_status_t GetConfig(perfmon_config_t *c) = 0;
  virtual zx_status_t GetBufferHandle(uint32_t d, int *fd) = 0;
  virtual zx_status_t Start() = 0;
  virtual void Stop() = 0;
  virtual zx_status_t SetTarget(const perfmon_target_t &t) = 0;
  virtual std::string LastError() = 0;
  virtual zx_status_t GetMappings(std::vector<perfmon_mapping_t> *m) = 0;
};

class CppApi : public Api {
 public:
  explicit CppApi(std::unique_ptr<perfmon::Controller> c) : c_(std::move(c)) {}
  perfmon_properties_t GetProperties() override { return c_->GetProperties(); }
  zx_status_t Initialize(const perfmon_allocation_t &a) override { return c_->Initialize(a); }
  void Terminate() override { c_->Terminate(); }
  zx_status_t GetAllocation(perfmon_allocation_t *a) override { return c_->GetAllocation(a); }
  zx_status_t StageConfig(const perfmon_config_t &c) override { return c_->StageConfig(c); }
  zx_status_t GetConfig(perfmon_config_t *c) override { return c_->GetConfig(c); }
  zx_status_t GetBufferHandle(uint32_t d, int *fd) override { return c_->GetBufferHandle(d, fd); }
  zx_status_t Start() override { return c_->Start(); }
  void Stop() override { c_->Stop(); }
  zx_status_t SetTarget(const perfmon_target_t &t) override { return c_->SetTarget(t); }
  std::string LastError() override { return c_->last_error(); }
  zx_status_t GetMappings(std::vector<perfmon_mapping_t> *m) override { return c_->GetMappings(m); }

 private:
  std::unique_ptr<perfmon::Controller> c_;
};

class CApi : public Api {
 public:
  explicit CApi(cpuperf_handle_t h) : h_(h) {}
  ~CApi() override { cpuperf_close(h_); }
  perfmon_properties_t GetProperties() override {
    perfmon_properties_t p{};
    ioctl_cpuperf_get_properties(h_, &p);
    return p;
  }
  zx_status_t Initialize(const perfmon_allocation_t &a) override {
    return ioctl_cpuperf_alloc_trace(h_, &a);
  }
  void Terminate() override { ioctl_cpuperf_free_trace(h_); }
  zx_status_t GetAllocation(perfmon_allocation_t *a) override {
    return ioctl_cpuperf_get_alloc(h_, a);
  }
  zx_status_t StageConfig(const perfmon_config_t &c) override {
    return ioctl_cpuperf_stage_config(h_, &c);
  }
  zx_status_t GetConfig(perfmon_config_t *c) override { return ioctl_cpuperf_get_config(h_, c); }
  zx_status_t GetBufferHandle(uint32_t d, int *fd) override {
    return ioctl_cpuperf_get_buffer_handle(h_, &d, fd);
  }
  zx_status_t Start() override { return ioctl_cpuperf_start(h_); }
  void Stop() override { ioctl_cpuperf_stop(h_); }
  zx_status_t SetTarget(const perfmon_target_t &t) override { return cpuperf_set_target(h_, &t); }
  std::string LastError() override { return cpuperf_last_error(h_); }
  zx_status_t GetMappings(std::vector<perfmon_mapping_t> *m) override {
    size_t count = 0;
    zx_status_t status = cpuperf_get_mappings(h_, nullptr, 0, &count);
    if (status != ZX_OK) return status;
    m->resize(count);
    return cpuperf_get_mappings(h_, m->data(), m->size(), &count);
  }
  cpuperf_handle_t handle() const { return h_; }

 private:
  cpuperf_handle_t h_;
};

// Opens the controller through the named front end ("cpp" or "c"); nullptr if it cannot.
inline std::unique_ptr<Api> OpenApi(const std::string &front_end) {
  if (front_end == "cpp") {
    std::unique_ptr<perfmon::Controller> c;
    if (perfmon::Controller::Open(&c) != ZX_OK) return nullptr;
    return std::make_unique<CppApi>(std::move(c));
  }
  cpuperf_handle_t h = 0;
  if (cpuperf_open(&h) != ZX_OK) return nullptr;
  return std::make_unique<CApi>(h);
}

inline uint32_t NumCpus() { return static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)); }

inline perfmon_allocation_t Allocation(uint32_t pages = 16) { return {NumCpus(), pages}; }

inline perfmon_event_id_t Id(const char *name) {
  perfmon_event_id_t id = 0;
  if (perfmon_lookup_event(nullptr, name, &id) != ZX_OK) return 0;
  return id;
}

inline perfmon_config_t Config(std::initializer_list<perfmon_event_config_t> events) {
  perfmon_config_t config{};
  size_t i = 0;
  for (const perfmon_event_config_t &event : events) config.events[i++] = event;
  return config;
}

constexpr const char kGetppid[] = "tracepoint:syscalls:sys_enter_getppid";

// A record with the buffer (CPU) it came from.
struct Record : perfmon_record_t {
  uint32_t cpu;
};

struct Buffers {
  std::vector<std::vector<uint8_t>> bytes;  // each buffer, up to its size
  std::vector<Record> records;              // every record of every buffer, in order
  zx_status_t status = ZX_OK;               // the first reader error

  size_t CountOf(uint8_t type, perfmon_event_id_t event) const {
    size_t n = 0;
    for (const Record &r : records) n += r.type == type && r.event == event;
    return n;
  }
  uint64_t SumOf(uint8_t type, perfmon_event_id_t event) const {
    uint64_t sum = 0;
    for (const Record &r : records) sum += r.type == type && r.event == event ? r.value : 0;
    return sum;
  }
  const perfmon_buffer_header_t &Header(size_t cpu) const {
    return *reinterpret_cast<const perfmon_buffer_header_t *>(bytes[cpu].data());
  }
};

// Maps each buffer read-only, as a client does, and reads every record.
inline Buffers ReadBuffers(Api *api) {
  Buffers result;
  perfmon_allocation_t allocation{};
  if (api->GetAllocation(&allocation) != ZX_OK) {
    result.status = ZX_ERR_BAD_STATE;
    return result;
  }
  for (uint32_t cpu = 0; cpu < allocation.num_buffers; ++cpu) {
    int fd = -1;
    if (api->GetBufferHandle(cpu, &fd) != ZX_OK) {
      result.status = ZX_ERR_BAD_HANDLE;
      return result;
    }
    size_t size = size_t{allocation.buffer_size_in_pages} * PERFMON_PAGE_SIZE;
    void *map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
      result.status = ZX_ERR_NO_MEMORY;
      return result;
    }
    const uint8_t *data = static_cast<const uint8_t *>(map);
    result.bytes.emplace_back(data, data + size);
    munmap(map, size);
    perfmon_reader_t reader;
    zx_status_t status = perfmon_reader_init(&reader, result.bytes.back().data(), size);
    Record record{};
    while (status == ZX_OK && (status = perfmon_reader_next(&reader, &record)) == ZX_OK) {
      record.cpu = cpu;
      result.records.push_back(record);
    }
    if (status != ZX_ERR_NOT_FOUND && result.status == ZX_OK) result.status = status;
  }
  return result;
}

// Keeps the calling thread, and the processes it forks meanwhile, on the CPU it is on, and
// gives its affinity back at the end. A traced process is counted by one event per CPU, each
// with its own sampling period (docs/perfmon.md), so a migration mid-run splits 1000 calls at
// rate 100 into, say, 5 + 4 ticks, not 10: seen under TSan, whose load makes migrations likelier.
class OnOneCpu {
 public:
  OnOneCpu() {
    saved_ = sched_getaffinity(0, sizeof before_, &before_) == 0;
    const int cpu = sched_getcpu();
    cpu_set_t here;
    CPU_ZERO(&here);
    if (cpu >= 0) CPU_SET(cpu, &here);
    pinned_ = saved_ && cpu >= 0 && sched_setaffinity(0, sizeof here, &here) == 0;
  }
  ~OnOneCpu() {
    if (saved_) sched_setaffinity(0, sizeof before_, &before_);
  }
  OnOneCpu(const OnOneCpu &) = delete;
  OnOneCpu &operator=(const OnOneCpu &) = delete;
  bool pinned() const { return pinned_; }

 private:
  cpu_set_t before_;
  bool saved_ = false, pinned_ = false;
};

// Runs the getppid workload (`calls` calls) as a traced command: forked, held before exec
// while the trace starts on it (enable_on_exec), then let go and reaped; the trace is stopped.
// Returns the address every sample's PC must be (x86-64), or 0, and the child's pid.
// The workload stays on one CPU (OnOneCpu).
struct WorkloadRun {
  zx_status_t start = ZX_ERR_INTERNAL;
  pid_t pid = -1;
  uint64_t pc = 0;
  int exit_status = -1;
};

inline WorkloadRun RunTraced(Api *api, long calls) {
  WorkloadRun run;
  int go[2], out[2];
  if (pipe2(go, O_CLOEXEC) != 0) return run;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(go[0]);
    close(go[1]);
    return run;
  }
  std::string count = std::to_string(calls);
  OnOneCpu here;
  EXPECT_TRUE(here.pinned());
  pid_t pid = fork();
  if (pid == 0) {
    char byte;
    if (read(go[0], &byte, 1) != 1) _exit(90);
    dup2(out[1], 1);
    execl(GETPPID_CALLS_PATH, GETPPID_CALLS_PATH, count.c_str(), "--print-pc", (char *)nullptr);
    _exit(91);
  }
  close(go[0]);
  close(out[1]);
  run.pid = pid;
  run.start = api->SetTarget({pid, 1});
  if (run.start == ZX_OK) run.start = api->Start();
  if (run.start != ZX_OK) kill(pid, SIGKILL);
  (void)!write(go[1], "g", 1);
  close(go[1]);
  std::string text;
  char chunk[64];
  ssize_t got;
  while ((got = read(out[0], chunk, sizeof chunk)) > 0)
    text.append(chunk, static_cast<size_t>(got));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (run.start == ZX_OK) api->Stop();
  run.pc = strtoull(text.c_str(), nullptr, 16);
  return run;
}

// Descriptors this process holds: the count must come back to where it was.
inline size_t OpenDescriptors() {
  size_t n = 0;
  for (int fd = 0; fd < 4096; ++fd) n += fcntl(fd, F_GETFD) != -1;
  return n;
}

// The mappings the engine makes: its trace buffers (memfds) and the perf sample rings.
inline size_t EngineMappings() {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return 0;
  size_t n = 0;
  char line[4096];
  while (fgets(line, sizeof line, maps)) {
    n += strstr(line, "memfd:perfmon-buffer") != nullptr || strstr(line, "perf_event") != nullptr;
  }
  fclose(maps);
  return n;
}

}  // namespace perfmon_test
