#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace cpuperf {
namespace {

std::string DirectoryOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string NameOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What lstat found at the path, as the reason it cannot be written; "" for a regular file or
// none (written by rename) and for a device or FIFO (written in place).
std::string RefusedKind(const std::string &path, struct stat *found, bool *exists) {
  *exists = lstat(path.c_str(), found) == 0;
  if (!*exists) return errno == ENOENT ? "" : strerror(errno);
  if (S_ISLNK(found->st_mode)) {
    return "is a symbolic link; cpuperf writes no output through a link (name the file "
           "itself)";
  }
  if (S_ISDIR(found->st_mode)) return "is a directory";
  if (S_ISSOCK(found->st_mode)) return "is a socket";
  return "";
}

// A new file beside `path` (mode 0600 until committed), or -1 with errno.
int MakeTemporary(const std::string &path, std::string *name) {
  std::string pattern = DirectoryOf(path) + "/." + NameOf(path) + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  int fd = mkostemp(buffer.data(), O_CLOEXEC);
  if (fd >= 0) *name = buffer.data();
  return fd;
}

mode_t CurrentUmask() {
  static const mode_t mask = [] {
    mode_t old = umask(022);
    umask(old);
    return old;
  }();
  return mask;
}

}  // namespace

std::string CheckOutput(const std::string &path) {
  if (path.empty()) return "an output path is empty";
  struct stat found;
  bool exists = false;
  std::string refused = RefusedKind(path, &found, &exists);
  if (!refused.empty()) return path + ": " + refused;
  if (exists && !S_ISREG(found.st_mode)) {
    if (access(path.c_str(), W_OK) != 0) return path + ": " + strerror(errno);
    return "";
  }
  // A regular file is replaced by rename: the directory must take a new file, and a sticky
  // one (/tmp) lets only its owner replace a file of another user's.
  std::string temporary;
  int fd = MakeTemporary(path, &temporary);
  if (fd < 0) {
    return path + ": cannot create a file in " + DirectoryOf(path) + ": " + strerror(errno);
  }
  close(fd);
  unlink(temporary.c_str());
  struct stat directory;
  if (exists && geteuid() != 0 && found.st_uid != geteuid() &&
      stat(DirectoryOf(path).c_str(), &directory) == 0 && (directory.st_mode & S_ISVTX) &&
      directory.st_uid != geteuid()) {
    return path + ": belongs to another user, in a directory where only they may replace it";
  }
  return "";
}

std::string OutputFile::Open(const std::string &path) {
  path_ = path;
  struct stat found;
  bool exists = false;
  std::string refused = RefusedKind(path, &found, &exists);
  if (!refused.empty()) return path + ": " + refused;
  int fd;
  if (exists && !S_ISREG(found.st_mode)) {
    fd = open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  } else {
    fd = MakeTemporary(path, &temporary_);
    if (fd >= 0 && fchmod(fd, 0666 & ~CurrentUmask()) != 0) {
      int err = errno;
      close(fd);
      errno = err;
      fd = -1;
    }
  }
  if (fd < 0) return path + ": " + strerror(errno);
  stream_ = fdopen(fd, "w");
  if (!stream_) {
    int err = errno;
    close(fd);
    return path + ": " + strerror(err);
  }
  return "";
}

std::string OutputFile::Commit() {
  if (!stream_) return path_ + ": not open";
  bool ok = fflush(stream_) == 0 && !ferror(stream_);
  int err = errno;
  if (fclose(stream_) != 0 && ok) {
    ok = false;
    err = errno;
  }
  stream_ = nullptr;
  if (!ok) return path_ + ": cannot write: " + strerror(err);
  // rename replaces whatever is at the path now, a link included, and never follows one.
  if (!temporary_.empty() && rename(temporary_.c_str(), path_.c_str()) != 0) {
    return path_ + ": " + strerror(errno);
  }
  temporary_.clear();
  return "";
}

OutputFile::~OutputFile() {
  if (stream_) fclose(stream_);
  if (!temporary_.empty()) unlink(temporary_.c_str());
}

std::string WriteOutput(const std::string &path, const void *bytes, size_t size) {
  OutputFile file;
  std::string error = file.Open(path);
  if (!error.empty()) return error;
  if (size > 0 && fwrite(bytes, 1, size, file.stream()) != size) {
    return path + ": cannot write: " + strerror(errno);
  }
  return file.Commit();
}

}  // namespace cpuperf
