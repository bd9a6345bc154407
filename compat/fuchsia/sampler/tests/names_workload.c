/* SPDX-License-Identifier: MIT */
/* Functions whose names a terminal must not take as its own: pmsample's summary prints names
 * as the program has them. Assembler names, since C has no such identifiers.
 *   names_workload SECONDS   SECONDS of CPU in each of: a function whose name holds escape
 *                            sequences (clear the screen, set the title, a C1 CSI), and one
 *                            whose name runs 2 KB, as C++ templates' do */
#include <stdlib.h>
#include <time.h>

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned long sink;

#define SPIN(seconds)                                                       \
  double end = thread_cpu_seconds() + (seconds);                            \
  unsigned long x = 1;                                                      \
  while (thread_cpu_seconds() < end)                                        \
    for (int i = 0; i < 20000; ++i) {                                       \
      x = x * 6364136223846793005ul + 1442695040888963407ul;                \
      __asm__ volatile("" : "+r"(x)); /* kept: clang would fold the loop */ \
    }                                                                       \
  sink = x;

#define TEN(s) s s s s s s s s s s
#define LONG_PART "ns::Wrapper<ns::Pair<int, long>, "

void escape_name(double seconds) __asm__(
    "\"esc\x1b[2J\x1b]0;owned\x07\xc2\x9b"
    "end\"");
__attribute__((noinline)) void escape_name(double seconds) { SPIN(seconds) }

/* 60 template arguments, about 2 KB, then "end>::run" */
void long_name(double seconds) __asm__("\"" TEN(LONG_PART) TEN(LONG_PART) TEN(LONG_PART)
                                           TEN(LONG_PART) TEN(LONG_PART)
                                               TEN(LONG_PART) "end>::run\"");
__attribute__((noinline)) void long_name(double seconds) { SPIN(seconds) }

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.2;
  escape_name(seconds);
  long_name(seconds);
  return (int)(sink & 0);
}
