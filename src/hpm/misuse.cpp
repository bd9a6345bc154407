// SPDX-License-Identifier: MIT
// Bad-use messages: once per kind, to stderr, prefixed "libhpm:".
#include "misuse.h"

#include <stdio.h>

namespace hpm {
namespace {

struct Text {
  const char *key;
  const char *message;
};

const Text kTexts[] = {
    {"before_init", "libhpm call before hpmInit (or after hpmTerminate): ignored"},
    {"init_twice", "hpmInit called again before hpmTerminate: ignored"},
    {"terminate_twice", "hpmTerminate without a run in progress (called twice?): ignored"},
    {"id_out_of_range", "section id out of range 0..HPM_NUM_INST_PTS (100 unless set): ignored"},
    {"stop_without_start", "hpmStop of a section this thread has not started: ignored"},
    {"unbalanced",
     "hpmStop of a section whose nested sections are still open: they are stopped first"},
    {"started_twice",
     "hpmStart of a section this thread has open already: counted once, from the first start"},
    {"too_deep", "too many nested sections open in one thread: the innermost is not counted"},
    {"open_at_terminate", "sections still open at hpmTerminate: stopped there"},
};
static_assert(sizeof kTexts / sizeof kTexts[0] == static_cast<int>(Misuse::kCount),
              "one text per kind");

std::atomic<bool> g_said[static_cast<int>(Misuse::kCount)];

}  // namespace

const char *MisuseKey(Misuse kind) { return kTexts[static_cast<int>(kind)].key; }

void Report(Misuse kind, MisuseCounts *counts, const char *file, int line, long id) {
  int k = static_cast<int>(kind);
  if (counts) counts->counts[k].fetch_add(1, std::memory_order_relaxed);
  if (g_said[k].exchange(true, std::memory_order_relaxed)) return;
  char where[320] = "";
  if (file && *file) snprintf(where, sizeof where, " at %s:%d", file, line);
  char which[48] = "";
  if (id >= 0) snprintf(which, sizeof which, " (section %ld)", id);
  fprintf(stderr, "libhpm: %s%s%s; further cases are counted in the report, not shown\n",
          kTexts[k].message, which, where);
}

void ForgetWhatWasTold() {
  for (std::atomic<bool> &said : g_said) said.store(false, std::memory_order_relaxed);
}

}  // namespace hpm
