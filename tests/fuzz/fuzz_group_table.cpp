// SPDX-License-Identifier: MIT
// libFuzzer target: the groups/*.grp parser (src/catalog/tables.h) on arbitrary text,
// including every formula it compiles, which is then evaluated. A failure appends nothing and
// names the file and line; a success gives groups of 1..MAX_COUNTERS members with ids in range.
// The text may use the repeat notation of fuzz_repeat.h, for long lines and deep formulas.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "catalog/tables.h"
#include "fuzz_repeat.h"
#include "pmapi.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text =
      pmapi_fuzz::ExpandRepeats(std::string(reinterpret_cast<const char *>(data), size));
  std::vector<pmapi::GroupRecord> records;
  pmapi::Status status = pmapi::ParseGroupTable("fuzz.grp", text, &records);
  if (!status.ok()) {
    if (status.code() != Pmapi_BadCatalog || !records.empty()) abort();
    if (status.detail().compare(0, 9, "fuzz.grp:") != 0) abort();
    return 0;
  }
  for (const pmapi::GroupRecord &record : records) {
    if (record.id < pmapi::kFirstGroupId || record.id > pmapi::kLastGroupId) abort();
    if (record.members.empty() || record.members.size() > MAX_COUNTERS) abort();
    const std::vector<double> values(record.members.size(), 3.0);
    for (const pmapi::GroupMetric &metric : record.metrics) {
      (void)metric.compiled.Evaluate(values, 1.5);
    }
  }
  return 0;
}
