/* SPDX-License-Identifier: MIT */
// Shared by compat/netbsd/tests/netbsd_*_test.cpp: event ids by name, counter set-up and
// reads that report errno, without pm_initialize (the NetBSD layer needs none).
#pragma once

#include <errno.h>
#include <gtest/gtest.h>
#include <pmc_events.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/pmc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace pmc_test {

constexpr const char kGetppid[] = "syscalls:sys_enter_getppid";

// Mounts tracefs when missing and we are root, so the tracepoints exist.
inline void EnsureTracefs() {
  struct stat st;
  if (stat("/sys/kernel/tracing/events", &st) != 0 && geteuid() == 0) {
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
  }
}

// The id of `name`; fails the test when the catalog lacks it.
inline pmc_evid_t EventId(const std::string &name) {
  pmc_evid_t id = 0;
  EXPECT_EQ(pmc_event_lookup(name.c_str(), &id), 0) << name << " is not in the catalog";
  return id;
}

// 0, or the errno of a failed call: tests compare against NetBSD's errors.
inline int ErrnoOf(int rc) { return rc == 0 ? 0 : errno; }

inline int Configure(int ctr, pmc_evid_t id, uint32_t flags = 0, pmc_ctr_t reset_value = 0) {
  pmc_counter_cfg cfg = {};
  cfg.event_id = id;
  cfg.reset_value = reset_value;
  cfg.flags = flags;
  return ErrnoOf(pmc_control(ctr, PMC_OP_CONFIGURE, &cfg));
}

inline int ProfStart(int ctr, pmc_evid_t id, pmc_ctr_t reset_value = 0) {
  pmc_counter_cfg cfg = {};
  cfg.event_id = id;
  cfg.reset_value = reset_value;
  return ErrnoOf(pmc_control(ctr, PMC_OP_PROFSTART, &cfg));
}

inline int Op(int ctr, int op) { return ErrnoOf(pmc_control(ctr, op, nullptr)); }

// The value of `request` for `ctr`, or UINT64_MAX (with a test failure) if
// the call failed.
inline uint64_t Info(int ctr, int request) {
  uint64_t value = 0;
  if (pmc_get_info(ctr, request, &value) != 0) {
    ADD_FAILURE() << "pmc_get_info(" << ctr << ", " << request << "): " << strerror(errno);
    return UINT64_MAX;
  }
  return value;
}

inline uint64_t Value(int ctr) { return Info(ctr, PMC_INFO_COUNTER_VALUE); }
inline uint64_t Accumulated(int ctr) { return Info(ctr, PMC_INFO_ACCUMULATED_COUNTER_VALUE); }

// Frees every counter, whatever state a test left it in.
inline void ReleaseAll() {
  for (int ctr = 0; ctr < PMC_LINUX_NCOUNTERS; ++ctr) {
    pmc_control(ctr, PMC_OP_STOP, nullptr);
    pmc_control(ctr, PMC_OP_PROFSTOP, nullptr);
  }
}

// A test that counts the getppid tracepoint and frees every counter after.
class GetppidTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EnsureTracefs();
    getppid_ = EventId(kGetppid);
  }
  void TearDown() override { ReleaseAll(); }

  pmc_evid_t getppid_ = 0;
};

}  // namespace pmc_test
