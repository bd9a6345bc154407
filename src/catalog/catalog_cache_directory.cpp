// Walking to the catalog cache directory under the ownership rule of catalog_cache_directory.h.
#include "catalog/catalog_cache_directory.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

#include "base/kernel.h"

namespace pmapi {
namespace {

constexpr int kWalkFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::string FdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// Whether a directory on the way may lead to our cache.
bool TrustedOnTheWay(const struct stat &info, uid_t me) {
  if (!S_ISDIR(info.st_mode)) return false;
  if (info.st_uid != 0 && info.st_uid != me) return false;
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) && !(info.st_mode & S_ISVTX)) return false;
  return true;
}

// Whether the cache directory itself may hold our files.
bool TrustedAsCache(const struct stat &info, uid_t me) {
  return S_ISDIR(info.st_mode) && info.st_uid == me && !(info.st_mode & (S_IWGRP | S_IWOTH));
}

// "/a//b/c" -> {"a", "b", "c"}; false for a relative path or a "." or ".." component.
bool Components(const std::string &path, std::vector<std::string> *parts) {
  if (path.empty() || path[0] != '/') return false;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string part = path.substr(start, end - start);
    if (part == "." || part == "..") return false;
    if (!part.empty()) parts->push_back(std::move(part));
    start = end + 1;
  }
  return !parts->empty();
}

}  // namespace

CacheDirectory::~CacheDirectory() {
  if (fd_ >= 0) close(fd_);
}

bool CacheDirectory::Open(const std::string &dir, bool create) {
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  std::vector<std::string> parts;
  if (!Components(dir, &parts)) return false;
  const uid_t me = geteuid();
  int fd = open("/", kWalkFlags);
  if (fd < 0) return false;
  struct stat info;
  if (fstat(fd, &info) < 0 || !TrustedOnTheWay(info, me)) {
    close(fd);
    return false;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    int next = openat(fd, parts[i].c_str(), kWalkFlags);
    // Only the cache directory and its parent ($HOME/.cache) are made, and only inside a
    // directory of this user (`info` still describes `fd`), never in "/" itself. A link or a
    // file in the way gives ELOOP or ENOTDIR: no cache.
    if (next < 0 && errno == ENOENT && create && i + 2 >= parts.size() && i > 0 &&
        info.st_uid == me) {
      int err = CurrentKernel().MakeDirectory(FdPath(fd) + "/" + parts[i], 0700);
      if (err == 0 || err == -EEXIST) next = openat(fd, parts[i].c_str(), kWalkFlags);
    }
    close(fd);
    if (next < 0) return false;
    fd = next;
    if (fstat(fd, &info) < 0 || !(last ? TrustedAsCache(info, me) : TrustedOnTheWay(info, me))) {
      close(fd);
      return false;
    }
  }
  fd_ = fd;
  return true;
}

std::string CacheDirectory::Path(const std::string &name) const {
  return name.empty() ? FdPath(fd_) : FdPath(fd_) + "/" + name;
}

}  // namespace pmapi
