/* SPDX-License-Identifier: MIT */
// A site group table under $PMAPI_GROUPS_DIR for a whole test binary, written before anything
// reads the groups (the group catalog is built once per process). Install it with
//   ::testing::Environment *const g_site = ::testing::AddGlobalTestEnvironment(
//       new pmapi_test::SiteGroupTable(text));
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "base/settings.h"
#include "support/scratch_dir.h"

namespace pmapi_test {

class SiteGroupTable : public ::testing::Environment {
 public:
  explicit SiteGroupTable(std::string text) : text_(std::move(text)) {}
  void SetUp() override {
    dir_ = std::make_unique<ScratchDir>("pmapi_site_groups_");
    std::ofstream(dir_->File("site.grp")) << text_;
    pmapi::SetSetting(pmapi::kGroupsDirVariable, dir_->path().c_str());
  }
  void TearDown() override { dir_.reset(); }

 private:
  std::string text_;
  std::unique_ptr<ScratchDir> dir_;
};

}  // namespace pmapi_test
