// Reading the facts of the catalog cache key.
#include "catalog/catalog_cache_key.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "catalog/build_id.h"
#include "catalog/hash64.h"
#include "catalog/layered_tables.h"
#include "catalog/pfm_bridge.h"
#include "catalog/sysfs_pmu_source.h"
#include "catalog/table_loader.h"
#include "base/kernel.h"

extern char **environ;

namespace pmapi {
namespace {

// Bumped whenever the file layout or the meaning of a stored field changes.
constexpr int kCacheFormat = 1;

// The file's contents, or "!<errno>" when it cannot be read: an unreadable file is a fact too.
std::string ReadFact(const std::string &path, bool *readable = nullptr) {
  std::string text;
  int err = CurrentKernel().ReadFile(path, &text);
  if (readable) *readable = err == 0;
  if (err < 0) return "!" + std::to_string(-err);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The lines of /proc/self/status that decide what the kernel lets this process count.
std::string Privileges(const std::string &status) {
  std::string facts;
  for (const char *field : {"Uid:", "CapEff:", "Seccomp:"}) {
    size_t at = status.find(std::string("\n") + field);
    if (at == std::string::npos) continue;
    size_t end = status.find('\n', at + 1);
    facts += status.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    facts += ';';
  }
  return facts;
}

// Module names only: the other columns (use counts, load addresses) change while the set of
// PMUs and tracepoints does not.
std::string ModuleNames() {
  bool readable = false;
  std::string modules = ReadFact("/proc/modules", &readable);
  if (!readable) return modules;  // "!2": built without module support
  std::string names;
  size_t start = 0;
  while (start < modules.size()) {
    size_t end = modules.find('\n', start);
    if (end == std::string::npos) end = modules.size();
    size_t name_end = std::min(modules.find(' ', start), end);
    names.append(modules, start, name_end - start);
    names.push_back(' ');
    start = end + 1;
  }
  return Hex64(Hash64(names));
}

std::string SysfsPmus() {
  std::vector<std::string> names;
  int err = CurrentKernel().ListDirectory(kSysfsPmuRoot, &names);
  if (err < 0) return "!" + std::to_string(-err);
  std::sort(names.begin(), names.end());
  std::string joined;
  for (const std::string &name : names) joined += name + ",";
  return joined;
}

// The tracefs the catalog would list (tracepoint_source.cpp reads the first readable one); the
// tracepoints of the kernel and its modules are covered by the boot and module facts. Dynamic
// events (kprobes, uprobes, synthetic events) are not: reading dynamic_events, or anything
// else that lists them, takes the kernel's event_mutex, which waits behind every tracepoint
// being opened or closed on the machine (25-80 ms measured here while tests ran), so a
// cache hit would cost more than building the catalog. docs/catalog.md says how to refresh.
std::string Tracefs() {
  for (const char *root : kTracefsRoots) {
    if (CurrentKernel().Access(std::string(root) + "/available_events", R_OK) == 0) return root;
  }
  return "none";
}

std::string EventsDirectory() {
  const TableLayers &layers = EventTableLayers();
  const char *dir = getenv(layers.variable);
  if (!dir || !*dir) return "unset";
  uint64_t digest = 0;
  Status status =
      ForEachRuntimeTable(layers, [&digest](const std::string &path, const std::string &text) {
        digest = Hash64(text, Hash64(path, digest));
        return Status::Ok();
      });
  return std::string(dir) + " " + Hex64(digest) + (status.ok() ? "" : " " + status.detail());
}

std::string LibpfmEnvironment() {
  std::vector<std::string> variables;
  for (char **entry = environ; entry && *entry; ++entry) {
    if (strncmp(*entry, "LIBPFM_", 7) == 0) variables.emplace_back(*entry);
  }
  std::sort(variables.begin(), variables.end());
  std::string joined;
  for (const std::string &variable : variables) joined += variable + ";";
  return joined;
}

}  // namespace

CatalogCacheKey ComputeCatalogCacheKey() {
  CatalogCacheKey key;
  std::string library =
      BuildIdOfObjectContaining(reinterpret_cast<const void *>(&ComputeCatalogCacheKey));
  std::string libpfm = PfmLibraryIdentity();
  bool boot_known = false;
  std::string boot = ReadFact("/proc/sys/kernel/random/boot_id", &boot_known);
  bool status_known = false;
  std::string status = ReadFact("/proc/self/status", &status_known);
  // Without these the cache could not tell a rebuilt library, another boot or another user
  // from the ones that wrote it.
  if (library.empty() || libpfm.empty() || !boot_known || !status_known) return key;
  std::string privileges = Privileges("\n" + status);
  if (privileges.find("Uid:") == std::string::npos) return key;

  std::string builds = "format=" + std::to_string(kCacheFormat) + "\nlibpmapi=" + library +
                       "\nlibpfm=" + libpfm + "\n";
  key.file_tag = Hex64(Hash64(builds + "euid=" + std::to_string(geteuid()) + "\nboot=" + boot));
  key.text = builds;
  key.text += "libpfm-environment=" + LibpfmEnvironment() + "\n";
  key.text += "boot=" + boot + "\n";
  key.text += "kernel=" + ReadFact("/proc/sys/kernel/osrelease") + "\n";
  key.text += "paranoid=" + ReadFact("/proc/sys/kernel/perf_event_paranoid") + "\n";
  key.text += "privileges=" + privileges + "\n";
  key.text += "modules=" + ModuleNames() + "\n";
  key.text += "pmus=" + SysfsPmus() + "\n";
  key.text += "tracefs=" + Tracefs() + "\n";
  key.text += "events-dir=" + EventsDirectory() + "\n";
  return key;
}

}  // namespace pmapi
