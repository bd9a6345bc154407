// Compiled-in group tables first, then the run-time directory; a run-time group with a known
// id replaces the compiled-in one.
#include "catalog/group_loader.h"

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

constexpr const char *kSuffix = ".grp";

bool EndsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status ParseDirectory(const std::string &dir, std::vector<GroupRecord> *records) {
  Kernel &kernel = CurrentKernel();
  std::vector<std::string> names;
  int err = kernel.ListDirectory(dir, &names);
  if (err < 0) {
    return Status(Pmapi_BadCatalog, std::string(kGroupsDirVariable) + "=" + dir +
                                        ": cannot list the directory: " + strerror(-err));
  }
  std::sort(names.begin(), names.end());
  Status first_error;
  for (const std::string &name : names) {
    if (!EndsWith(name, kSuffix)) continue;
    std::string path = dir + "/" + name;
    std::string text;
    err = kernel.ReadFile(path, &text);
    Status status = err < 0 ? Status(Pmapi_BadCatalog, path + ": cannot read: " + strerror(-err))
                            : ParseGroupTable(path, text, records);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

Status AlreadyUsed(const GroupRecord &record, const std::string &what,
                   const std::string &other_origin) {
  return Status(Pmapi_BadCatalog,
                record.origin + ": " + what + " is already used at " + other_origin);
}

// One id per layer (compiled-in, run-time); run-time ids replace compiled-in ones; short names
// must stay unique after that.
Status Merge(std::vector<GroupRecord> compiled, std::vector<GroupRecord> runtime,
             std::vector<GroupRecord> *merged) {
  Status first_error;
  auto note = [&first_error](const Status &status) {
    if (first_error.ok()) first_error = status;
  };
  std::map<int, GroupRecord> by_id;
  for (GroupRecord &record : compiled) {
    auto seen = by_id.find(record.id);
    if (seen != by_id.end()) {
      note(AlreadyUsed(record, "group id " + std::to_string(record.id), seen->second.origin));
      continue;
    }
    by_id.emplace(record.id, std::move(record));
  }
  std::unordered_map<int, std::string> runtime_origin;
  for (GroupRecord &record : runtime) {
    auto seen = runtime_origin.emplace(record.id, record.origin);
    if (!seen.second) {
      note(AlreadyUsed(record, "group id " + std::to_string(record.id), seen.first->second));
      continue;
    }
    by_id[record.id] = std::move(record);
  }
  std::unordered_map<std::string, std::string> origin_of_name;
  for (auto &entry : by_id) {
    GroupRecord &record = entry.second;
    auto seen = origin_of_name.emplace(record.short_name, record.origin);
    if (!seen.second) {
      note(AlreadyUsed(record, "group short name '" + record.short_name + "'", seen.first->second));
      continue;
    }
    merged->push_back(std::move(record));
  }
  return first_error;
}

}  // namespace

Status LoadGroupTables(std::vector<GroupRecord> *records) {
  Status first_error;
  std::vector<GroupRecord> compiled;
  for (const EmbeddedTable *table = kEmbeddedGroupTables; table->file_name; ++table) {
    Status status =
        ParseGroupTable(std::string("groups/") + table->file_name, table->text, &compiled);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  std::vector<GroupRecord> runtime;
  const char *dir = getenv(kGroupsDirVariable);
  if (dir && *dir) {
    Status status = ParseDirectory(dir, &runtime);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  Status merge_status = Merge(std::move(compiled), std::move(runtime), records);
  return first_error.ok() ? merge_status : first_error;
}

}  // namespace pmapi
