/* SPDX-License-Identifier: MIT */
// Where hpmcount's and hpmstat's reports go: standard output, or the -o file, opened before
// anything runs by the tools' one output-file policy (src/tools/common/output_file.h).
#pragma once

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <string>

#include "output_file.h"

namespace aix {

class Destination {
 public:
  // "" for standard output. Returns false with `error` ("cannot write PATH: why").
  bool Open(const std::string &path, std::string *error) {
    if (path.empty()) return true;
    *error = file_.OpenStream(path);
    return error->empty();
  }
  // Returns "" or "cannot write ...: why".
  std::string Write(const std::string &text) {
    if (file_.fd() >= 0) return file_.Write(text.data(), text.size());
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(STDOUT_FILENO, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        return std::string("cannot write standard output: ") + strerror(n < 0 ? errno : EIO);
      }
      done += static_cast<size_t>(n);
    }
    return "";
  }

 private:
  tools::OutputFile file_;
};

}  // namespace aix
