// SPDX-License-Identifier: MIT
#include "core/library_thread.h"

#include <dlfcn.h>
#include <errno.h>

namespace pmapi {

namespace {

using PthreadCreate = int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

thread_local bool t_starting = false;

}  // namespace

int StartLibraryThread(pthread_t *thread, void *(*routine)(void *), void *arg) {
  static const PthreadCreate first = [] {
    void *found = dlsym(RTLD_DEFAULT, "pthread_create");
    if (!found) found = dlsym(RTLD_NEXT, "pthread_create");
    return reinterpret_cast<PthreadCreate>(found);
  }();
  if (!first) return EAGAIN;
  t_starting = true;
  const int err = first(thread, nullptr, routine, arg);
  t_starting = false;
  return err;
}

bool StartingLibraryThread() { return t_starting; }

}  // namespace pmapi
