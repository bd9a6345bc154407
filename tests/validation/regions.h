/* SPDX-License-Identifier: MIT */
// The measured regions of the validation workloads: each does exactly what
// its name says, so that the expected count is known in advance.
#pragma once

// Exactly n getppid system calls (through syscall(2), which libc cannot
// cache): syscalls:sys_enter_getppid fires n times.
void CallGetppid(long n);

// Writes one byte to each of n fresh anonymous pages (transparent huge
// pages off for the mapping): n page faults.
void TouchFreshPages(long n);

// Spins until this thread has used n milliseconds of CPU. task-clock counts
// the time the thread is on a CPU, by the clock: that is this CPU time plus
// what a hypervisor stole from the guest meanwhile, which CPU time leaves
// out. So the count is checked against the region's measured times
// (RegionTimes), not n alone.
void BusyMilliseconds(long n);

// The thread's CPU time (CLOCK_THREAD_CPUTIME_ID) and the wall time
// (CLOCK_MONOTONIC), in ns.
long long ThreadCpuNanoseconds();
long long WallNanoseconds();

// n round trips of one byte over a pipe pair with a partner on the same
// CPU: the measuring thread blocks (switches out) once per round trip.
void PingPong(long n, int read_fd, int write_fd);

// A loop of exactly n user-mode instructions (n even, rounded up to even) on x86-64 and
// AArch64; returns false on other architectures.
bool KnownInstructions(long n);
