// SPDX-License-Identifier: MIT
// The catalog cache file: where it is, its key, its bytes, and reading and writing it through the
// kernel seam.
#include "catalog/catalog_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <string_view>

#include "pmapi.h"

#include "base/kernel.h"
#include "base/settings.h"
#include "catalog/event_sources.h"
#include "catalog/group_formula.h"
#include "catalog/pfm_bridge.h"
#include "catalog/tables.h"

namespace pmapi {
namespace {

// Far above any real catalog (~350 KB for ~2500 events): a larger file is not even checksummed.
constexpr size_t kLargestFile = 64u << 20;

// A new random id each boot.
constexpr const char *kBootIdFile = "/proc/sys/kernel/random/boot_id";

// Site tables and libpfm4's variables change the catalog in ways the key does not name.
bool SettingsShapeTheCatalog(const Settings &settings) {
  return !settings.events_dir.empty() || settings.libpfm_variables;
}

// The hash: eight bytes per step with one multiply, in eight independent lanes (64 bytes a
// round) so that the processor overlaps their multiplies: ~27 us for a 340 KB file here, where
// four lanes cost ~48 us and one lane, each step waiting for the last, ~70 us; a
// byte-at-a-time hash (FNV) would cost several times that, of a budget of half a millisecond.
constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;

uint64_t Step(uint64_t hash, uint64_t word) {
  hash = (hash ^ word) * kMultiplier;
  return hash ^ (hash >> 31);
}

// The file's bytes (layout: catalog_cache.h).
constexpr char kMagic[8] = {'P', 'M', 'A', 'P', 'I', 'C', 'A', 'T'};
// The cache's one format version: bumped whenever the layout or the meaning of a stored field
// changes.
constexpr uint32_t kLayoutVersion = 5;  // 5: metrics carry their description
// The fewest payload bytes one event takes (id, source, status, known flag, four empty
// strings): bounds the event count a damaged file may claim before anything is allocated.
constexpr size_t kSmallestEvent = 4 + 3 + 4 * 4;
// Likewise for a group (id, client id, four empty strings, one empty member, no metric) and a
// metric.
constexpr size_t kSmallestGroup = 4 + 4 + 4 * 4 + 4 + 4 + 4 + 4;
constexpr size_t kSmallestMetric = 3 * 4;

class Writer {
 public:
  explicit Writer(std::string *out) : out_(out) {}
  template <typename T>
  void Put(T value) {
    out_->append(reinterpret_cast<const char *>(&value), sizeof value);
  }
  void PutString(const std::string &text) {
    Put(static_cast<uint32_t>(text.size()));
    out_->append(text);
  }

 private:
  std::string *out_;
};

class Reader {
 public:
  Reader(const char *begin, const char *end) : at_(begin), end_(end) {}
  template <typename T>
  bool Get(T *value) {
    if (static_cast<size_t>(end_ - at_) < sizeof *value) return false;
    memcpy(value, at_, sizeof *value);
    at_ += sizeof *value;
    return true;
  }
  bool GetView(size_t size, std::string_view *view) {
    if (static_cast<size_t>(end_ - at_) < size) return false;
    *view = std::string_view(at_, size);
    at_ += size;
    return true;
  }
  bool GetString(std::string *text) {
    uint32_t size = 0;
    std::string_view view;
    if (!Get(&size) || !GetView(size, &view)) return false;
    text->assign(view.data(), view.size());
    return true;
  }
  bool GetSize(size_t *value) {
    uint64_t wide = 0;
    if (!Get(&wide) || wide > SIZE_MAX) return false;
    *value = static_cast<size_t>(wide);
    return true;
  }
  size_t remaining() const { return static_cast<size_t>(end_ - at_); }

 private:
  const char *at_;
  const char *end_;
};

void PutEvent(Writer *writer, const CatalogEvent &event) {
  writer->Put(static_cast<int32_t>(event.id));
  writer->Put(static_cast<uint8_t>(event.source));
  writer->Put(static_cast<uint8_t>(event.status));
  writer->Put(static_cast<uint8_t>(event.encoded.known));
  if (event.encoded.known) {
    writer->Put(event.encoded.type);
    writer->Put(event.encoded.config);
    writer->Put(event.encoded.config1);
    writer->Put(event.encoded.config2);
  }
  writer->PutString(event.short_name);
  writer->PutString(event.long_name);
  writer->PutString(event.description);
  writer->PutString(event.encoding);
}

bool GetEvent(Reader *reader, CatalogEvent *event) {
  int32_t id = 0;
  uint8_t source = 0, status = 0, known = 0;
  if (!reader->Get(&id) || !reader->Get(&source) || !reader->Get(&status) || !reader->Get(&known)) {
    return false;
  }
  if (source > static_cast<uint8_t>(EventSource::kTracepoint) ||
      status > static_cast<uint8_t>(EventStatus::kCaveat) || known > 1) {
    return false;
  }
  event->id = id;
  event->source = static_cast<EventSource>(source);
  event->status = static_cast<EventStatus>(status);
  event->encoded.known = known == 1;
  if (known && (!reader->Get(&event->encoded.type) || !reader->Get(&event->encoded.config) ||
                !reader->Get(&event->encoded.config1) || !reader->Get(&event->encoded.config2))) {
    return false;
  }
  return reader->GetString(&event->short_name) && reader->GetString(&event->long_name) &&
         reader->GetString(&event->description) && reader->GetString(&event->encoding);
}

// The groups: their fields as the parser gave them, metrics as text. A formula is compiled
// again on reading (~15 us for all of them), so that nothing read from a file reaches the
// evaluator without the parser's checks.
void PutGroups(Writer *writer, const CatalogContents &contents) {
  writer->Put(static_cast<uint8_t>(contents.has_groups));
  if (!contents.has_groups) return;
  writer->Put(static_cast<uint32_t>(contents.groups.size()));
  for (const GroupRecord &group : contents.groups) {
    writer->Put(static_cast<int32_t>(group.id));
    writer->Put(static_cast<int32_t>(group.client_id));
    writer->PutString(group.short_name);
    writer->PutString(group.long_name);
    writer->PutString(group.description);
    writer->PutString(group.origin);
    writer->Put(static_cast<uint32_t>(group.members.size()));
    for (const std::string &member : group.members) writer->PutString(member);
    writer->Put(static_cast<uint32_t>(group.metrics.size()));
    for (const GroupMetric &metric : group.metrics) {
      writer->PutString(metric.name);
      writer->PutString(metric.formula);
      writer->PutString(metric.description);
    }
  }
  writer->Put(static_cast<uint32_t>(contents.member_positions.size()));
  for (uint32_t position : contents.member_positions) writer->Put(position);
  writer->Put(contents.filler_position);
}

// A stored position must name an event, or none.
bool ValidPosition(uint32_t position, const CatalogContents &contents) {
  return position == kNoStoredPosition || position < contents.events.size();
}

bool GetGroup(Reader *reader, int previous_id, GroupRecord *group) {
  int32_t id = 0, client_id = 0;
  uint32_t member_count = 0, metric_count = 0;
  // Ids increase, as the loader sorts them; 1..MAX_COUNTERS members, as the parser allows.
  if (!reader->Get(&id) || id <= previous_id || id < kFirstGroupId || id > kLastGroupId ||
      !reader->Get(&client_id) || client_id < kUnpinned || client_id > kLastClientGroupId ||
      !reader->GetString(&group->short_name) || !reader->GetString(&group->long_name) ||
      !reader->GetString(&group->description) || !reader->GetString(&group->origin) ||
      !reader->Get(&member_count) || member_count < 1 || member_count > MAX_COUNTERS) {
    return false;
  }
  group->id = id;
  group->client_id = client_id;
  group->members.resize(member_count);
  for (std::string &member : group->members) {
    if (!reader->GetString(&member)) return false;
  }
  if (!reader->Get(&metric_count) || metric_count > reader->remaining() / kSmallestMetric) {
    return false;
  }
  group->metrics.resize(metric_count);
  for (GroupMetric &metric : group->metrics) {
    if (!reader->GetString(&metric.name) || !reader->GetString(&metric.formula) ||
        !reader->GetString(&metric.description) ||
        !Formula::Parse(metric.formula, group->members, &metric.compiled).empty()) {
      return false;
    }
  }
  return true;
}

bool GetGroups(Reader *reader, CatalogContents *contents) {
  uint8_t has_groups = 0;
  if (!reader->Get(&has_groups) || has_groups > 1) return false;
  contents->has_groups = has_groups == 1;
  if (!contents->has_groups) return true;
  uint32_t count = 0;
  if (!reader->Get(&count) || count > reader->remaining() / kSmallestGroup) return false;
  contents->groups.resize(count);
  int previous_id = kFirstGroupId - 1;
  size_t members = 0;
  for (GroupRecord &group : contents->groups) {
    if (!GetGroup(reader, previous_id, &group)) return false;
    previous_id = group.id;
    members += group.members.size();
  }
  // One position per member, each naming an event or none, then the filler's.
  uint32_t position_count = 0;
  if (!reader->Get(&position_count) || position_count != members) return false;
  contents->member_positions.resize(position_count);
  for (uint32_t &position : contents->member_positions) {
    if (!reader->Get(&position) || !ValidPosition(position, *contents)) return false;
  }
  return reader->Get(&contents->filler_position) &&
         ValidPosition(contents->filler_position, *contents);
}

bool GetPayload(Reader *reader, CatalogContents *contents) {
  uint32_t range_count = 0, event_count = 0;
  if (!reader->GetString(&contents->proc_name) || !reader->GetString(&contents->tracefs_root) ||
      !reader->GetSize(&contents->table_position) || !reader->GetSize(&contents->table_count) ||
      !reader->Get(&range_count) || range_count > reader->remaining() / 20) {
    return false;
  }
  contents->ranges.resize(range_count);
  for (IdRange &range : contents->ranges) {
    int32_t first_id = 0;
    if (!reader->Get(&first_id) || !reader->GetSize(&range.first_position) ||
        !reader->GetSize(&range.count)) {
      return false;
    }
    range.first_id = first_id;
  }
  if (!reader->Get(&event_count) || event_count > reader->remaining() / kSmallestEvent) {
    return false;
  }
  // Each event is read into its place: no default-constructed event is assigned over.
  contents->events.reserve(event_count);
  PrefaultForWriting(contents->events.data(), event_count * sizeof(CatalogEvent));
  for (uint32_t i = 0; i < event_count; ++i) {
    if (!GetEvent(reader, &contents->events.emplace_back())) return false;
  }
  return GetGroups(reader, contents) && reader->remaining() == 0 && ContentsConsistent(*contents);
}

}  // namespace

std::string DefaultCatalogCachePath(bool *boot_in_key) {
  if (boot_in_key) *boot_in_key = false;
  // AT_SECURE: a setuid/setgid program, or one that gained capabilities at exec.
  const Settings &settings = CurrentSettings();
  if (settings.no_cache || getauxval(AT_SECURE) || SettingsShapeTheCatalog(settings)) return "";
  const std::string dir = ChooseCacheDirectory(CurrentCacheDirectoryInputs(), boot_in_key);
  if (dir.empty()) return "";
  return dir + "/libpmapi-catalog-" + std::to_string(geteuid()) + ".bin";
}

std::string CatalogCacheKey(bool boot) {
  // Statuses depend on the kernel's perf_event_paranoid, which root may change within a boot.
  char paranoid[16];
  ReadPerfEventParanoid(paranoid, sizeof paranoid);
  if (strcmp(paranoid, "unknown") == 0) return "";
  std::string key = std::string("build=") + kCatalogBuildConstant +
                    "\nlibpfm=" + PfmLibraryIdentity() + "\nparanoid=" + std::string(paranoid) +
                    "\n";
  if (boot) {
    std::string boot_id;
    if (CurrentKernel().ReadFile(kBootIdFile, &boot_id) < 0 || boot_id.empty()) return "";
    if (boot_id.back() != '\n') boot_id += '\n';
    key += "boot=" + boot_id;
  }
  return key;
}

bool LoadCatalogCache(const std::string &path, const std::string &key, CatalogContents *contents) {
  Kernel &kernel = CurrentKernel();
  const char *data = nullptr;
  size_t size = 0;
  FileStat info;
  if (kernel.MapFile(path, &data, &size, &info) < 0) return false;
  // A file someone else could have written might claim anything: statuses, encodings.
  const bool trusted =
      info.owner == geteuid() && !(info.mode & (S_IWGRP | S_IWOTH)) && size <= kLargestFile;
  const bool loaded = trusted && DeserializeCatalog(std::string_view(data, size), key, contents);
  kernel.UnmapFile(data, size);
  return loaded;
}

void StoreCatalogCache(const std::string &path, const std::string &key,
                       const CatalogContents &contents) {
  CurrentKernel().WriteFileAtomically(path, SerializeCatalog(key, contents), 0600);
}

uint64_t Hash64(std::string_view bytes, uint64_t seed) {
  uint64_t hash = seed ^ (bytes.size() * kMultiplier);
  constexpr size_t kLanes = 8;
  uint64_t lanes[kLanes];
  for (size_t lane = 0; lane < kLanes; ++lane) lanes[lane] = hash + lane;
  size_t i = 0;
  for (; i + 8 * kLanes <= bytes.size(); i += 8 * kLanes) {
    uint64_t words[kLanes];
    memcpy(words, bytes.data() + i, sizeof words);
    for (size_t lane = 0; lane < kLanes; ++lane) lanes[lane] = Step(lanes[lane], words[lane]);
  }
  for (uint64_t lane : lanes) hash = Step(hash, lane);
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    memcpy(&word, bytes.data() + i, 8);
    hash = Step(hash, word);
  }
  uint64_t tail = 0;
  if (i < bytes.size()) memcpy(&tail, bytes.data() + i, bytes.size() - i);
  hash = Step(hash, tail);
  // Final mix so that every input bit reaches every output bit.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  return hash;
}

std::string SerializeCatalog(const std::string &key, const CatalogContents &contents) {
  std::string payload;
  payload.reserve(contents.events.size() * 160);
  Writer body(&payload);
  body.PutString(contents.proc_name);
  body.PutString(contents.tracefs_root);
  body.Put(static_cast<uint64_t>(contents.table_position));
  body.Put(static_cast<uint64_t>(contents.table_count));
  body.Put(static_cast<uint32_t>(contents.ranges.size()));
  for (const IdRange &range : contents.ranges) {
    body.Put(static_cast<int32_t>(range.first_id));
    body.Put(static_cast<uint64_t>(range.first_position));
    body.Put(static_cast<uint64_t>(range.count));
  }
  body.Put(static_cast<uint32_t>(contents.events.size()));
  for (const CatalogEvent &event : contents.events) PutEvent(&body, event);
  PutGroups(&body, contents);

  std::string file;
  file.reserve(sizeof kMagic + key.size() + 32 + payload.size());
  file.append(kMagic, sizeof kMagic);
  Writer header(&file);
  header.Put(kLayoutVersion);
  header.PutString(key);
  header.Put(static_cast<uint64_t>(payload.size()));
  header.Put(Hash64(payload));
  file.append(payload);
  return file;
}

bool DeserializeCatalog(std::string_view bytes, const std::string &key, CatalogContents *contents) {
  if (bytes.size() < sizeof kMagic || memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return false;
  }
  Reader reader(bytes.data() + sizeof kMagic, bytes.data() + bytes.size());
  uint32_t version = 0, key_size = 0;
  std::string_view stored_key, payload;
  uint64_t payload_size = 0, checksum = 0;
  if (!reader.Get(&version) || version != kLayoutVersion || !reader.Get(&key_size) ||
      !reader.GetView(key_size, &stored_key) || stored_key != key || !reader.Get(&payload_size) ||
      !reader.Get(&checksum) || payload_size != reader.remaining() ||
      !reader.GetView(payload_size, &payload) || Hash64(payload) != checksum) {
    return false;
  }
  CatalogContents restored;
  Reader body(payload.data(), payload.data() + payload.size());
  if (!GetPayload(&body, &restored)) return false;
  *contents = std::move(restored);
  return true;
}

// ---- The contents a file must hold ----------------------------------------------------

bool ContentsConsistent(const CatalogContents &contents) {
  const std::vector<CatalogEvent> &events = contents.events;
  std::vector<bool> covered(events.size(), false);
  auto cover = [&covered](size_t position) {
    if (position >= covered.size() || covered[position]) return false;
    covered[position] = true;
    return true;
  };
  int previous = kFirstTableId - 1;
  for (size_t i = 0; i < contents.table_count; ++i) {
    size_t position = contents.table_position + i;
    if (!cover(position)) return false;
    int id = events[position].id;
    if (id <= previous || id > kLastTableId) return false;
    previous = id;
  }
  for (const IdRange &range : contents.ranges) {
    if (range.first_id <= kLastTableId) return false;
    for (size_t k = 0; k < range.count; ++k) {
      if (!cover(range.first_position + k)) return false;
      long long expected = static_cast<long long>(range.first_id) + static_cast<long long>(k);
      if (events[range.first_position + k].id != expected) return false;
    }
  }
  // Ids of different ranges must not overlap, or an id would name two events.
  std::vector<IdRange> by_id = contents.ranges;
  std::sort(by_id.begin(), by_id.end(),
            [](const IdRange &a, const IdRange &b) { return a.first_id < b.first_id; });
  for (size_t i = 1; i < by_id.size(); ++i) {
    long long end =
        static_cast<long long>(by_id[i - 1].first_id) + static_cast<long long>(by_id[i - 1].count);
    if (end > by_id[i].first_id) return false;
  }
  for (bool is_covered : covered) {
    if (!is_covered) return false;
  }
  return true;
}

// ---- Where the file lives --------------------------------------------------------------

CacheDirectoryInputs CurrentCacheDirectoryInputs() {
  CacheDirectoryInputs inputs;
  inputs.euid = geteuid();
  // The settings' strings stay valid until exit (settings.h).
  const Settings &settings = CurrentSettings();
  if (!settings.runtime_dir.empty()) inputs.runtime_dir = settings.runtime_dir.c_str();
  inputs.login_dir = "/run/user/" + std::to_string(inputs.euid);
  if (!settings.temp_dir.empty()) inputs.temp_dir = settings.temp_dir.c_str();
  return inputs;
}

bool PrivateDirectory(const std::string &path, uid_t euid) {
  struct stat info;
  if (lstat(path.c_str(), &info) != 0) return false;
  return S_ISDIR(info.st_mode) && info.st_uid == euid && (info.st_mode & 077) == 0;
}

std::string ChooseCacheDirectory(const CacheDirectoryInputs &inputs, bool *own_directory) {
  if (own_directory) *own_directory = false;
  // The XDG base-directory rules: a relative path is to be ignored. The runtime directory is
  // the login manager's promise of a private one, so it is taken as it is.
  if (inputs.runtime_dir && inputs.runtime_dir[0] == '/') return inputs.runtime_dir;
  struct stat info;
  if (stat(inputs.login_dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return inputs.login_dir;
  const std::string temp =
      inputs.temp_dir && inputs.temp_dir[0] == '/' ? inputs.temp_dir : std::string("/tmp");
  const std::string own = temp + "/libpmapi-" + std::to_string(inputs.euid);
  // Checked before it is made, so that a hit costs one lstat. mkdir fails on anything already
  // at the path, a link included, and never changes what is there; the umask may only narrow
  // 0700. In a sticky /tmp nobody else can rename or remove the directory once it is checked.
  if (!PrivateDirectory(own, inputs.euid)) {
    if (mkdir(own.c_str(), 0700) != 0 && errno != EEXIST) return "";
    if (!PrivateDirectory(own, inputs.euid)) return "";
  }
  if (own_directory) *own_directory = true;
  return own;
}

}  // namespace pmapi
