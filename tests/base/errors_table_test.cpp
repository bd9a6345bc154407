// SPDX-License-Identifier: MIT
// One error table, as data (src/base/errors.cpp), and three things that must agree with it: the
// header's enum, what pm_strerror says, and the table in docs/errors.md. A code added to one and
// not the others fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "base/last_error.h"
#include "pmapi.h"
#include "support/read_text.h"

namespace {

std::string ReadFile(const std::string &path) { return pmapi_test::ReadText(path); }

std::string SourceDir() {
  const char *dir = getenv("PMAPI_SOURCE_DIR");
  return dir ? dir : ".";
}

// Name -> value, from "Pmapi_X = N" in the header's enum.
std::map<std::string, int> CodesInHeader() {
  const std::string header = ReadFile(SourceDir() + "/include/pmapi.h");
  std::map<std::string, int> codes;
  std::regex entry(R"((Pmapi_\w+)\s*=\s*(\d+))");
  for (std::sregex_iterator it(header.begin(), header.end(), entry), end; it != end; ++it) {
    codes[(*it)[1]] = std::stoi((*it)[2]);
  }
  return codes;
}

// Name -> value, from the rows of docs/errors.md: "| 3 | `Pmapi_InvalidArg` |", and the one row
// that names a range of codes ("| 90–95 | `A`, `B`, ... |"), whose names take its values in order.
std::map<std::string, int> CodesInDocs() {
  const std::string docs = ReadFile(SourceDir() + "/docs/errors.md");
  std::map<std::string, int> codes;
  std::regex row(R"(\n\|\s*(\d+)(?:\s*(?:–|-)\s*(\d+))?\s*\|([^|]*)\|)");
  std::regex name(R"(`(Pmapi_\w+)`)");
  for (std::sregex_iterator it(docs.begin(), docs.end(), row), end; it != end; ++it) {
    int value = std::stoi((*it)[1]);
    const std::string names = (*it)[3];
    for (std::sregex_iterator n(names.begin(), names.end(), name); n != end; ++n) {
      codes[(*n)[1]] = value++;
    }
  }
  return codes;
}

std::map<std::string, int> CodesInTable() {
  std::map<std::string, int> codes;
  for (size_t i = 0; i < pmapi::kErrorTableSize; ++i) {
    const pmapi::ErrorInfo &error = pmapi::kErrorTable[i];
    EXPECT_TRUE(codes.emplace(error.name, error.code).second) << error.name << " twice";
  }
  return codes;
}

TEST(ErrorTable, TheHeaderAndTheTableAgree) {
  const std::map<std::string, int> header = CodesInHeader();
  ASSERT_GT(header.size(), 20u) << "the header's enum was not found";
  EXPECT_EQ(CodesInTable(), header);
}

TEST(ErrorTable, TheDocsAndTheTableAgree) {
  const std::map<std::string, int> docs = CodesInDocs();
  ASSERT_GT(docs.size(), 20u) << "docs/errors.md's table was not found";
  EXPECT_EQ(CodesInTable(), docs);
}

TEST(ErrorTable, EveryCodeHasItsOwnSentenceInPmStrerror) {
  std::set<int> values;
  for (size_t i = 0; i < pmapi::kErrorTableSize; ++i) {
    const pmapi::ErrorInfo &error = pmapi::kErrorTable[i];
    EXPECT_TRUE(values.insert(error.code).second) << "value " << error.code << " twice";
    const std::string text = pm_strerror("", error.code);
    EXPECT_EQ(text.rfind(error.message, 0), 0u) << error.name << ": " << text;
    EXPECT_EQ(text.find("unknown pmapi error code"), std::string::npos) << error.name;
  }
  EXPECT_NE(std::string(pm_strerror("", 12345)).find("unknown pmapi error code"),
            std::string::npos);
}

}  // namespace
