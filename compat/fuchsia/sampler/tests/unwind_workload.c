/* A known call chain in code built without frame pointers (-O2 -fomit-frame-pointer, with
 * .eh_frame): main -> outer -> middle -> leaf, where leaf spins. Only DWARF unwinding finds
 * leaf's callers; the frame-pointer chain cannot.
 *
 *   unwind_workload [iterations]   (default 300000000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* noipa: no inlining, cloning or interprocedural shortcuts, so each function keeps its frame;
 * each caller uses the result after the call, so no call is a tail call. */
__attribute__((noipa)) static uint64_t leaf(uint64_t n) {
  uint64_t x = n;
  for (uint64_t i = 0; i < n; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

__attribute__((noipa)) static uint64_t middle(uint64_t n) { return leaf(n) ^ (n << 1); }

__attribute__((noipa)) static uint64_t outer(uint64_t n) { return middle(n) + (n >> 3); }

int main(int argc, char** argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 300000000u;
  uint64_t x = outer(n);
  /* Printed so that nothing of the chain is dead code. */
  printf("%llu\n", (unsigned long long)(x & 1));
  return 0;
}
