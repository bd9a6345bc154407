// Reading the run-time layer of a table kind through the kernel seam.
#include "catalog/layered_tables.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "core/kernel.h"

namespace pmapi {
namespace {

bool EndsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Status ForEachRuntimeTable(
    const TableLayers &layers,
    const std::function<Status(const std::string &path, const std::string &text)> &visit) {
  const char *dir = getenv(layers.variable);
  if (!dir || !*dir) return Status::Ok();
  Kernel &kernel = CurrentKernel();
  std::vector<std::string> names;
  int err = kernel.ListDirectory(dir, &names);
  if (err < 0) {
    return Status(Pmapi_BadCatalog, std::string(layers.variable) + "=" + dir +
                                        ": cannot list the directory: " + strerror(-err));
  }
  std::sort(names.begin(), names.end());  // readdir order is not stable; file order is
  Status first_error;
  for (const std::string &name : names) {
    if (!EndsWith(name, layers.suffix)) continue;
    std::string path = std::string(dir) + "/" + name;
    std::string text;
    err = kernel.ReadFile(path, &text);
    Status status = err < 0 ? Status(Pmapi_BadCatalog, path + ": cannot read: " + strerror(-err))
                            : visit(path, text);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

}  // namespace pmapi
