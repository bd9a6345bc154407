// New threads inherit their creator's PM context, as on AIX: the same
// program and counting state, counts starting at zero, in a context of their
// own. Linux has no such kernel notion (perf's `inherit` would sum the new
// thread into its creator's counts), so libpmapi interposes pthread_create:
// when the creating thread has a context, the new thread starts in a
// trampoline that opens its own context before running the client's routine.
// Threads created without pthread_create (raw clone) inherit nothing; see
// docs/counting.md.
#include <dlfcn.h>
#include <pthread.h>

#include <memory>
#include <new>

#include "base/last_error.h"
#include "core/counting_group.h"
#include "core/my_thread.h"
#include "core/registry.h"

// The sanitizer runtimes' pthread_create (see RealPthreadCreate); null without one.
extern "C" int __interceptor_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                            void *) __attribute__((weak));
// ThreadSanitizer's runtime; null without it.
extern "C" void __tsan_init() __attribute__((weak));

namespace pmapi {

// Referenced from my_thread.cpp: in a static link against libpmapi.a, it is
// what pulls this object (and so the interposer) into every program that
// programs a thread.
extern const bool kThreadInheritanceLinked = true;

namespace {

using PthreadCreate = int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// Whether the pthread_create that callers reach first is this one, i.e. libpmapi's objects are
// linked into the executable itself rather than loaded as libpmapi.so.
bool OursComesFirst() {
  void *first = dlsym(RTLD_DEFAULT, "pthread_create");
  Dl_info first_object, our_object;
  return first && dladdr(first, &first_object) &&
         dladdr(reinterpret_cast<void *>(&OursComesFirst), &our_object) &&
         first_object.dli_fbase == our_object.dli_fbase;
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
  // A failure here cannot be returned to anyone: the thread runs without a
  // context and its pm_*_mythread calls say so (Pmapi_NoSetProg) with this reason.
  RecordMissedInheritance(CreateMyThreadContext(std::move(start->program), start->counting,
                                                std::move(start->group), /*new_member=*/true));
  void *(*routine)(void *) = start->routine;
  void *arg = start->arg;
  start.reset();
  return routine(arg);
}

}  // namespace
}  // namespace pmapi

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t *thread,
                                                                     const pthread_attr_t *attr,
                                                                     void *(*routine)(void *),
                                                                     void *arg) {
  using namespace pmapi;
  PthreadCreate real = RealPthreadCreate();
  const Context *creator = t_my_context;
  if (!creator || !creator->program().inherit_to_new_threads() ||
      (creator->group() && creator->group()->revoked()) || !TrampolineAllowed()) {
    return real(thread, attr, routine, arg);
  }
  auto *start = new (std::nothrow)
      InheritedStart{routine, arg, creator->program(), creator->counting(), creator->group_ref()};
  if (!start) return real(thread, attr, routine, arg);
  int rc = real(thread, attr, &StartWithInheritedContext, start);
  if (rc != 0) delete start;
  return rc;
}
