// SPDX-License-Identifier: MIT
#include "user_memory.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

namespace pmc_netbsd {
namespace {

// Returns 0, EFAULT, or -1 when the kernel refused the call itself (a seccomp
// filter or an old kernel), in which case the caller falls back to memcpy and
// only a NULL pointer is caught.
int KernelCopy(bool in, const void *from, void *to, size_t size) {
  iovec local{};
  iovec remote{};
  if (in) {
    local = {to, size};
    remote = {const_cast<void *>(from), size};
  } else {
    local = {const_cast<void *>(from), size};
    remote = {to, size};
  }
  ssize_t n = in ? process_vm_readv(getpid(), &local, 1, &remote, 1, 0)
                 : process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
  if (n == static_cast<ssize_t>(size)) return 0;
  if (n >= 0 || errno == EFAULT) return EFAULT;  // short copy: the range ends in a hole
  return -1;
}

int Copy(bool in, const void *from, void *to, size_t size) {
  if ((in ? from : to) == nullptr) return EFAULT;
  int saved_errno = errno;
  int result = KernelCopy(in, from, to, size);
  errno = saved_errno;
  if (result >= 0) return result;
  memcpy(to, from, size);
  return 0;
}

}  // namespace

int CopyIn(const void *from, void *to, size_t size) { return Copy(true, from, to, size); }
int CopyOut(const void *from, void *to, size_t size) { return Copy(false, from, to, size); }

}  // namespace pmc_netbsd
