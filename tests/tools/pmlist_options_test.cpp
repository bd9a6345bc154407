// pmlist's command line.
#include "options.h"

#include <gtest/gtest.h>
#include <pmapi.h>

namespace pmlist {
namespace {

TEST(PmlistOptions, FiltersAndModes) {
  Options o;
  ASSERT_EQ(
      ParseOptions({"-s", "verified,caveat", "--source=software,tracepoint", "-v", "clock"}, &o),
      "");
  EXPECT_EQ(o.status_filter, PM_VERIFIED | PM_CAVEAT);
  EXPECT_EQ(o.sources, unsigned{kSourceSoftware | kSourceTracepoint});
  EXPECT_TRUE(o.verbose);
  EXPECT_EQ(o.pattern, "clock");
  ASSERT_EQ(ParseOptions({"-g", "--json"}, &o), "");
  EXPECT_TRUE(o.groups && o.json);
  EXPECT_EQ(o.status_filter, PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT);
}

TEST(PmlistOptions, RefusesBadInput) {
  for (const std::vector<std::string> &args :
       std::vector<std::vector<std::string>>{{"-s"},
                                             {"-s", "good"},
                                             {"-s", "verified,"},
                                             {"--source", "gpu"},
                                             {"--bogus"},
                                             {"a", "b"},
                                             {""},
                                             {"--json=1"}}) {
    Options o;
    EXPECT_NE(ParseOptions(args, &o), "") << args[0];
  }
}

}  // namespace
}  // namespace pmlist
