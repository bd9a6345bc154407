// Compiled-in tables first, then the run-time directory; a run-time record with a known id
// replaces the compiled-in one.
#include "catalog/table_loader.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "catalog/embedded_tables.h"
#include "core/kernel.h"
#include "pmapi.h"

namespace pmapi {
namespace {

bool EndsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Parses every *.tbl file of `dir` in name order into `records`.
Status ParseDirectory(const std::string &dir, std::vector<TableRecord> *records) {
  Kernel &kernel = CurrentKernel();
  std::vector<std::string> names;
  int err = kernel.ListDirectory(dir, &names);
  if (err < 0) {
    return Status(Pmapi_BadCatalog, std::string(kEventsDirVariable) + "=" + dir +
                                        ": cannot list the directory: " + strerror(-err));
  }
  std::sort(names.begin(), names.end());
  Status first_error;
  for (const std::string &name : names) {
    if (!EndsWith(name, ".tbl")) continue;
    std::string path = dir + "/" + name;
    std::string text;
    err = kernel.ReadFile(path, &text);
    Status status = err < 0 ? Status(Pmapi_BadCatalog, path + ": cannot read: " + strerror(-err))
                            : ParseEventTable(path, text, records);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

// Duplicate ids among the run-time files are errors; so are records of different ids sharing
// a short name once overrides are applied.
Status Merge(std::vector<TableRecord> compiled, std::vector<TableRecord> runtime,
             std::vector<TableRecord> *merged) {
  Status first_error;
  auto note = [&first_error](const Status &status) {
    if (first_error.ok()) first_error = status;
  };
  // Within one layer (compiled-in, or run-time) an id may appear once.
  std::map<int, TableRecord> by_id;
  for (TableRecord &record : compiled) {
    auto seen = by_id.find(record.id);
    if (seen != by_id.end()) {
      note(Status(Pmapi_BadCatalog, record.origin + ": id " + std::to_string(record.id) +
                                        " is already used at " + seen->second.origin));
      continue;
    }
    by_id.emplace(record.id, std::move(record));
  }
  std::unordered_map<int, std::string> runtime_origin;
  for (TableRecord &record : runtime) {
    auto seen = runtime_origin.emplace(record.id, record.origin);
    if (!seen.second) {
      note(Status(Pmapi_BadCatalog, record.origin + ": id " + std::to_string(record.id) +
                                        " is already used at " + seen.first->second));
      continue;
    }
    by_id[record.id] = std::move(record);  // overrides a compiled-in record of that id
  }
  std::unordered_map<std::string, std::string> origin_of_name;
  for (auto &entry : by_id) {
    TableRecord &record = entry.second;
    auto seen = origin_of_name.emplace(record.short_name, record.origin);
    if (!seen.second) {
      note(Status(Pmapi_BadCatalog, record.origin + ": short name '" + record.short_name +
                                        "' is already used at " + seen.first->second));
      continue;
    }
    merged->push_back(std::move(record));
  }
  return first_error;
}

}  // namespace

Status LoadEventTables(std::vector<TableRecord> *records) {
  Status first_error;
  std::vector<TableRecord> compiled;
  for (const EmbeddedTable *table = kEmbeddedEventTables; table->file_name; ++table) {
    Status status =
        ParseEventTable(std::string("events/") + table->file_name, table->text, &compiled);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  std::vector<TableRecord> runtime;
  const char *dir = getenv(kEventsDirVariable);
  if (dir && *dir) {
    Status status = ParseDirectory(dir, &runtime);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  Status merge_status = Merge(std::move(compiled), std::move(runtime), records);
  return first_error.ok() ? merge_status : first_error;
}

}  // namespace pmapi
