/* SPDX-License-Identifier: MIT */
// A scratch directory named by the table settings (PMAPI_EVENTS_DIR, PMAPI_GROUPS_DIR or both)
// for one test: the site tables a test writes there load as a site's would, and the directory
// and its files go away after the test.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/settings.h"

namespace pmapi_test {

class TableDirTest : public ::testing::Test {
 protected:
  explicit TableDirTest(std::vector<const char *> variables) : variables_(std::move(variables)) {}
  void SetUp() override {
    char pattern[] = "/tmp/pmapi_tables_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    for (const char *variable : variables_) pmapi::SetSetting(variable, dir_.c_str());
  }
  void TearDown() override {
    for (const char *variable : variables_) pmapi::SetSetting(variable, "");
    // Whatever a test left there: files, FIFOs, directories, links.
    ASSERT_EQ(system(("rm -rf '" + dir_ + "'").c_str()), 0);
  }
  // Writes `text` to dir_/name; returns its path.
  std::string Write(const std::string &name, const std::string &text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string Path(const std::string &name) const { return dir_ + "/" + name; }
  std::string dir_;

 private:
  std::vector<const char *> variables_;
};

// The record of `records` (event or group table records) with `id`, or nullptr.
template <typename Record>
const Record *FindById(const std::vector<Record> &records, int id) {
  for (const Record &record : records) {
    if (record.id == id) return &record;
  }
  return nullptr;
}

}  // namespace pmapi_test
