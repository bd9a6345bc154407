// Bounded, non-blocking reads of regular table files only (table_file.h).
#include "catalog/table_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "pmapi.h"

namespace pmapi {
namespace {

// Why `info` is not something to read as a table, or "".
std::string Refusal(const struct stat &info) {
  if (S_ISREG(info.st_mode)) {
    if (static_cast<unsigned long long>(info.st_size) <= kLargestTableFile) return "";
    return "is " + std::to_string(info.st_size) + " bytes, more than the " +
           std::to_string(kLargestTableFile) + " bytes a table file may have";
  }
  const char *kind = S_ISDIR(info.st_mode)    ? "a directory"
                     : S_ISFIFO(info.st_mode) ? "a FIFO"
                     : S_ISCHR(info.st_mode)  ? "a character device"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                                              : "not a regular file";
  return std::string("is ") + kind + ", not a regular file";
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Status ReadTableFile(int dir_fd, const std::string &name, const std::string &label,
                     std::string *text) {
  text->clear();
  auto refuse = [&label](const std::string &why) {
    return Status(Pmapi_BadCatalog, label + ": " + why);
  };
  // Look before opening: opening a device can itself do something (rewind a tape, claim a
  // terminal). The check after opening is the one that counts, the file could be swapped.
  struct stat info;
  if (fstatat(dir_fd, name.c_str(), &info, 0) < 0) {
    return refuse(std::string("cannot read: ") + strerror(errno));
  }
  std::string why = Refusal(info);
  if (!why.empty()) return refuse(why);
  Descriptor file(openat(dir_fd, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (file.get() < 0) return refuse(std::string("cannot read: ") + strerror(errno));
  if (fstat(file.get(), &info) < 0) return refuse(std::string("cannot read: ") + strerror(errno));
  why = Refusal(info);
  if (!why.empty()) return refuse(why);

  // One byte more than the cap is asked for, so that a file grown since fstat is seen too.
  std::string contents(static_cast<size_t>(info.st_size) + 1, '\0');
  size_t used = 0;
  for (;;) {
    if (used == contents.size()) {
      if (used > kLargestTableFile) break;
      contents.resize(std::min(used * 2, kLargestTableFile + 1));
    }
    ssize_t n = read(file.get(), &contents[used], contents.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return refuse(std::string("cannot read: ") + strerror(errno));
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  if (used > kLargestTableFile) {
    return refuse("grew past the " + std::to_string(kLargestTableFile) +
                  " bytes a table file may have while it was read");
  }
  contents.resize(used);
  *text = std::move(contents);
  return Status::Ok();
}

}  // namespace pmapi
