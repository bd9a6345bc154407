// SPDX-License-Identifier: MIT
// The catalog cache also holds the compiled-in groups, parsed, so that a restored catalog's
// groups need no parsing: they must be exactly what parsing gives, a site's groups
// ($PMAPI_GROUPS_DIR) must still be read afresh, and a damaged group section must be refused.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/settings.h"
#include "catalog/catalog.h"
#include "catalog/catalog_cache.h"
#include "catalog/catalog_contents.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"
#include "pmapi.h"
#include "support/fake_kernel.h"
#include "support/scratch_dir.h"

namespace {

using pmapi::Catalog;
using pmapi::GroupCatalog;
using pmapi::GroupRecord;

class CatalogCacheGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ + "/libpmapi-catalog.bin";
    pmapi::SetSetting(pmapi::kGroupsDirVariable, "");
    kernel_.SetFile("/sys/kernel/tracing/available_events",
                    "syscalls:sys_enter_getppid\nsyscalls:sys_enter_getpgid\nsched:sched_switch\n");
  }
  void TearDown() override { pmapi::SetSetting(pmapi::kGroupsDirVariable, ""); }
  std::unique_ptr<Catalog> Build() { return Catalog::BuildCached(path_); }

  pmapi_test::ScratchDir scratch_{"pmapi-cache-groups-test-"};
  std::string dir_ = scratch_.path();
  std::string path_;
  pmapi_test::FakeKernel kernel_;
  pmapi_test::ScopedKernel installed_{&kernel_};
};

void ExpectSameRecords(const std::vector<GroupRecord> &expected,
                       const std::vector<GroupRecord> &actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const GroupRecord &a = expected[i], &b = actual[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.short_name, b.short_name);
    EXPECT_EQ(a.long_name, b.long_name);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.origin, b.origin);
    EXPECT_EQ(a.members, b.members);
    EXPECT_EQ(a.client_id, b.client_id);
    ASSERT_EQ(a.metrics.size(), b.metrics.size()) << a.short_name;
    // Counts that give every formula a finite, distinct value.
    std::vector<double> counts;
    for (size_t m = 0; m < a.members.size(); ++m) counts.push_back(3.0 + 7.0 * m);
    for (size_t m = 0; m < a.metrics.size(); ++m) {
      EXPECT_EQ(a.metrics[m].name, b.metrics[m].name);
      EXPECT_EQ(a.metrics[m].formula, b.metrics[m].formula);
      EXPECT_EQ(a.metrics[m].description, b.metrics[m].description);
      EXPECT_DOUBLE_EQ(a.metrics[m].compiled.Evaluate(counts, 2.5),
                       b.metrics[m].compiled.Evaluate(counts, 2.5))
          << a.short_name << " " << a.metrics[m].name;
    }
  }
}

TEST_F(CatalogCacheGroups, RestoredGroupsAreWhatParsingGives) {
  std::vector<GroupRecord> parsed;
  ASSERT_TRUE(pmapi::LoadGroupTables(&parsed).ok());
  ASSERT_GT(parsed.size(), 10u);

  std::unique_ptr<Catalog> built = Build();
  ASSERT_FALSE(built->from_cache());
  std::unique_ptr<Catalog> restored = Build();
  ASSERT_TRUE(restored->from_cache());
  ASSERT_NE(restored->stored_groups(), nullptr);
  ExpectSameRecords(parsed, *restored->stored_groups());

  std::unique_ptr<GroupCatalog> from_file = GroupCatalog::Build(*restored);
  std::unique_ptr<Catalog> fresh = Catalog::Build();  // outlives the groups pointing into it
  std::unique_ptr<GroupCatalog> from_text = GroupCatalog::Build(*fresh);
  EXPECT_TRUE(from_file->from_cache());
  EXPECT_FALSE(from_text->from_cache());
  ASSERT_TRUE(from_file->load_status().ok());
  ASSERT_EQ(from_file->groups().size(), from_text->groups().size());
  EXPECT_EQ(from_file->id_limit(), from_text->id_limit());
  for (size_t i = 0; i < from_file->groups().size(); ++i) {
    const pmapi::ResolvedGroup &a = from_text->groups()[i], &b = from_file->groups()[i];
    EXPECT_EQ(a.id, b.id) << a.record.short_name;
    EXPECT_EQ(a.status, b.status) << a.record.short_name;
    EXPECT_EQ(a.missing_member, b.missing_member);
    ASSERT_EQ(a.members.size(), b.members.size());
    for (size_t m = 0; m < a.members.size(); ++m) {
      EXPECT_EQ(a.members[m]->id, b.members[m]->id);
      EXPECT_EQ(a.members[m]->short_name, b.members[m]->short_name);
    }
  }
  ASSERT_NE(from_file->FindName("pm_sw_basic"), nullptr);
  EXPECT_GE(from_file->FindName("pm_sw_basic")->id, 0) << "listed: software events are here";
}

TEST_F(CatalogCacheGroups, SiteGroupsAreReadAfreshAndNeverStored) {
  const std::string site = dir_ + "/groups";
  ASSERT_EQ(mkdir(site.c_str(), 0700), 0);
  std::ofstream(site + "/site.grp") << "50000 | pm_site | Site | Ours.\n  events task-clock\n";
  std::vector<GroupRecord> compiled;
  ASSERT_TRUE(pmapi::LoadGroupTables(&compiled).ok());
  // Stored by a process naming a site directory: the file holds the compiled-in groups only,
  // so that the processes after it, with or without the site, restore them.
  pmapi::SetSetting(pmapi::kGroupsDirVariable, site.c_str());
  std::unique_ptr<Catalog> first = Build();
  ASSERT_FALSE(first->from_cache());
  std::unique_ptr<GroupCatalog> first_groups = GroupCatalog::Build(*first);
  EXPECT_FALSE(first_groups->from_cache()) << "a process naming a site reads the tables";
  EXPECT_NE(first_groups->FindName("pm_site"), nullptr);
  std::unique_ptr<Catalog> restored = Build();
  ASSERT_TRUE(restored->from_cache());
  ASSERT_NE(restored->stored_groups(), nullptr);
  ExpectSameRecords(compiled, *restored->stored_groups());
  std::unique_ptr<GroupCatalog> groups = GroupCatalog::Build(*restored);
  EXPECT_FALSE(groups->from_cache());
  EXPECT_NE(groups->FindName("pm_site"), nullptr) << "read afresh";
  EXPECT_NE(groups->FindName("pm_basic"), nullptr);

  pmapi::SetSetting(pmapi::kGroupsDirVariable, "");
  groups = GroupCatalog::Build(*restored);
  EXPECT_TRUE(groups->from_cache());
  EXPECT_EQ(groups->FindName("pm_site"), nullptr) << "never stored";
  EXPECT_NE(groups->FindName("pm_basic"), nullptr);
}

// A site table's pins hold over a restored catalog, and leave nothing in the file: the process
// after it, without the site, has the shipped ids alone again.
TEST_F(CatalogCacheGroups, PinnedSiteGroupsHoldOverTheCacheAndAreNeverStored) {
  const std::string site = dir_ + "/groups";
  ASSERT_EQ(mkdir(site.c_str(), 0700), 0);
  std::ofstream(site + "/site.grp")
      << "50000 | pm_pinned | Pinned | Ours.\n  client-id 150\n  events task-clock\n";
  std::unique_ptr<Catalog> first = Build();  // writes the file, no site named yet
  ASSERT_FALSE(first->from_cache());
  std::unique_ptr<GroupCatalog> shipped = GroupCatalog::Build(*first);
  pmapi::SetSetting(pmapi::kGroupsDirVariable, site.c_str());
  std::unique_ptr<Catalog> restored = Build();
  ASSERT_TRUE(restored->from_cache());
  std::unique_ptr<GroupCatalog> groups = GroupCatalog::Build(*restored);
  ASSERT_TRUE(groups->load_status().ok()) << groups->load_status().detail();
  ASSERT_NE(groups->FindId(150), nullptr);
  EXPECT_EQ(groups->FindId(150)->record.short_name, "pm_pinned");
  EXPECT_EQ(groups->id_limit(), 151u);
  for (size_t id = 0; id < shipped->id_limit(); ++id) {
    EXPECT_EQ(groups->FindId(static_cast<int>(id))->record.short_name,
              shipped->FindId(static_cast<int>(id))->record.short_name);
  }
  pmapi::SetSetting(pmapi::kGroupsDirVariable, "");
  std::unique_ptr<Catalog> again = Build();
  ASSERT_TRUE(again->from_cache());
  groups = GroupCatalog::Build(*again);
  EXPECT_TRUE(groups->from_cache());
  EXPECT_EQ(groups->FindId(150), nullptr);
  EXPECT_EQ(groups->id_limit(), shipped->id_limit());
}

TEST_F(CatalogCacheGroups, DamagedGroupSectionIsRefused) {
  ASSERT_FALSE(Build()->from_cache());
  pmapi::CatalogContents contents;
  std::ifstream in(path_, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = pmapi::CatalogCacheKey();
  ASSERT_TRUE(pmapi::DeserializeCatalog(good, key, &contents));
  ASSERT_TRUE(contents.has_groups);
  pmapi::CatalogContents restored;
  EXPECT_TRUE(pmapi::DeserializeCatalog(pmapi::SerializeCatalog(key, contents), key, &restored));

  auto refused = [&](const char *what, auto damage) {
    pmapi::CatalogContents bad = contents;
    damage(&bad);
    pmapi::CatalogContents out;
    EXPECT_FALSE(pmapi::DeserializeCatalog(pmapi::SerializeCatalog(key, bad), key, &out)) << what;
  };
  refused("a formula that does not parse",
          [](pmapi::CatalogContents *c) { c->groups[0].metrics[0].formula = "(PM_CYC"; });
  refused("a formula naming a non-member",
          [](pmapi::CatalogContents *c) { c->groups[0].metrics[0].formula = "nobody / 2"; });
  refused("a group without members",
          [](pmapi::CatalogContents *c) { c->groups[0].members.clear(); });
  refused("too many members", [](pmapi::CatalogContents *c) {
    c->groups[0].members.assign(MAX_COUNTERS + 1, "task-clock");
  });
  refused("ids out of order", [](pmapi::CatalogContents *c) { c->groups[1].id = c->groups[0].id; });
  refused("an id out of range", [](pmapi::CatalogContents *c) { c->groups.back().id = 100000; });
  refused("a member position past the events", [](pmapi::CatalogContents *c) {
    c->member_positions[0] = static_cast<uint32_t>(c->events.size());
  });
  refused("a position missing", [](pmapi::CatalogContents *c) { c->member_positions.pop_back(); });
  refused("a filler position past the events", [](pmapi::CatalogContents *c) {
    c->filler_position = static_cast<uint32_t>(c->events.size()) + 7;
  });
}

// The stored positions only spare the name index: a position whose event has another name
// (which no intact file holds) still resolves the member by name.
TEST_F(CatalogCacheGroups, PositionNamingAnotherEventFallsBackToTheName) {
  ASSERT_FALSE(Build()->from_cache());
  std::ifstream in(path_, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = pmapi::CatalogCacheKey();
  pmapi::CatalogContents contents;
  ASSERT_TRUE(pmapi::DeserializeCatalog(good, key, &contents));
  ASSERT_FALSE(contents.member_positions.empty());
  ASSERT_NE(contents.member_positions[0], pmapi::kNoStoredPosition);
  const uint32_t right = contents.member_positions[0];
  contents.member_positions[0] = right == 0 ? 1 : 0;
  {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << pmapi::SerializeCatalog(key, contents);
  }
  std::unique_ptr<Catalog> restored = Build();
  ASSERT_TRUE(restored->from_cache());
  std::unique_ptr<GroupCatalog> groups = GroupCatalog::Build(*restored);
  ASSERT_TRUE(groups->from_cache());
  const pmapi::ResolvedGroup &first = groups->groups()[0];
  ASSERT_FALSE(first.members.empty());
  EXPECT_EQ(first.members[0]->short_name, first.record.members[0]);
  EXPECT_EQ(first.members[0], &restored->events()[right]);
}

}  // namespace
