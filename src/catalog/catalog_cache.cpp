// Where the catalog cache file is, its key, and reading and writing it through the kernel seam.
#include "catalog/catalog_cache.h"

#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

#include "catalog/catalog_cache_file.h"
#include "catalog/pfm_bridge.h"
#include "catalog/table_loader.h"
#include "core/kernel.h"

extern char **environ;

namespace pmapi {
namespace {

// Far above any real catalog (~350 KB for ~2500 events): a larger file is not even checksummed.
constexpr size_t kLargestFile = 64u << 20;

bool SwitchedOff() {
  const char *off = getenv(kNoCacheVariable);
  return off && *off && strcmp(off, "0") != 0;
}

// Site tables and libpfm4's variables change the catalog in ways the key does not name.
bool EnvironmentShapesTheCatalog() {
  const char *tables = getenv(kEventsDirVariable);
  if (tables && *tables) return true;
  for (char **entry = environ; entry && *entry; ++entry) {
    if (strncmp(*entry, "LIBPFM_", 7) == 0) return true;
  }
  return false;
}

}  // namespace

std::string DefaultCatalogCachePath() {
  // AT_SECURE: a setuid/setgid program, or one that gained capabilities at exec.
  if (SwitchedOff() || getauxval(AT_SECURE) || EnvironmentShapesTheCatalog()) return "";
  const std::string euid = std::to_string(geteuid());
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  // The XDG base-directory rules: a relative path is to be ignored.
  const std::string dir = runtime && runtime[0] == '/' ? runtime : "/run/user/" + euid;
  return dir + "/libpmapi-catalog-" + euid + ".bin";
}

std::string CatalogCacheKey() {
  // Statuses depend on the kernel's perf_event_paranoid, which root may change within a boot.
  std::string paranoid;
  if (CurrentKernel().ReadFile("/proc/sys/kernel/perf_event_paranoid", &paranoid) < 0) return "";
  while (!paranoid.empty() && (paranoid.back() == '\n' || paranoid.back() == ' ')) {
    paranoid.pop_back();
  }
  return std::string("build=") + kCatalogBuildConstant + "\nlibpfm=" + PfmLibraryIdentity() +
         "\nparanoid=" + paranoid + "\n";
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

}  // namespace pmapi
