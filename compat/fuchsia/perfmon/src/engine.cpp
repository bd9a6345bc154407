// SPDX-License-Identifier: MIT
#include "engine.h"

#include <atomic>

#include "config_check.h"
#include "properties.h"

namespace perfmon {
namespace {

// 0 when no controller is open, else 1 + the fork generation that opened it: a child finds
// the device free although its parent holds it (the parent's controller is not the child's).
std::atomic<uint64_t> g_device_owner{0};

constexpr const char kInherited[] =
    "this controller was opened before fork, by the parent process: a child holds none of its "
    "parent's traces (open a controller of its own)";

}  // namespace

bool ClaimDevice() {
  const uint64_t mine = ForkGeneration() + 1;
  uint64_t seen = g_device_owner.load();
  while (seen != mine) {
    if (g_device_owner.compare_exchange_weak(seen, mine)) return true;
  }
  return false;
}

void ReleaseDevice() {
  uint64_t mine = ForkGeneration() + 1;
  g_device_owner.compare_exchange_strong(mine, 0);  // a parent's claim is not this process's
}

Engine::~Engine() {
  if (Inherited()) {
    AbandonInChild();
  } else {
    Terminate();
  }
}

void Engine::AbandonInChild() {
  if (session_) session_->AbandonInChild();
  session_.reset();
  buffers_.clear();  // this process's copies of the memfds and their mappings
  mappings_.clear();
  initialized_ = false;
  staged_ = false;
}

zx_status_t Engine::Fail(zx_status_t status, const std::string &why) const {
  last_error_ = why;
  return status;
}

perfmon_properties_t Engine::GetProperties() const { return MachineProperties(); }

zx_status_t Engine::Initialize(const perfmon_allocation_t &allocation) {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (initialized_) return Fail(ZX_ERR_BAD_STATE, "a trace is already initialized");
  size_t cpus = OnlineCpus().size();
  if (allocation.num_buffers != cpus) {
    return Fail(ZX_ERR_INVALID_ARGS, "num_buffers is " + std::to_string(allocation.num_buffers) +
                                         "; it must be the number of CPUs, " +
                                         std::to_string(cpus));
  }
  if (allocation.buffer_size_in_pages == 0 ||
      allocation.buffer_size_in_pages > PERFMON_MAX_BUFFER_PAGES) {
    return Fail(ZX_ERR_INVALID_ARGS,
                "buffer_size_in_pages must be 1 to " + std::to_string(PERFMON_MAX_BUFFER_PAGES));
  }
  std::vector<std::unique_ptr<TraceBuffer>> buffers(cpus);
  for (auto &buffer : buffers) {
    zx_status_t status =
        TraceBuffer::Make(size_t{allocation.buffer_size_in_pages} * PERFMON_PAGE_SIZE, &buffer);
    if (status != ZX_OK) return Fail(status, "cannot allocate the trace buffers");
  }
  buffers_ = std::move(buffers);
  allocation_ = allocation;
  initialized_ = true;
  staged_ = false;
  last_error_.clear();
  return ZX_OK;
}

void Engine::StopLocked() {
  if (!session_) return;
  session_->Stop();
  mappings_ = session_->TakeMappings();
  session_.reset();
}

void Engine::Terminate() {
  if (Inherited()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  StopLocked();
  buffers_.clear();
  mappings_.clear();
  initialized_ = false;
  staged_ = false;
  allocation_ = {};
  config_ = {};
}

zx_status_t Engine::GetAllocation(perfmon_allocation_t *allocation) const {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_) return Fail(ZX_ERR_BAD_STATE, "no trace is initialized");
  *allocation = allocation_;
  return ZX_OK;
}

zx_status_t Engine::StageConfig(const perfmon_config_t &config) {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_) return Fail(ZX_ERR_BAD_STATE, "no trace is initialized");
  if (session_) return Fail(ZX_ERR_BAD_STATE, "the trace is running: Stop first");
  staged_ = false;  // a failed stage leaves nothing to start
  std::string why;
  zx_status_t status = CheckConfig(config, MachineProperties(), &why);
  if (status != ZX_OK) return Fail(status, why);
  config_ = config;
  staged_ = true;
  last_error_.clear();
  return ZX_OK;
}

zx_status_t Engine::GetConfig(perfmon_config_t *config) const {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_ || !staged_) return Fail(ZX_ERR_BAD_STATE, "no config is staged");
  *config = config_;
  return ZX_OK;
}

zx_status_t Engine::GetBufferHandle(uint32_t descriptor, int *fd) const {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_) return Fail(ZX_ERR_BAD_STATE, "no trace is initialized");
  if (descriptor >= buffers_.size()) {
    return Fail(ZX_ERR_INVALID_ARGS,
                "descriptor " + std::to_string(descriptor) + " is not below num_buffers");
  }
  int result = buffers_[descriptor]->OpenReadOnly();
  if (result < 0) return Fail(ZX_ERR_NO_RESOURCES, "cannot open a descriptor of the buffer");
  *fd = result;
  return ZX_OK;
}

zx_status_t Engine::Start() {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_) return Fail(ZX_ERR_BAD_STATE, "no trace is initialized");
  if (session_) return Fail(ZX_ERR_BAD_STATE, "the trace is already running");
  if (!staged_) return Fail(ZX_ERR_BAD_STATE, "no config is staged");
  std::vector<TraceBuffer *> buffers;
  for (auto &buffer : buffers_) {
    buffer->Reset();
    buffers.push_back(buffer.get());
  }
  std::unique_ptr<Session> session;
  std::string why;
  zx_status_t status = Session::Open(config_, target_, OnlineCpus(), buffers, &session, &why);
  if (status == ZX_OK) status = session->Start(&why);
  if (status != ZX_OK) return Fail(status, why);  // the session closes what it opened
  session_ = std::move(session);
  mappings_.clear();
  last_error_.clear();
  return ZX_OK;
}

void Engine::Stop() {
  if (Inherited()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  StopLocked();
}

zx_status_t Engine::SetTarget(const perfmon_target_t &target) {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (session_) return Fail(ZX_ERR_BAD_STATE, "the trace is running: Stop first");
  if (target.pid < 0) return Fail(ZX_ERR_INVALID_ARGS, "the target pid is negative");
  target_ = target;
  return ZX_OK;
}

zx_status_t Engine::GetMappings(std::vector<perfmon_mapping_t> *mappings) const {
  if (Inherited()) return ZX_ERR_BAD_HANDLE;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!initialized_) return Fail(ZX_ERR_BAD_STATE, "no trace is initialized");
  *mappings = mappings_;
  return ZX_OK;
}

std::string Engine::last_error() const {
  if (Inherited()) return kInherited;
  std::lock_guard<std::mutex> lock(mutex_);
  return last_error_;
}

}  // namespace perfmon
