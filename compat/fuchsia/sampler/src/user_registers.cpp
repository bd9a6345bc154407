// SPDX-License-Identifier: MIT
// The kernel numbers the registers of PERF_SAMPLE_REGS_USER its own way (asm/perf_regs.h) and
// writes those of the mask in bit order; the DWARF ABI of each architecture numbers them
// another way. x86-64: the general registers and rip (flags and segments are not needed to
// unwind). aarch64: x0..x30, sp and pc, the same order in both numberings.
#include "user_registers.h"

#include <asm/perf_regs.h>

namespace zx_sampler {

#if defined(__x86_64__)

namespace {
// DWARF x86-64 register n (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8..15 r8..r15)
// is perf's register kDwarfToPerf[n].
constexpr int kDwarfToPerf[16] = {
    PERF_REG_X86_AX,  PERF_REG_X86_DX,  PERF_REG_X86_CX,  PERF_REG_X86_BX,
    PERF_REG_X86_SI,  PERF_REG_X86_DI,  PERF_REG_X86_BP,  PERF_REG_X86_SP,
    PERF_REG_X86_R8,  PERF_REG_X86_R9,  PERF_REG_X86_R10, PERF_REG_X86_R11,
    PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15};
}  // namespace

uint64_t UserRegisterMask() {
  uint64_t mask = uint64_t{1} << PERF_REG_X86_IP;
  for (int perf : kDwarfToPerf) mask |= uint64_t{1} << perf;
  return mask;
}

bool ToDwarfRegisters(const uint64_t* sampled, size_t sampled_count, DwarfRegisters* out) {
  if (sampled_count != UserRegisterCount()) return false;
  // The sample holds the mask's registers in bit order: the index of perf register r is the
  // number of mask bits below it.
  const uint64_t mask = UserRegisterMask();
  auto value = [&](int perf) {
    return sampled[__builtin_popcountll(mask & ((uint64_t{1} << perf) - 1))];
  };
  for (size_t n = 0; n < 16; ++n) out->values[n] = value(kDwarfToPerf[n]);
  out->count = 16;
  out->pc = value(PERF_REG_X86_IP);
  out->sp = value(PERF_REG_X86_SP);
  return true;
}

#elif defined(__aarch64__)

uint64_t UserRegisterMask() { return (uint64_t{1} << PERF_REG_ARM64_MAX) - 1; }

bool ToDwarfRegisters(const uint64_t* sampled, size_t sampled_count, DwarfRegisters* out) {
  if (sampled_count != UserRegisterCount()) return false;
  for (size_t n = 0; n <= PERF_REG_ARM64_SP; ++n) out->values[n] = sampled[n];  // x0..x30, sp
  out->count = PERF_REG_ARM64_SP + 1;
  out->pc = sampled[PERF_REG_ARM64_PC];
  out->sp = sampled[PERF_REG_ARM64_SP];
  return true;
}

#else

uint64_t UserRegisterMask() { return 0; }

bool ToDwarfRegisters(const uint64_t*, size_t, DwarfRegisters*) { return false; }

#endif

size_t UserRegisterCount() { return static_cast<size_t>(__builtin_popcountll(UserRegisterMask())); }

}  // namespace zx_sampler
