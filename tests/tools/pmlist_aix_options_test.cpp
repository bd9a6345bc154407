// SPDX-License-Identifier: MIT
// pmlist's AIX options, and the forms they displaced, which stay available.
#include <gtest/gtest.h>
#include <pmapi.h>

#include "options.h"

namespace pmlist {
namespace {

TEST(PmlistAixOptions, AixQueries) {
  Options o;
  ASSERT_EQ(ParseOptions({"-g", "-1"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kGroups);
  EXPECT_EQ(o.aix_arg, "-1");
  ASSERT_EQ(ParseOptions({"-g", "pm_sw_basic", "-d", "-o", "c"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kGroups);
  EXPECT_EQ(o.aix_arg, "pm_sw_basic");
  EXPECT_TRUE(o.detailed);
  EXPECT_EQ(o.format, 'c');
  ASSERT_EQ(ParseOptions({"-s"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kSummary);
  ASSERT_EQ(ParseOptions({"-s", "-p", "Intel Icelake"}, &o), "");
  EXPECT_EQ(o.processor, "Intel Icelake");
  ASSERT_EQ(ParseOptions({"-c", "2,PM_CYC", "-f", "v,c"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kCounters);
  EXPECT_EQ(o.aix_arg, "2,PM_CYC");
  EXPECT_EQ(o.status_filter, PM_VERIFIED | PM_CAVEAT);
  ASSERT_EQ(ParseOptions({"-e", "task-clock"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kEvent);
  ASSERT_EQ(ParseOptions({"-D", "-1"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kDerived);
  ASSERT_EQ(ParseOptions({"-l"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kProcessors);
}

TEST(PmlistAixOptions, TodaysFormsStayAvailable) {
  Options o;
  // -s with a status list and -g without a value mean what they meant.
  ASSERT_EQ(ParseOptions({"-s", "unverified", "PM_CYC"}, &o), "");
  EXPECT_EQ(o.aix, AixQuery::kNone);
  EXPECT_EQ(o.status_filter, PM_UNVERIFIED);
  EXPECT_EQ(o.pattern, "PM_CYC");
  ASSERT_EQ(ParseOptions({"-g"}, &o), "");
  EXPECT_TRUE(o.groups);
  EXPECT_EQ(o.aix, AixQuery::kNone);
  // The long forms always do.
  ASSERT_EQ(ParseOptions({"--groups", "basic", "--status", "verified"}, &o), "");
  EXPECT_TRUE(o.groups);
  EXPECT_EQ(o.pattern, "basic");
  EXPECT_EQ(o.status_filter, PM_VERIFIED);
}

TEST(PmlistAixOptions, RefusesMixtures) {
  Options o;
  EXPECT_NE(ParseOptions({"-g", "-1", "-s"}, &o).find("one AIX query"), std::string::npos);
  EXPECT_NE(ParseOptions({"-s", "PM_CYC"}, &o).find("take no pattern"), std::string::npos);
  EXPECT_NE(ParseOptions({"-g", "-1", "-j"}, &o), "");
  EXPECT_NE(ParseOptions({"-d"}, &o).find("add one"), std::string::npos);
  EXPECT_NE(ParseOptions({"-s", "-o", "y"}, &o).find("-o takes"), std::string::npos);
  EXPECT_NE(ParseOptions({"-f", "v,x"}, &o), "");
  EXPECT_NE(ParseOptions({"-c"}, &o), "");
}

}  // namespace
}  // namespace pmlist
