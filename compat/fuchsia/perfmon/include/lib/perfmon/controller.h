/* SPDX-License-Identifier: MIT */
// The perfmon controller in C++: Fuchsia's fuchsia.perfmon.cpu.Controller methods, with the
// driver's rules and statuses, over Linux perf_event sampling. One controller may be open in a
// process at a time, as the Fuchsia device allows one open. Every method is thread-safe.
// In a fork child a controller of the parent's is not the child's: every method returns
// ZX_ERR_BAD_HANDLE (the void ones do nothing) and leaves the parent's trace alone.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lib/perfmon/types.h"

namespace perfmon {

class Engine;

class Controller {
 public:
  // ZX_ERR_ALREADY_BOUND while another controller (C++ or a cpuperf_open handle) is open.
  static zx_status_t Open(std::unique_ptr<Controller> *out);
  // Terminates (stops and frees the trace) and lets the next Open succeed.
  ~Controller();
  Controller(const Controller &) = delete;
  Controller &operator=(const Controller &) = delete;

  // This machine, honestly: no programmable or fixed counters where there is no PMU.
  perfmon_properties_t GetProperties() const;

  // One buffer per CPU. ZX_ERR_BAD_STATE if already initialized; ZX_ERR_INVALID_ARGS if
  // num_buffers is not the number of CPUs or the size is 0 or above PERFMON_MAX_BUFFER_PAGES;
  // ZX_ERR_NO_MEMORY if the buffers cannot be made.
  zx_status_t Initialize(const perfmon_allocation_t &allocation);
  // Stops if tracing, frees the buffers and the staged config. Idempotent.
  void Terminate();
  // ZX_ERR_BAD_STATE if not initialized (FIDL's null box).
  zx_status_t GetAllocation(perfmon_allocation_t *allocation) const;

  // ZX_ERR_BAD_STATE unless initialized and stopped. A failed stage leaves no config.
  // ZX_ERR_INVALID_ARGS for a bad config (see docs/perfmon.md), ZX_ERR_NOT_SUPPORTED for
  // events or last-branch collection this machine has no hardware for.
  zx_status_t StageConfig(const perfmon_config_t &config);
  // The staged config verbatim; ZX_ERR_BAD_STATE when none (FIDL's null box).
  zx_status_t GetConfig(perfmon_config_t *config) const;

  // A new read-only descriptor of CPU `descriptor`'s buffer, for mmap(PROT_READ, MAP_SHARED);
  // the caller closes it. ZX_ERR_BAD_STATE if not initialized, ZX_ERR_INVALID_ARGS if
  // descriptor >= num_buffers (FIDL's null handle).
  zx_status_t GetBufferHandle(uint32_t descriptor, int *fd) const;

  // ZX_ERR_BAD_STATE if tracing, not initialized or not staged. Opens the events (on every
  // CPU) and starts them; the buffers start over. A kernel refusal gives ZX_ERR_ACCESS_DENIED
  // (privilege), ZX_ERR_NOT_SUPPORTED (no such event here), ZX_ERR_INVALID_ARGS,
  // ZX_ERR_NO_RESOURCES or ZX_ERR_NOT_FOUND (the target process is gone); nothing stays open.
  zx_status_t Start();
  // Stops, writes the final records and capture_end. A no-op when not tracing.
  void Stop();

  // Our extension: limit tracing to a process and its descendants (types.h). ZX_ERR_BAD_STATE
  // while tracing, ZX_ERR_INVALID_ARGS for a negative pid.
  zx_status_t SetTarget(const perfmon_target_t &target);

  // Our extension: the executable mappings the traced processes made during the last trace
  // (types.h), in the order they were made. ZX_ERR_BAD_STATE if not initialized.
  zx_status_t GetMappings(std::vector<perfmon_mapping_t> *mappings) const;

  // Why the last call that failed on this controller failed (with the errno and CPU when the
  // kernel refused), "" after a success.
  std::string last_error() const;

 private:
  explicit Controller(std::unique_ptr<Engine> engine);
  std::unique_ptr<Engine> engine_;
};

}  // namespace perfmon
