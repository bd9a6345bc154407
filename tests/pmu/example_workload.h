/* SPDX-License-Identifier: MIT */
/*
 * Forced ahead of an example's source in the guest build (CMakeLists.txt here): the example's
 * syscall() calls go to pmu_example_syscall (example_workload.c), which runs the suite's loop in
 * place of getppid. The example's source is not changed.
 */
#ifndef PMU_GUEST_EXAMPLE_WORKLOAD_H
#define PMU_GUEST_EXAMPLE_WORKLOAD_H

long pmu_example_syscall(long number, ...);
/* Turns <unistd.h>'s declaration of syscall into one of pmu_example_syscall too. */
#define syscall(...) pmu_example_syscall(__VA_ARGS__)

#endif
