// SPDX-License-Identifier: MIT
// The C++ front end: each method forwards to the engine.
#include "lib/perfmon/controller.h"

#include <new>

#include "engine.h"

namespace perfmon {

zx_status_t Controller::Open(std::unique_ptr<Controller> *out) {
  if (!out) return ZX_ERR_INVALID_ARGS;
  if (!ClaimDevice()) return ZX_ERR_ALREADY_BOUND;
  try {
    out->reset(new Controller(std::make_unique<Engine>()));
  } catch (const std::bad_alloc &) {
    ReleaseDevice();  // the next Open must not find the device taken by nobody
    return ZX_ERR_NO_MEMORY;
  }
  return ZX_OK;
}

Controller::Controller(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

Controller::~Controller() {
  // A controller inherited across fork is the parent's: its engine lets go of this process's
  // copies only, and the device this process may have claimed since is not its to release.
  const bool inherited = engine_->Inherited();
  engine_.reset();  // terminates
  if (!inherited) ReleaseDevice();
}

perfmon_properties_t Controller::GetProperties() const { return engine_->GetProperties(); }
zx_status_t Controller::Initialize(const perfmon_allocation_t &allocation) {
  return engine_->Initialize(allocation);
}
void Controller::Terminate() { engine_->Terminate(); }
zx_status_t Controller::GetAllocation(perfmon_allocation_t *allocation) const {
  return allocation ? engine_->GetAllocation(allocation) : ZX_ERR_INVALID_ARGS;
}
zx_status_t Controller::StageConfig(const perfmon_config_t &config) {
  return engine_->StageConfig(config);
}
zx_status_t Controller::GetConfig(perfmon_config_t *config) const {
  return config ? engine_->GetConfig(config) : ZX_ERR_INVALID_ARGS;
}
zx_status_t Controller::GetBufferHandle(uint32_t descriptor, int *fd) const {
  return fd ? engine_->GetBufferHandle(descriptor, fd) : ZX_ERR_INVALID_ARGS;
}
zx_status_t Controller::Start() { return engine_->Start(); }
void Controller::Stop() { engine_->Stop(); }
zx_status_t Controller::SetTarget(const perfmon_target_t &target) {
  return engine_->SetTarget(target);
}
zx_status_t Controller::GetMappings(std::vector<perfmon_mapping_t> *mappings) const {
  return mappings ? engine_->GetMappings(mappings) : ZX_ERR_INVALID_ARGS;
}
std::string Controller::last_error() const { return engine_->last_error(); }

}  // namespace perfmon
