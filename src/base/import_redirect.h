/* SPDX-License-Identifier: MIT */
// Pointing the imports of one function, in every loaded ELF object, at a replacement: the
// objects' own jump slots and GOT entries are rewritten, so the redirection holds whatever the
// symbol search order (a library dlopen'd, or loaded after libc, cannot interpose by name).
#pragma once

namespace pmapi {

// Points every import of `symbol` (jump slots and GOT entries whose symbol the object does not
// define itself) at `replacement`, in every loaded object except the one holding `own_code`
// and the vDSO. Objects that define `symbol` (libc, an interposer, a sanitizer runtime) keep
// their references. Pages made read-only by RELRO are made writable for the write and then
// read-only again. `*loaded_objects` (0 at first) keeps the count of objects the process had
// loaded at the last pass: when none was loaded since, the call does nothing. The pass holds
// the loader's lock (dl_iterate_phdr), which serializes concurrent calls and dlopen, and which
// glibc resets in a forked child. Returns the number of slots rewritten; 0 where the
// architecture is not supported (x86-64 and AArch64 are).
int RedirectImports(const char *symbol, void *replacement, const void *own_code,
                    unsigned long long *loaded_objects);

}  // namespace pmapi
