// SPDX-License-Identifier: MIT
#include "regions.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void CallGetppid(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
}

void TouchFreshPages(long n) {
  if (n <= 0) return;
  const long page = sysconf(_SC_PAGESIZE);
  const size_t length = static_cast<size_t>(n * page);
  void *map = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return;
  // A huge page would satisfy 512 touches with one fault.
  madvise(map, length, MADV_NOHUGEPAGE);
  volatile char *bytes = static_cast<char *>(map);
  for (long i = 0; i < n; ++i) bytes[i * page] = 1;
  munmap(map, length);
}

namespace {

long long Nanoseconds(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec * 1000000000LL + now.tv_nsec;
}

}  // namespace

long long ThreadCpuNanoseconds() { return Nanoseconds(CLOCK_THREAD_CPUTIME_ID); }

long long WallNanoseconds() { return Nanoseconds(CLOCK_MONOTONIC); }

void BusyMilliseconds(long n) {
  timespec start, now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  const long long goal = static_cast<long long>(n) * 1000000;
  do {
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec) < goal);
}

void PingPong(long n, int read_fd, int write_fd) {
  char byte = 0;
  for (long i = 0; i < n; ++i) {
    if (write(write_fd, &byte, 1) != 1 || read(read_fd, &byte, 1) != 1) return;
  }
}

bool KnownInstructions(long n) {
  unsigned long loops = static_cast<unsigned long>((n + 1) / 2);
  if (loops == 0) return true;
#if defined(__x86_64__)
  // Two instructions per iteration: dec, jnz.
  __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(loops) : : "cc");
  return true;
#elif defined(__aarch64__)
  // Two instructions per iteration: subs, b.ne.
  __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(loops) : : "cc");
  return true;
#else
  return false;
#endif
}
