/* SPDX-License-Identifier: MIT */
// The fixture of the suite's plain tests: the library initialized first, and the program of one
// family deleted last, whatever the test left set. `Delete` is pm_delete_program_mythread or
// pm_delete_program_mygroup.
#pragma once

#include <gtest/gtest.h>

#include "guest_support.h"

namespace pmu_guest {

template <int (*Delete)()>
class ProgramTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(Initialize()); }
  void TearDown() override { Delete(); }
};

}  // namespace pmu_guest
