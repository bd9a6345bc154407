/* SPDX-License-Identifier: MIT */
// A directory of its own under /tmp, for one test or one test binary, removed with everything
// a test left in it (files, FIFOs, links, directories) when it goes.
#pragma once

#include <errno.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <string.h>

#include <string>

namespace pmapi_test {

class ScratchDir {
 public:
  // /tmp/<prefix>XXXXXX
  explicit ScratchDir(const std::string &prefix) {
    std::string pattern = "/tmp/" + prefix + "XXXXXX";
    if (mkdtemp(&pattern[0]) == nullptr) {
      ADD_FAILURE() << "mkdtemp " << pattern << ": " << strerror(errno);
      return;
    }
    path_ = pattern;
  }
  ~ScratchDir() {
    if (!path_.empty() && system(("rm -rf '" + path_ + "'").c_str()) != 0) {
      ADD_FAILURE() << "could not remove " << path_;
    }
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  const std::string &path() const { return path_; }
  std::string File(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace pmapi_test
