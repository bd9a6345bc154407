// Finding, reading and writing the catalog cache file: through the kernel seam, every path
// inside the directory held open under the ownership rule (catalog_cache_directory.h).
#include "catalog/catalog_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <utility>
#include <vector>

#include "catalog/catalog_cache_directory.h"
#include "catalog/catalog_cache_file.h"
#include "base/kernel.h"

namespace pmapi {
namespace {

constexpr const char *kFilePrefix = "catalog-";
constexpr const char *kFileSuffix = ".bin";
constexpr const char *kTemporaryMark = ".tmp.";
// Every build of libpmapi has its own file (and a program that links libpmapi.a statically is
// its own build: the test suite has dozens), and so does every boot. So that rebuilds and
// reboots do not fill the disk, a write keeps only the most recently written files, and
// removes temporary files a killed writer left behind once they are this old.
constexpr size_t kFilesKept = 4;
constexpr time_t kStaleTemporarySeconds = 3600;
// Far above any real catalog (~350 KB for ~2500 events): a larger file is not even checksummed.
constexpr size_t kLargestFile = 64u << 20;

bool StartsWith(const std::string &text, const char *prefix) {
  return text.compare(0, strlen(prefix), prefix) == 0;
}

bool EndsWith(const std::string &text, const char *suffix) {
  size_t size = strlen(suffix);
  return text.size() >= size && text.compare(text.size() - size, size, suffix) == 0;
}

// Every path goes through the held directory (catalog_cache_directory.h): a name in it is
// looked up there and nowhere else.
void RemoveStaleFiles(const CacheDirectory &dir, const std::string &current) {
  Kernel &kernel = CurrentKernel();
  std::vector<std::string> names;
  if (kernel.ListDirectory(dir.Path(""), &names) < 0) return;
  time_t now = time(nullptr);
  std::vector<std::pair<time_t, std::string>> others;  // (written, path): other builds or boots
  for (const std::string &name : names) {
    if (!StartsWith(name, kFilePrefix) || name == current) continue;
    std::string path = dir.Path(name);
    FileStat info;
    if (kernel.Stat(path, &info) < 0) continue;
    if (name.find(kTemporaryMark) != std::string::npos) {
      if (now - info.modified > kStaleTemporarySeconds) kernel.Unlink(path);
    } else if (EndsWith(name, kFileSuffix)) {
      others.emplace_back(info.modified, path);
    }
  }
  if (others.size() < kFilesKept) return;
  std::sort(others.begin(), others.end(), std::greater<>());  // newest first
  for (size_t i = kFilesKept - 1; i < others.size(); ++i) kernel.Unlink(others[i].second);
}

std::string FileName(const CatalogCacheKey &key) {
  return kFilePrefix + key.file_tag + kFileSuffix;
}

}  // namespace

std::string DefaultCatalogCacheDirectory() {
  const char *off = getenv(kNoCacheVariable);
  if (off && *off && std::string(off) != "0") return "";
  // secure_getenv returns nothing in setuid/setgid programs: they must not trust a file that
  // the invoking user's environment points them to.
  const char *xdg = secure_getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/libpmapi";  // relative: ignored (XDG)
  const char *home = secure_getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/libpmapi";
  return "";
}

std::string CatalogCachePath(const std::string &dir, const CatalogCacheKey &key) {
  return dir + "/" + FileName(key);
}

bool LoadCatalogCache(const std::string &dir, const CatalogCacheKey &key,
                      CatalogContents *contents) {
  CacheDirectory held;
  if (!held.Open(dir, false)) return false;
  Kernel &kernel = CurrentKernel();
  const char *data = nullptr;
  size_t size = 0;
  FileStat info;
  if (kernel.MapFile(held.Path(FileName(key)), &data, &size, &info) < 0) return false;
  // A file someone else could have written might claim anything: statuses, encodings.
  bool trusted =
      info.owner == geteuid() && !(info.mode & (S_IWGRP | S_IWOTH)) && size <= kLargestFile;
  bool loaded = trusted && DeserializeCatalog(std::string_view(data, size), key.text, contents);
  kernel.UnmapFile(data, size);
  return loaded;
}

void StoreCatalogCache(const std::string &dir, const CatalogCacheKey &key,
                       const CatalogContents &contents) {
  static std::atomic<unsigned> sequence{0};
  CacheDirectory held;
  if (!held.Open(dir, true)) return;
  Kernel &kernel = CurrentKernel();
  std::string path = held.Path(FileName(key));
  std::string temporary = path + kTemporaryMark + std::to_string(getpid()) + "." +
                          std::to_string(sequence.fetch_add(1));
  if (kernel.WriteNewFile(temporary, SerializeCatalog(key.text, contents), 0600) < 0 ||
      kernel.Rename(temporary, path) < 0) {
    kernel.Unlink(temporary);
    return;
  }
  RemoveStaleFiles(held, FileName(key));
}

}  // namespace pmapi
