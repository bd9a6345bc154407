/* SPDX-License-Identifier: MIT */
// The one way the Fuchsia layers make a buffer they hand out by descriptor (perfmon's trace
// buffers, the sampler's regions): a memfd of a fixed size, sealed so that it can neither
// shrink nor grow (a reader's mapping then never loses its pages), mapped shared. Header-only:
// libperfmon and libzx_sampler link no fuchsia_common.
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stddef.h>

namespace fuchsia_common {

struct SharedBuffer {
  int fd = -1;
  void *base = nullptr;
  size_t size = 0;
};

// Which step of MakeSharedBuffer failed, for a message.
enum class SharedBufferStep { kCreate, kSize, kSeal, kMap };

// Makes a sealed memfd named `name` of `bytes` and maps it read-write. Returns 0, or the errno
// with *failed saying which step; nothing is then left open or mapped.
inline int MakeSharedBuffer(const char *name, size_t bytes, SharedBuffer *out,
                            SharedBufferStep *failed) {
  const int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    *failed = SharedBufferStep::kCreate;
    return errno;
  }
  auto fail = [fd, failed](SharedBufferStep step) {
    const int err = errno;
    close(fd);
    *failed = step;
    return err;
  };
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) return fail(SharedBufferStep::kSize);
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0) {
    return fail(SharedBufferStep::kSeal);
  }
  void *base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return fail(SharedBufferStep::kMap);
  out->fd = fd;
  out->base = base;
  out->size = bytes;
  return 0;
}

}  // namespace fuchsia_common
