/* SPDX-License-Identifier: MIT */
// A whole file as text ("" when it cannot be read): headers, docs and output files the tests
// compare against.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace pmapi_test {

inline std::string ReadText(const std::string &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace pmapi_test
