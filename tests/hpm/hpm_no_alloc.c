/* SPDX-License-Identifier: MIT */
/*
 * After a section's first use, hpmStart and hpmStop (and hpmTstart/hpmTstop,
 * nested, in another thread) allocate nothing: malloc, calloc and realloc are
 * interposed here and counted around 1,000 pairs of each.
 */
#define _GNU_SOURCE
#include <libhpm.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static __thread int counting;
static long allocations;

void *malloc(size_t size) {
  if (counting) __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) {
  if (counting) __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t size) {
  if (counting) __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_realloc(p, size);
}

static void pairs(int threaded) {
  int i;
  for (i = 0; i < 1000; ++i) {
    if (threaded) {
      hpmTstart(3, "outer");
      hpmTstart(4, "inner");
      hpmTstop(4);
      hpmTstop(3);
    } else {
      hpmStart(1, "outer");
      hpmStart(2, "inner");
      hpmStop(2);
      hpmStop(1);
    }
  }
}

static void *thread_body(void *unused) {
  (void)unused;
  pairs(1); /* first use in this thread: may set it up */
  counting = 1;
  pairs(1);
  counting = 0;
  return NULL;
}

int main(void) {
  pthread_t thread;
  hpmInit(0, "hpm_no_alloc");
  pairs(0);
  counting = 1;
  pairs(0);
  counting = 0;
  pthread_create(&thread, NULL, thread_body, NULL);
  pthread_join(thread, NULL);
  hpmTerminate(0);
  printf("allocations during 4,000 measured start/stop pairs: %ld\n", allocations);
  return allocations == 0 ? 0 : 1;
}
