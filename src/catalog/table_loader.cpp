// SPDX-License-Identifier: MIT
// The one loader of the text tables (tables.h). Every kind has the same two layers: the tables
// compiled into the library, then the files of a run-time directory a setting names
// (base/settings.h), whose records replace compiled-in ones of the same id. The directory is
// opened once and each file is read relative to it, only when it is a regular file of bounded
// size. Groups add one check of their own: the pinned client ids.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "base/settings.h"
#include "base/small_file.h"
#include "catalog/tables.h"
#include "pmapi.h"

namespace pmapi {

// ---- One run-time file: read by the library's one rule for small files (base/small_file.h) ---

Status ReadTableFile(int dir_fd, const std::string &name, const std::string &label,
                     std::string *text) {
  std::string why;
  switch (ReadSmallFile(dir_fd, name.c_str(), kLargestTableFile, "a table file", text, &why)) {
    case SmallFile::kRead:
      return Status::Ok();
    case SmallFile::kAbsent:
      why = std::string("cannot read: ") + strerror(ENOENT);
      break;
    case SmallFile::kRefused:
      break;
  }
  return Status(Pmapi_BadCatalog, label + ": " + why);
}

namespace {

// ---- The run-time layer ------------------------------------------------------------------

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// One table kind: where its layers come from and how its records are named in errors.
struct TableLayers {
  const EmbeddedTable *compiled;     // terminated by a nullptr file name
  const char *compiled_folder;       // "events/": the label prefix of compiled-in tables
  const char *variable;              // "PMAPI_EVENTS_DIR": names the directory in errors
  std::string Settings::*directory;  // &Settings::events_dir, or nullptr for none
  const char *suffix;                // ".tbl": the files of the directory that are tables
  const char *record_word;           // "" or "group ": "<word>id 3 is already used at ..."
};

bool EndsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The names in the directory open as `dir_fd` (which stays open); 0 or -errno.
int ListNames(int dir_fd, std::vector<std::string> *names) {
  int listing_fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing_fd < 0) return -errno;
  DIR *dir = fdopendir(listing_fd);
  if (!dir) {
    int err = errno;
    close(listing_fd);
    return -err;
  }
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names->push_back(std::move(name));
  }
  closedir(dir);  // closes listing_fd
  return 0;
}

// Calls `visit(path, text)` for every `suffix` file of the `directory` setting, in name order,
// and returns the first error: the directory unlistable, a file unreadable or refused (only
// regular files up to kLargestTableFile are read, ReadTableFile), or what `visit` returned. Returns
// ok without a call when the setting is empty.
Status ForEachRuntimeTable(
    const TableLayers &layers,
    const std::function<Status(const std::string &path, const std::string &text)> &visit) {
  if (!layers.directory) return Status::Ok();
  const std::string &dir = CurrentSettings().*layers.directory;
  if (dir.empty()) return Status::Ok();
  auto unlistable = [&](int err) {
    return Status(Pmapi_BadCatalog, std::string(layers.variable) + "=" + dir +
                                        ": cannot list the directory: " + strerror(err));
  };
  // O_NONBLOCK: the variable may name a FIFO, whose opening would wait for a writer.
  int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  if (dir_fd < 0) return unlistable(errno);
  Descriptor closed(dir_fd);  // also when `visit` throws
  std::vector<std::string> names;
  int err = ListNames(dir_fd, &names);
  if (err < 0) return unlistable(-err);
  std::sort(names.begin(), names.end());  // readdir order is not stable; file order is
  Status first_error;
  for (const std::string &name : names) {
    if (!EndsWith(name, layers.suffix)) continue;
    std::string path = dir + "/" + name;
    std::string text;
    Status status = ReadTableFile(dir_fd, name, path, &text);
    if (status.ok()) status = visit(path, text);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

// ---- Both layers, merged -----------------------------------------------------------------

Status AlreadyUsed(const std::string &origin, const std::string &what,
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
  Status merge_status = Merge(layers, std::move(compiled), std::move(runtime), records);
  return first_error.ok() ? merge_status : first_error;
}

// ---- Groups' pinned ids ------------------------------------------------------------------

// Drops every pinned group whose id an unpinned group could have, or that another pin already
// took, and returns the first such error (naming the client-id line). The unpinned groups take
// 0, 1, 2, ... in table-id order, as many as there are records without a pin: counting every
// record, listable here or not, keeps a site table valid or invalid on every machine alike.
Status CheckPinnedIds(std::vector<GroupRecord> *records) {
  int unpinned = 0;
  for (const GroupRecord &record : *records) unpinned += record.client_id == kUnpinned;
  Status first_error;
  std::unordered_map<int, std::string> pinned_at;
  std::vector<GroupRecord> kept;
  kept.reserve(records->size());
  for (GroupRecord &record : *records) {
    std::string problem;
    if (record.client_id != kUnpinned && record.client_id < unpinned) {
      problem = "client id " + std::to_string(record.client_id) + " of group " + record.short_name +
                " is taken: the " + std::to_string(unpinned) +
                " groups without a client-id line have ids 0.." + std::to_string(unpinned - 1) +
                "; pin " + std::to_string(unpinned) + " or more";
    } else if (record.client_id != kUnpinned) {
      auto seen = pinned_at.emplace(record.client_id, record.client_id_origin);
      if (!seen.second) {
        problem = "client id " + std::to_string(record.client_id) + " of group " +
                  record.short_name + " is already pinned at " + seen.first->second;
      }
    }
    if (problem.empty()) {
      kept.push_back(std::move(record));
    } else if (first_error.ok()) {
      first_error = Status(Pmapi_BadCatalog, record.client_id_origin + ": " + problem);
    }
  }
  records->swap(kept);
  return first_error;
}

Status LoadAndCheck(const TableLayers &layers, std::vector<GroupRecord> *records) {
  Status status = LoadLayeredTables(layers, ParseGroupTable, records);
  Status pins = CheckPinnedIds(records);
  return status.ok() ? pins : status;
}

}  // namespace

// ---- The two kinds -----------------------------------------------------------------------

Status LoadEventTables(std::vector<TableRecord> *records) {
  static const TableLayers kLayers{kEmbeddedEventTables,  "events/", kEventsDirVariable,
                                   &Settings::events_dir, ".tbl",    ""};
  return LoadLayeredTables(kLayers, ParseEventTable, records);
}

Status LoadGroupTables(std::vector<GroupRecord> *records) {
  static const TableLayers kLayers{kEmbeddedGroupTables,  "groups/", kGroupsDirVariable,
                                   &Settings::groups_dir, ".grp",    "group "};
  return LoadAndCheck(kLayers, records);
}

Status LoadCompiledGroupTables(std::vector<GroupRecord> *records) {
  // No setting names a directory: the first layer alone.
  static const TableLayers kCompiledOnly{
      kEmbeddedGroupTables, "groups/", "", nullptr, ".grp", "group "};
  return LoadAndCheck(kCompiledOnly, records);
}

bool RuntimeGroupTablesNamed() { return !CurrentSettings().groups_dir.empty(); }

}  // namespace pmapi
