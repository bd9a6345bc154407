/* SPDX-License-Identifier: MIT */
// The fixture most counting tests start from: the library initialized with every status (or the
// test skipped, saying why: support/counting.h) and the exact getppid tracepoint's id looked up.
#pragma once

#include <gtest/gtest.h>

#include "support/counting.h"

namespace pmapi_test {

class GetppidTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!InitializeAll()) return;
    getppid_ = EventId(kGetppid);
    AfterInitialize();
  }
  // A fixture's own look-ups, run only when the library initialized (not when the test skips).
  virtual void AfterInitialize() {}
  int getppid_ = COUNT_NOTHING;
};

}  // namespace pmapi_test
