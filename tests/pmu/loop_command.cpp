// pmu_loop N: runs the suite's loop N times (2N user-mode instructions) and exits: a command
// with a known instruction count for the tools (pmcount, pmsample) to count in the guest.
#include <stdlib.h>

#include "guest_support.h"

int main(int argc, char **argv) {
  const unsigned long long n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 0;
  if (n > 0) pmu_guest::Loop(n);
  return 0;
}
