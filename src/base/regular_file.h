/* SPDX-License-Identifier: MIT */
// Opening, for reading, a file whose name someone else chose (a table directory named by the
// environment, a library a sampled process mapped): a FIFO there would block the open until a
// writer came, a device may act on being opened, and the name may be swapped between a look and
// the open. The rule: open without blocking (O_NONBLOCK), without claiming a terminal
// (O_NOCTTY), close-on-exec, then fstat what was opened and keep it only if it is a regular file.
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmapi {

// The descriptor of the regular file `path` (relative to `dir_fd`, or AT_FDCWD), or -errno:
// -EINVAL when what is there is no regular file (*info then says what it is). *info is what
// fstat said of the open file. `extra_flags` adds to the open's (O_NOFOLLOW).
inline int OpenRegularFile(int dir_fd, const char *path, struct stat *info, int extra_flags = 0) {
  const int fd = openat(dir_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | extra_flags);
  if (fd < 0) return -errno;
  if (fstat(fd, info) < 0) {
    const int err = errno;
    close(fd);
    return -err;
  }
  if (!S_ISREG(info->st_mode)) {
    close(fd);
    return -EINVAL;
  }
  return fd;
}

}  // namespace pmapi
