/* SPDX-License-Identifier: MIT */
// The user registers a sample carries for DWARF unwinding (PERF_SAMPLE_REGS_USER): which ones
// to ask the kernel for on this architecture, and how they become libdw's DWARF registers.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace zx_sampler {

// The perf register mask (attr.sample_regs_user) for this architecture; 0 where DWARF
// unwinding is not supported here.
uint64_t UserRegisterMask();
// How many registers a sample holds for UserRegisterMask() (its set bits).
size_t UserRegisterCount();

// The registers of a sample (in the mask's bit order) as DWARF registers 0..*count-1 and the
// PC: what libdw's set_initial_registers takes.
struct DwarfRegisters {
  uint64_t values[40];
  size_t count = 0;
  uint64_t pc = 0;
  uint64_t sp = 0;  // where the copied stack starts
};
bool ToDwarfRegisters(const uint64_t* sampled, size_t sampled_count, DwarfRegisters* out);

}  // namespace zx_sampler
