// SPDX-License-Identifier: MIT
// libFuzzer target: pm_set_program* with arbitrary pm_prog_t contents (mode bits, event ids,
// thresholds, is_group ids) on the system-wide, _mythread, _thread (this very thread) and
// _mygroup families. A program that sets is read, started, stopped, reset and deleted; one that
// does not must leave no context. Either way every perf descriptor is closed afterwards, or the
// target aborts. Event ids are drawn from pm_initialize's lists as often as raw, so that the
// fuzzer reaches the kernel and not only the validation.
//
// Built twice from this file (tests/fuzz/CMakeLists.txt): fuzz_set_program_sim, with
// PMAPI_FUZZ_SIMULATED_KERNEL, answers every perf call from an in-memory kernel
// (support/simulated_perf_kernel.h) and runs thousands of inputs a second, for the long runs;
// fuzz_set_program makes the real system calls (about 150 inputs a second) and gets a short
// run, so that what the simulation does not model is still met. Both share one seed corpus,
// tests/fuzz/corpus/fuzz_set_program/.
#include <fuzzer/FuzzedDataProvider.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/kernel.h"
#include "pmapi.h"
#include "support/counting.h"
#ifdef PMAPI_FUZZ_SIMULATED_KERNEL
#include "support/simulated_perf_kernel.h"
#endif

namespace {

pm_info2_t g_info;
pm_groups_info_t g_groups;
int g_baseline_fds = -1;

#ifdef PMAPI_FUZZ_SIMULATED_KERNEL
pmapi_test::SimulatedPerfKernel *g_kernel = nullptr;
#endif

// The perf descriptors open now, less the fork counter's anchor kept for the process's life.
int OpenPerfDescriptors() {
#ifdef PMAPI_FUZZ_SIMULATED_KERNEL
  return g_kernel->LibraryDescriptors();
#else
  return pmapi_test::CountPerfDescriptors();
#endif
}

enum Family { kSystem, kMyThread, kThread, kMyGroup, kFamilies };

int Set(int family, pm_prog_t *prog) {
  switch (family) {
    case kSystem:
      return pm_set_program(prog);
    case kMyThread:
      return pm_set_program_mythread(prog);
    case kThread:
      return pm_set_program_thread(getpid(), gettid(), prog);
    default:
      return pm_set_program_mygroup(prog);
  }
}

// Reads, starts, stops, resets, reads; the codes do not matter (a hardware event may be
// refused, the program may not count), only that nothing crashes.
void Exercise(int family) {
  pm_data_t data;
  pm_accu_time_t times;
  switch (family) {
    case kSystem:
      pm_get_Tdata(&data, &times);
      pm_start();
      pm_get_data_cpu(0, &data);
      pm_stop();
      pm_reset_data();
      pm_get_data_lcpu(0, &data);
      break;
    case kMyThread:
      pm_get_Tdata_mythread(&data, &times);
      pm_start_mythread();
      pm_stop_mythread();
      pm_reset_data_mythread();
      pm_get_data_mythread(&data);
      break;
    case kThread:
      pm_get_Tdata_thread(getpid(), gettid(), &data, &times);
      pm_start_thread(getpid(), gettid());
      pm_stop_thread(getpid(), gettid());
      pm_reset_data_thread(getpid(), gettid());
      break;
    default:
      pm_get_Tdata_mygroup(&data, &times);
      pm_start_mygroup();
      pm_stop_mygroup();
      pm_reset_data_mygroup();
      pm_get_data_mygroup(&data);
      break;
  }
}

int Delete(int family) {
  switch (family) {
    case kSystem:
      return pm_delete_program();
    case kMyThread:
      return pm_delete_program_mythread();
    case kThread:
      return pm_delete_program_thread(getpid(), gettid());
    default:
      return pm_delete_program_mygroup();
  }
}

int EventFor(FuzzedDataProvider *input, int counter) {
  switch (input->ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return COUNT_NOTHING;
    case 1:
    case 2: {
      const int n = g_info.maxevents[counter];
      if (n <= 0) return COUNT_NOTHING;
      return g_info.list_events[counter][input->ConsumeIntegral<uint16_t>() % n].event_id;
    }
    default:
      return input->ConsumeIntegral<int>();
  }
}

int GroupId(FuzzedDataProvider *input) {
  if (input->ConsumeBool() && g_groups.maxgroups > 0) {
    return g_groups.event_groups[input->ConsumeIntegral<uint16_t>() % g_groups.maxgroups].group_id;
  }
  return input->ConsumeIntegral<int>();
}

void Fail(const char *what, int family, int rc) {
  fprintf(stderr, "fuzz_set_program: %s (family %d, rc %d: %s)\n", what, family, rc,
          pm_strerror("last", rc));
  abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &g_info,
                         &g_groups, PM_CURRENT);
  if (rc != 0) {
    pm_error("fuzz_set_program: pm_initialize", rc);
    abort();
  }
#ifdef PMAPI_FUZZ_SIMULATED_KERNEL
  // After pm_initialize: the catalog is built from this machine as usual.
  g_kernel = new pmapi_test::SimulatedPerfKernel;
  pmapi::SetKernelForTesting(g_kernel);
#endif
  g_baseline_fds = OpenPerfDescriptors();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider input(data, size);
  const int family = input.ConsumeIntegralInRange<int>(0, kFamilies - 1);
  pm_prog_t prog;
  prog.mode.w = input.ConsumeIntegral<int>();
  for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
    prog.events[counter] = EventFor(&input, counter);
  }
  if (prog.mode.b.is_group) prog.events[0] = GroupId(&input);

  const int rc = Set(family, &prog);
  if (rc == 0) {
    Exercise(family);
    const int deleted = Delete(family);
    if (deleted != 0) Fail("delete after a successful set failed", family, deleted);
  } else if (Delete(family) != Pmapi_NoSetProg) {
    Fail("a failed set left a context behind", family, rc);
  }
  if (OpenPerfDescriptors() != g_baseline_fds) Fail("descriptors leaked", family, rc);
  return 0;
}
