// SPDX-License-Identifier: MIT
// Before pm_initialize: nothing resolves. Its own binary, so no other test initialized first.
#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "pmapi.h"

namespace {

TEST(init_before, ResolveSaysNoInitUntilInitialized) {
  EXPECT_FALSE(pmapi::LibraryInitialized());
  perf_event_attr attr{};
  pmapi::Status status = pmapi::ResolveEventForCounter(0, 0, &attr, nullptr);
  EXPECT_EQ(status.code(), Pmapi_NoInit);
  // A failed pm_initialize does not initialize either.
  pm_info2_t info{};
  EXPECT_EQ(pm_initialize(PM_VERIFIED, &info, nullptr, PM_POWER9), Pmapi_InvalidProcType);
  EXPECT_FALSE(pmapi::LibraryInitialized());
  EXPECT_EQ(pmapi::ResolveEventForCounter(0, 0, &attr, nullptr).code(), Pmapi_NoInit);

  ASSERT_EQ(pm_initialize(PM_VERIFIED | PM_UNVERIFIED, &info, nullptr, PM_CURRENT), 0);
  EXPECT_TRUE(pmapi::LibraryInitialized());
  EXPECT_EQ(pmapi::ActiveFilter(), PM_VERIFIED | PM_UNVERIFIED);
  const pmapi::CatalogEvent *event = nullptr;
  status = pmapi::ResolveEventForCounter(0, 0, &attr, &event);  // PM_CYC, verified or not
  ASSERT_TRUE(status.ok()) << status.detail();
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->short_name, "PM_CYC");
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_HARDWARE));
}

}  // namespace
