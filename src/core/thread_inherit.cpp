// SPDX-License-Identifier: MIT
// New threads inherit their creator's PM context, as on AIX: the same
// program and counting state, counts starting at zero, in a context of their
// own. Linux has no such kernel notion (perf's `inherit` would sum the new
// thread into its creator's counts), so libpmapi wraps pthread_create: when
// the creating thread has a context, the new thread starts in a trampoline
// that opens its own context before running the client's routine.
// Two ways in, so that it does not depend on the symbol search order: the
// exported pthread_create interposes when libpmapi comes before libc; when it
// does not (dlopen'd, loaded as another library's dependency), every loaded
// object's pthread_create imports are pointed at the wrapper once a thread
// programs inheritance. Threads created without pthread_create (raw clone)
// inherit nothing; see docs/counting.md.
#include <dlfcn.h>
#include <pthread.h>

#include <memory>
#include <new>

#include "base/engine_counts.h"
#include "base/import_redirect.h"
#include "base/last_error.h"
#include "core/counting_group.h"
#include "core/library_thread.h"
#include "core/my_thread.h"
#include "core/registry.h"
#include "core/thread_inherit.h"

// The sanitizer runtimes' pthread_create (see RealPthreadCreate); null without one.
extern "C" int __interceptor_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                            void *) __attribute__((weak));
// ThreadSanitizer's runtime; null without it.
extern "C" void __tsan_init() __attribute__((weak));

namespace pmapi {

namespace {

using PthreadCreate = int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// Whether the pthread_create that callers reach first is this one: libpmapi's objects are
// linked into the executable, or libpmapi.so comes before libc in the search order. Fixed for
// the process's life: objects loaded later join the search order after those already there.
bool OursComesFirst() {
  static const bool first = [] {
    void *found = dlsym(RTLD_DEFAULT, "pthread_create");
    Dl_info first_object, our_object;
    return found && dladdr(found, &first_object) &&
           dladdr(reinterpret_cast<void *>(&OursComesFirst), &our_object) &&
           first_object.dli_fbase == our_object.dli_fbase;
  }();
  return first;
}

PthreadCreate RealPthreadCreate() {
  // A sanitizer runtime (ASan, TSan) in the executable defines pthread_create as a weak alias
  // of __interceptor_pthread_create. When libpmapi's objects are linked into that executable
  // (as the tests are), our strong definition replaces it and RTLD_NEXT from there reaches
  // libc: threads would start unknown to the sanitizer. Then call the interceptor, which goes
  // on to libc. When libpmapi.so is loaded instead, the interceptor comes first and calls us:
  // RTLD_NEXT is right, and calling it back would recurse.
  static PthreadCreate real = [] {
    if (&__interceptor_pthread_create && OursComesFirst()) return &__interceptor_pthread_create;
    return reinterpret_cast<PthreadCreate>(dlsym(RTLD_NEXT, "pthread_create"));
  }();
  return real;
}

// Whether the new thread may run our start routine first. Not when libpmapi.so sits below
// ThreadSanitizer's interceptor: the routine we are handed is TSan's own thread start, and our
// (instrumented) trampoline would run before TSan has set the thread up, and crash. Such a
// program's new threads start without an inherited context (docs/reliability.md).
bool TrampolineAllowed() {
  static const bool allowed = !(&__tsan_init && !OursComesFirst());
  return allowed;
}

struct InheritedStart {
  void *(*routine)(void *);
  void *arg;
  Program program;
  bool counting;
  std::shared_ptr<CountingGroup> group;  // membership is inherited too (§1.4)
};

void *StartWithInheritedContext(void *raw) {
  std::unique_ptr<InheritedStart> start(static_cast<InheritedStart *>(raw));
  CountEngineEvent(EngineEvent::kInheritedThreadStarted);
  // A failure here cannot be returned to anyone: the thread runs without a
  // context and its pm_*_mythread calls say so (Pmapi_NoSetProg) with this reason.
  RecordMissedInheritance(CreateMyThreadContext(std::move(start->program), start->counting,
                                                std::move(start->group), /*new_member=*/true));
  void *(*routine)(void *) = start->routine;
  void *arg = start->arg;
  start.reset();
  return routine(arg);
}

// Starts a thread through `next`, in the trampoline when the creator's context is to be
// inherited.
int CreateInheriting(PthreadCreate next, bool trampoline_allowed, pthread_t *thread,
                     const pthread_attr_t *attr, void *(*routine)(void *), void *arg) {
  CountEngineEvent(EngineEvent::kThreadStartWrapped);
  const Context *creator = t_my_context;
  if (!creator || StartingLibraryThread() || !creator->program().inherit_to_new_threads() ||
      (creator->group() && creator->group()->revoked()) || !trampoline_allowed) {
    return next(thread, attr, routine, arg);
  }
  auto *start = new (std::nothrow)
      InheritedStart{routine, arg, creator->program(), creator->counting(), creator->group_ref()};
  if (!start) return next(thread, attr, routine, arg);
  int rc = next(thread, attr, &StartWithInheritedContext, start);
  if (rc != 0) delete start;
  return rc;
}

// Set while a redirected call goes on to the process's first pthread_create: when that is a
// sanitizer's interceptor which calls the exported one below, the thread is wrapped once.
thread_local bool t_redirected_call = false;

// What the rewritten import slots point at. Their objects bound pthread_create to the first
// definition in the search order (libc, or a sanitizer's interceptor that ends in libc): the
// call goes on there. Our trampoline is then the routine the interceptor starts, after it set
// the thread up, so inheritance works under ThreadSanitizer too.
int RedirectedPthreadCreate(pthread_t *thread, const pthread_attr_t *attr, void *(*routine)(void *),
                            void *arg) {
  static const PthreadCreate first = [] {
    auto found = reinterpret_cast<PthreadCreate>(dlsym(RTLD_DEFAULT, "pthread_create"));
    return found ? found : RealPthreadCreate();
  }();
  t_redirected_call = true;
  int rc = CreateInheriting(first, /*trampoline_allowed=*/true, thread, attr, routine, arg);
  t_redirected_call = false;
  return rc;
}

}  // namespace

void RouteNewThreadsThroughInheritance() {
  if (OursComesFirst()) return;  // every object's pthread_create is the exported one already
  // Guarded by the loader's lock, which RedirectImports holds: a pass when no object was loaded
  // since the last costs one step of dl_iterate_phdr.
  static unsigned long long loaded_objects = 0;
  RedirectImports("pthread_create", reinterpret_cast<void *>(&RedirectedPthreadCreate),
                  reinterpret_cast<const void *>(&RedirectedPthreadCreate), &loaded_objects);
}

}  // namespace pmapi

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t *thread,
                                                                     const pthread_attr_t *attr,
                                                                     void *(*routine)(void *),
                                                                     void *arg) {
  using namespace pmapi;
  if (t_redirected_call) return RealPthreadCreate()(thread, attr, routine, arg);
  return CreateInheriting(RealPthreadCreate(), TrampolineAllowed(), thread, attr, routine, arg);
}
