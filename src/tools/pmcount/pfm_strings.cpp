#include "pfm_strings.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "catalog/pfm_bridge.h"
#include "catalog/table_file.h"
#include "base/kernel.h"

namespace pmcount {
namespace {

constexpr const char *kVariable = "PMAPI_EVENTS_DIR";
constexpr const char *kNoCache = "PMAPI_NO_CACHE";
constexpr int kFirstSiteId = 50000, kLastSiteId = 99999;  // events/README.md: site tables
constexpr const char *kPrefix = "pmcount::";              // no libpfm4 PMU has this name

bool IsTracepoint(const std::string &name) {
  const size_t colon = name.find(':');
  if (colon == std::string::npos || name.find(':', colon + 1) != std::string::npos) return false;
  const std::string relative = "/events/" + name.substr(0, colon) + "/" + name.substr(colon + 1);
  for (const char *root : pmapi::kTracefsRoots) {
    if (access((root + relative).c_str(), F_OK) == 0) return true;
  }
  return false;
}

std::vector<std::string> TableFiles(const std::string &directory) {
  std::vector<std::string> files;
  DIR *dir = opendir(directory.c_str());
  if (!dir) return files;
  while (dirent *entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tbl") == 0) files.push_back(name);
  }
  closedir(dir);
  return files;
}

// The ids a table file uses: the leading number of each record line. Read as the library
// reads it (regular files only, at most 16 MiB, never blocking): a FIFO named like a table
// would otherwise hang pmcount here. A refused file is skipped; the library reports it.
void CollectIds(const std::string &path, std::set<int> *ids) {
  std::string text;
  if (!pmapi::ReadTableFile(AT_FDCWD, path, path, &text).ok()) return;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    ids->insert(atoi(line.c_str() + start));
  }
}

}  // namespace

std::string PfmStrings::Prepare(const std::vector<EventSpec> &specs) {
  std::vector<std::string> wanted;
  for (const EventSpec &spec : specs) {
    std::string event;
    std::vector<std::string> attributes;
    if (!SplitPfmAttributes(spec.name, &event, &attributes) || attributes.empty()) continue;
    if (IsTracepoint(spec.name)) continue;
    if (registered_.count(spec.name) || refused_.count(spec.name)) continue;
    const std::string init_error = pmapi::PfmInitialize();
    if (!init_error.empty()) return "";  // the catalog will say libpfm4 is unusable
    pmapi::PfmEncoding encoding;
    const std::string error = pmapi::PfmEncode(spec.name, &encoding);
    if (!error.empty()) {
      refused_[spec.name] = error;
      continue;
    }
    registered_[spec.name] = kPrefix + spec.name;
    wanted.push_back(spec.name);
  }
  if (wanted.empty()) return "";

  const char *tmp = getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/pmcount.XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    return "cannot create a directory for libpfm4 strings: " + std::string(strerror(errno));
  directory_ = buffer.data();

  // Both variables are saved before anything can fail: Restore() puts them back.
  const char *no_cache = getenv(kNoCache);
  had_no_cache_ = no_cache != nullptr;
  if (no_cache) old_no_cache_ = no_cache;
  std::set<int> used;
  const char *old = getenv(kVariable);
  had_variable_ = old != nullptr;
  if (old) old_variable_ = old;
  if (old && *old) {
    // The links live in the scratch directory, so a relative target would be resolved against
    // it, not against the directory the user named: link to the absolute path.
    char *absolute = realpath(old, nullptr);
    const std::string user_directory = absolute ? absolute : old_variable_;
    free(absolute);
    for (const std::string &file : TableFiles(user_directory)) {
      const std::string source = user_directory + "/" + file;
      CollectIds(source, &used);
      if (symlink(source.c_str(), (directory_ + "/" + file).c_str()) != 0) {
        Restore();
        return "cannot link " + source + ": " + strerror(errno);
      }
    }
  }
  std::ostringstream table;
  table << "# Written by pmcount for the libpfm4 strings on its command line.\n";
  int id = kLastSiteId;
  for (const std::string &name : wanted) {
    while (used.count(id) && id > kFirstSiteId) --id;
    table << id-- << " | " << kPrefix << name << " | " << name << " | exact | " << name
          << " | The libpfm4 event string " << name << " from the pmcount command line.\n";
  }
  // "~" sorts after the user's file names: their records are read first.
  const std::string path = directory_ + "/~pmcount.tbl";
  std::ofstream out(path);
  out << table.str();
  out.close();
  if (!out) {
    Restore();
    return "cannot write " + path;
  }
  setenv(kVariable, directory_.c_str(), 1);
  setenv(kNoCache, "1", 1);
  return "";
}

void PfmStrings::Restore() {
  if (directory_.empty()) return;
  for (const std::string &file : TableFiles(directory_)) unlink((directory_ + "/" + file).c_str());
  rmdir(directory_.c_str());
  directory_.clear();
  if (had_variable_) {
    setenv(kVariable, old_variable_.c_str(), 1);
  } else {
    unsetenv(kVariable);
  }
  if (had_no_cache_) {
    setenv(kNoCache, old_no_cache_.c_str(), 1);
  } else {
    unsetenv(kNoCache);
  }
}

std::string PfmStrings::CatalogName(const std::string &name) const {
  auto found = registered_.find(name);
  return found == registered_.end() ? "" : found->second;
}

std::string PfmStrings::Refusal(const std::string &name) const {
  auto found = refused_.find(name);
  return found == refused_.end() ? "" : found->second;
}

}  // namespace pmcount
