// The two layers every text table kind has (events/*.tbl, groups/*.grp): the tables compiled
// into the library, then the files of a run-time directory a setting names (base/settings.h),
// whose records replace compiled-in ones of the same id. Both loaders, and the catalog cache
// key (which must change when the run-time files do), go through this one helper.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/settings.h"
#include "base/status.h"
#include "catalog/embedded_tables.h"
#include "pmapi.h"

namespace pmapi {

// One table kind: where its layers come from and how its records are named in errors.
struct TableLayers {
  const EmbeddedTable *compiled;     // terminated by a nullptr file name
  const char *compiled_folder;       // "events/": the label prefix of compiled-in tables
  const char *variable;              // "PMAPI_EVENTS_DIR": names the directory in errors
  std::string Settings::*directory;  // &Settings::events_dir, or nullptr for none
  const char *suffix;                // ".tbl": the files of the directory that are tables
  const char *record_word;           // "" or "group ": "<word>id 3 is already used at ..."
};

// Calls `visit(path, text)` for every `suffix` file of the `directory` setting, in name order,
// and returns the first error: the directory unlistable, a file unreadable or refused (only
// regular files up to kLargestTableFile are read, table_file.h), or what `visit` returned. Returns
// ok without a call when the setting is empty.
Status ForEachRuntimeTable(
    const TableLayers &layers,
    const std::function<Status(const std::string &path, const std::string &text)> &visit);

namespace layered_tables_detail {

inline Status AlreadyUsed(const std::string &origin, const std::string &what,
                          const std::string &other_origin) {
  return Status(Pmapi_BadCatalog, origin + ": " + what + " is already used at " + other_origin);
}

// One id per layer; run-time ids replace compiled-in ones; short names must stay unique after
// that. `merged` is sorted by id.
template <typename Record>
Status Merge(const TableLayers &layers, std::vector<Record> compiled, std::vector<Record> runtime,
             std::vector<Record> *merged) {
  Status first_error;
  auto note = [&first_error](const Status &status) {
    if (first_error.ok()) first_error = status;
  };
  const std::string word = layers.record_word;
  std::map<int, Record> by_id;
  for (Record &record : compiled) {
    auto seen = by_id.find(record.id);
    if (seen != by_id.end()) {
      note(AlreadyUsed(record.origin, word + "id " + std::to_string(record.id),
                       seen->second.origin));
      continue;
    }
    by_id.emplace(record.id, std::move(record));
  }
  std::unordered_map<int, std::string> runtime_origin;
  for (Record &record : runtime) {
    auto seen = runtime_origin.emplace(record.id, record.origin);
    if (!seen.second) {
      note(
          AlreadyUsed(record.origin, word + "id " + std::to_string(record.id), seen.first->second));
      continue;
    }
    by_id[record.id] = std::move(record);  // overrides a compiled-in record of that id
  }
  std::unordered_map<std::string, std::string> origin_of_name;
  for (auto &entry : by_id) {
    Record &record = entry.second;
    auto seen = origin_of_name.emplace(record.short_name, record.origin);
    if (!seen.second) {
      note(AlreadyUsed(record.origin, word + "short name '" + record.short_name + "'",
                       seen.first->second));
      continue;
    }
    merged->push_back(std::move(record));
  }
  return first_error;
}

}  // namespace layered_tables_detail

// Parses both layers with `parse` and merges them into `records`, sorted by id. Returns the
// first error met (file and line in the detail); the records are then still the usable ones (a
// bad file contributes nothing).
template <typename Record>
Status LoadLayeredTables(const TableLayers &layers,
                         Status (*parse)(const std::string &label, const std::string &text,
                                         std::vector<Record> *records),
                         std::vector<Record> *records) {
  Status first_error;
  auto note = [&first_error](const Status &status) {
    if (first_error.ok()) first_error = status;
  };
  std::vector<Record> compiled;
  for (const EmbeddedTable *table = layers.compiled; table->file_name; ++table) {
    note(parse(std::string(layers.compiled_folder) + table->file_name, table->text, &compiled));
  }
  std::vector<Record> runtime;
  note(ForEachRuntimeTable(layers, [&](const std::string &path, const std::string &text) {
    return parse(path, text, &runtime);
  }));
  Status merge_status =
      layered_tables_detail::Merge(layers, std::move(compiled), std::move(runtime), records);
  return first_error.ok() ? merge_status : first_error;
}

}  // namespace pmapi
