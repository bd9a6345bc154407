/* SPDX-License-Identifier: MIT */
// Reading a small text file whose name someone else chose (a table of PMAPI_EVENTS_DIR, the
// libHPMevents of the working directory), by regular_file.h's rule: look before opening (a
// device can act on being opened, a FIFO would block), open without blocking, look again at
// what was opened (the name may have been swapped), and read at most a bound, seeing a file
// that grew past it while it was read. Header-only, so that libhpm and the tools, which link
// no library internals, read by the same rule.
#pragma once

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "base/regular_file.h"

namespace pmapi {

enum class SmallFile { kRead, kAbsent, kRefused };

// Why `info` is not a file of at most `limit` bytes to read, or "": "is a FIFO, not a regular
// file", "is 9000 bytes, more than the 4096 bytes <what> may have".
inline std::string SmallFileRefusal(const struct stat &info, size_t limit, const char *what) {
  if (S_ISREG(info.st_mode)) {
    if (static_cast<unsigned long long>(info.st_size) <= limit) return "";
    return "is " + std::to_string(info.st_size) + " bytes, more than the " + std::to_string(limit) +
           " bytes " + what + " may have";
  }
  const char *kind = S_ISDIR(info.st_mode)    ? "a directory"
                     : S_ISFIFO(info.st_mode) ? "a FIFO"
                     : S_ISCHR(info.st_mode)  ? "a character device"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                                              : "not a regular file";
  return std::string("is ") + kind + ", not a regular file";
}

// Reads `path` (relative to `dir_fd`, or AT_FDCWD) into *text. kAbsent: nothing has that name.
// kRefused: *why says what is wrong, in words that follow the file's name (SmallFileRefusal's,
// "cannot read: <reason>", "grew past the <limit> bytes <what> may have while it was read");
// *text is then empty. `what` names the file's kind in those words ("a table file").
// `open_flags` adds to the open's (O_NOFOLLOW where a link must not be followed).
inline SmallFile ReadSmallFile(int dir_fd, const char *path, size_t limit, const char *what,
                               std::string *text, std::string *why, int open_flags = 0) {
  text->clear();
  auto refuse = [why](const std::string &reason) {
    *why = reason;
    return SmallFile::kRefused;
  };
  auto cannot_read = [&](int err) { return refuse(std::string("cannot read: ") + strerror(err)); };
  struct stat info;
  if (fstatat(dir_fd, path, &info, (open_flags & O_NOFOLLOW) ? AT_SYMLINK_NOFOLLOW : 0) < 0) {
    return errno == ENOENT ? SmallFile::kAbsent : cannot_read(errno);
  }
  std::string reason = SmallFileRefusal(info, limit, what);
  if (!reason.empty()) return refuse(reason);
  const int fd = OpenRegularFile(dir_fd, path, &info, open_flags);
  if (fd == -EINVAL) return refuse(SmallFileRefusal(info, limit, what));
  if (fd == -ENOENT) return SmallFile::kAbsent;  // gone since the look
  if (fd < 0) return cannot_read(-fd);
  reason = SmallFileRefusal(info, limit, what);
  if (!reason.empty()) {
    close(fd);
    return refuse(reason);
  }
  // One byte more than the bound is asked for, so that a file grown since fstat is seen too.
  std::string contents(static_cast<size_t>(info.st_size) + 1, '\0');
  size_t used = 0;
  int err = 0;
  for (;;) {
    if (used == contents.size()) {
      if (used > limit) break;
      contents.resize(used * 2 < limit + 1 ? used * 2 : limit + 1);
    }
    const ssize_t n = read(fd, &contents[used], contents.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    used += static_cast<size_t>(n);
  }
  close(fd);
  if (err) return cannot_read(err);
  if (used > limit) {
    return refuse("grew past the " + std::to_string(limit) + " bytes " + what +
                  " may have while it was read");
  }
  contents.resize(used);
  *text = std::move(contents);
  return SmallFile::kRead;
}

}  // namespace pmapi
