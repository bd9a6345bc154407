/* SPDX-License-Identifier: MIT */
// The fixture of the _mx tests that turn the rotation by hand: no rotator thread
// (pmapi::DriveMultiplexersByHandForTesting), the test says when a slice ends, often on a fake
// perf kernel with a clock of its own. The calling thread's program, the test kernel and the
// hand drive are all undone after each test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "base/kernel.h"
#include "core/multiplexer.h"
#include "core/registry.h"
#include "pmapi.h"
#include "support/counting.h"

namespace pmapi_test {

constexpr uint64_t kMs = 1000000;

class HandDrivenMx : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InitializeAll());
    pmapi::DriveMultiplexersByHandForTesting(true);
    AfterInitialize();
  }
  // A fixture's own look-ups and kernel, run only when the library initialized.
  virtual void AfterInitialize() {}
  void TearDown() override {
    pm_delete_program_mythread();
    pmapi::SetKernelForTesting(nullptr);
    pmapi::DriveMultiplexersByHandForTesting(false);
  }
  // The calling thread's multiplexer.
  static pmapi::Multiplexer *Mx() {
    return const_cast<pmapi::Multiplexer *>(pmapi::t_my_context->multiplexer());
  }
  // `count` sets of `sets`, every counter of them COUNT_NOTHING, for the test to fill.
  static void ClearSets(pm_events_prog_t *sets, int count) {
    for (int s = 0; s < count; ++s) {
      for (int &event : sets[s]) event = COUNT_NOTHING;
    }
  }
  // An _mx program of `count` sets with `mode` and `slice_ms` slices.
  static pm_prog_mx_t MxProgram(pm_events_prog_t *sets, int count, int mode, int slice_ms = 10) {
    pm_prog_mx_t prog = {};
    prog.mode.w = mode;
    prog.slice_duration = slice_ms;
    prog.nb_events_prog = count;
    prog.events_set = sets;
    return prog;
  }
};

// A timebase read as one 64-bit number of ticks.
inline uint64_t Ticks(const timebasestruct_t &tb) {
  return (static_cast<uint64_t>(tb.tb_high) << 32) | tb.tb_low;
}

}  // namespace pmapi_test
