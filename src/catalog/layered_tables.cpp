// Reading the run-time layer of a table kind: the directory is opened once and every file is
// read relative to it (table_file.h says which files are read at all).
#include "catalog/layered_tables.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>

#include "catalog/table_file.h"

namespace pmapi {
namespace {

bool EndsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The names in the directory open as `dir_fd` (which stays open); 0 or -errno.
int ListNames(int dir_fd, std::vector<std::string> *names) {
  int listing_fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing_fd < 0) return -errno;
  DIR *dir = fdopendir(listing_fd);
  if (!dir) {
    int err = errno;
    close(listing_fd);
    return -err;
  }
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names->push_back(std::move(name));
  }
  closedir(dir);  // closes listing_fd
  return 0;
}

struct ClosedOnReturn {
  int fd;
  ~ClosedOnReturn() { close(fd); }
};

}  // namespace

Status ForEachRuntimeTable(
    const TableLayers &layers,
    const std::function<Status(const std::string &path, const std::string &text)> &visit) {
  if (!layers.directory) return Status::Ok();
  const std::string &dir = CurrentSettings().*layers.directory;
  if (dir.empty()) return Status::Ok();
  auto unlistable = [&](int err) {
    return Status(Pmapi_BadCatalog, std::string(layers.variable) + "=" + dir +
                                        ": cannot list the directory: " + strerror(err));
  };
  // O_NONBLOCK: the variable may name a FIFO, whose opening would wait for a writer.
  int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  if (dir_fd < 0) return unlistable(errno);
  ClosedOnReturn closed{dir_fd};  // also when `visit` throws
  std::vector<std::string> names;
  int err = ListNames(dir_fd, &names);
  if (err < 0) return unlistable(-err);
  std::sort(names.begin(), names.end());  // readdir order is not stable; file order is
  Status first_error;
  for (const std::string &name : names) {
    if (!EndsWith(name, layers.suffix)) continue;
    std::string path = dir + "/" + name;
    std::string text;
    Status status = ReadTableFile(dir_fd, name, path, &text);
    if (status.ok()) status = visit(path, text);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

}  // namespace pmapi
