// libFuzzer target: the events/*.tbl parser (src/catalog/table_parser.h) on arbitrary text.
// Besides not crashing, it holds the parser to its contract: a failure appends nothing and names
// the file and line; a success appends records whose ids are in the table range.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "catalog/table_parser.h"
#include "pmapi.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<pmapi::TableRecord> records(1);  // one record already there: must survive
  records[0].id = 7;
  pmapi::Status status = pmapi::ParseEventTable("fuzz.tbl", text, &records);
  if (records.empty() || records[0].id != 7) abort();
  if (!status.ok()) {
    if (status.code() != Pmapi_BadCatalog || records.size() != 1) abort();
    if (status.detail().compare(0, 9, "fuzz.tbl:") != 0) abort();
    return 0;
  }
  for (size_t i = 1; i < records.size(); ++i) {
    const pmapi::TableRecord &record = records[i];
    if (record.id < pmapi::kFirstTableId || record.id > pmapi::kLastTableId) abort();
    if (record.short_name.empty() || record.pfm_alternatives.empty()) abort();
  }
  return 0;
}
