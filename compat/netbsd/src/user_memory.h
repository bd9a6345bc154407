/* SPDX-License-Identifier: MIT */
// NetBSD's kernel copies arguments in and results out with copyin/copyout and
// answers EFAULT for a bad pointer instead of crashing. A library cannot trap
// its own faults cheaply, but process_vm_readv/writev on its own pid make the
// kernel do the copy, and it reports an unmapped address as EFAULT.
#pragma once

#include <stddef.h>

namespace pmc_netbsd {

// Copies `size` bytes from the caller's `from` into `to`. Returns 0 or EFAULT.
int CopyIn(const void *from, void *to, size_t size);
// Copies `size` bytes from `from` to the caller's `to`. Returns 0 or EFAULT.
int CopyOut(const void *from, void *to, size_t size);

}  // namespace pmc_netbsd
