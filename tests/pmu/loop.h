/* SPDX-License-Identifier: MIT */
/*
 * The suite's loop, whose user-mode instruction count is known exactly, in C: for the C++ tests
 * (guest_support.h) and for the examples built for the guest (example_workload.c).
 */
#ifndef PMU_GUEST_LOOP_H
#define PMU_GUEST_LOOP_H

#include <stdint.h>

#if defined(__aarch64__)
/* 2 instructions an iteration (subs, b.ne), n >= 1 iterations. */
static inline void pmu_loop(uint64_t n) {
  __asm__ volatile(
      "1: subs %0, %0, #1\n"
      "   b.ne 1b\n"
      : "+r"(n)
      :
      : "cc");
}
#define PMU_LOOP_INSTRUCTIONS_PER_ITERATION 2
#elif defined(__powerpc64__)
/* 1 instruction an iteration (bdnz counts the count register down), after one mtctr; n >= 1. */
static inline void pmu_loop(uint64_t n) {
  __asm__ volatile(
      "   mtctr %0\n"
      "1: bdnz 1b\n"
      :
      : "r"(n)
      : "ctr");
}
#define PMU_LOOP_INSTRUCTIONS_PER_ITERATION 1
#else
#error "tests/pmu counts aarch64 or ppc64le instruction loops"
#endif

#endif
