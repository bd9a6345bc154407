/* SPDX-License-Identifier: MIT */
// The one engine under both front ends (the C++ Controller and the C cpuperf calls): the
// driver's state machine (initialized -> staged -> active), the buffers, and the session.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fork_generation.h"
#include "lib/perfmon/types.h"
#include "session.h"
#include "trace_buffer.h"

namespace perfmon {

// In a fork child an engine made before the fork is its parent's: every call fails with
// ZX_ERR_BAD_HANDLE (the void ones do nothing), touches no descriptor the two processes share,
// and takes no lock (a thread that no longer exists may have held it at the fork).
class Engine {
 public:
  Engine() = default;
  ~Engine();

  perfmon_properties_t GetProperties() const;
  zx_status_t Initialize(const perfmon_allocation_t &allocation);
  void Terminate();
  zx_status_t GetAllocation(perfmon_allocation_t *allocation) const;
  zx_status_t StageConfig(const perfmon_config_t &config);
  zx_status_t GetConfig(perfmon_config_t *config) const;
  zx_status_t GetBufferHandle(uint32_t descriptor, int *fd) const;
  zx_status_t Start();
  void Stop();
  zx_status_t SetTarget(const perfmon_target_t &target);
  zx_status_t GetMappings(std::vector<perfmon_mapping_t> *mappings) const;
  std::string last_error() const;

  // Made before a fork, in the parent: this process holds none of it.
  bool Inherited() const { return generation_ != ForkGeneration(); }
  // In the child: closes this process's copies of the descriptors, without disabling the
  // events they share with the parent; the engine is empty then. Single-threaded, no lock.
  void AbandonInChild();

 private:
  zx_status_t Fail(zx_status_t status, const std::string &why) const;
  void StopLocked();

  const uint64_t generation_ = ForkGeneration();
  mutable std::mutex mutex_;
  mutable std::string last_error_;
  bool initialized_ = false;
  bool staged_ = false;
  perfmon_allocation_t allocation_{};
  perfmon_config_t config_{};
  perfmon_target_t target_{};
  std::vector<std::unique_ptr<TraceBuffer>> buffers_;
  std::unique_ptr<Session> session_;         // non-null while active
  std::vector<perfmon_mapping_t> mappings_;  // of the last trace
};

// Whether a controller is open in this process; Claim returns false if one is.
bool ClaimDevice();
void ReleaseDevice();

}  // namespace perfmon
