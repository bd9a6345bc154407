// SPDX-License-Identifier: MIT
#include "base/tracefs.h"

#include <stdlib.h>
#include <unistd.h>

#include "base/kernel.h"

namespace pmapi {

std::string FindTracefsRoot(const char *file, std::string *text) {
  Kernel &kernel = CurrentKernel();
  for (const char *root : kTracefsRoots) {
    const std::string path = std::string(root) + "/" + file;
    if (text ? kernel.ReadFile(path, text) == 0 : kernel.Access(path, R_OK) == 0) return root;
  }
  return "";
}

std::string TracepointIdPath(const std::string &root, const std::string &name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos) return "";
  return root + "/events/" + name.substr(0, colon) + "/" + name.substr(colon + 1) + "/id";
}

int ReadTracepointId(const std::string &path, uint64_t *id, std::string *text) {
  const int err = CurrentKernel().ReadFile(path, text);
  if (err < 0) return err;
  char *end = nullptr;
  const unsigned long long value = strtoull(text->c_str(), &end, 10);
  if (end == text->c_str()) return 1;
  *id = value;
  return 0;
}

}  // namespace pmapi
