// Where the bytes go: a link is followed only when trusted, a regular file is replaced by
// rename, a device or FIFO is written in place; the checks are redone on the descriptor, so a
// link swapped in between cannot redirect the write.
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace pmsample {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's ELOOP

std::string Directory(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

mode_t NewFileMode() {
  static const mode_t mask = [] {
    mode_t m = umask(0);
    umask(m);
    return m;
  }();
  return 0666 & ~mask;
}

// A link only root or this user could have made: it says where they want the output.
bool Trusted(const struct stat& link) { return link.st_uid == 0 || link.st_uid == geteuid(); }

}  // namespace

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temp_(std::move(other.temp_)),
      fd_(other.fd_) {
  other.temp_.clear();
  other.fd_ = -1;
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

bool OutputFile::Fail(const std::string& reason, std::string* error) {
  *error = "cannot write " + path_ + ": " + reason;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!temp_.empty()) unlink(temp_.c_str());
  temp_.clear();
  return false;
}

bool OutputFile::Open(const std::string& path, std::string* error) {
  path_ = target_ = path;
  bool in_place = false, through_link = false;
  for (int hop = 0; !in_place; ++hop) {
    if (hop == kMaxLinks) return Fail(std::strerror(ELOOP), error);
    struct stat st;
    if (lstat(target_.c_str(), &st) != 0) {
      if (errno != ENOENT) return Fail(std::strerror(errno), error);
      break;  // a new file
    }
    if (S_ISDIR(st.st_mode)) return Fail("it is a directory", error);
    if (S_ISREG(st.st_mode)) {
      // Replaced by rename: that needs the right to remove it, which a sticky directory (/tmp)
      // gives only to the file's and the directory's owners.
      struct stat dir;
      uid_t me = geteuid();
      if (me != 0 && st.st_uid != me && stat(Directory(target_).c_str(), &dir) == 0 &&
          (dir.st_mode & S_ISVTX) && dir.st_uid != me)
        return Fail(
            std::string(std::strerror(EPERM)) + " (another user's file in a sticky directory)",
            error);
      break;
    }
    if (!S_ISLNK(st.st_mode)) {
      in_place = true;  // a device, FIFO or socket
      break;
    }
    if (!Trusted(st)) break;  // another user's link: replaced, not followed
    struct stat end;
    if (stat(target_.c_str(), &end) == 0 && !S_ISREG(end.st_mode) && !S_ISDIR(end.st_mode)) {
      in_place = through_link = true;  // /dev/stdout to a pipe, a link to /dev/null
      break;
    }
    char next[PATH_MAX];
    ssize_t n = readlink(target_.c_str(), next, sizeof next - 1);
    if (n < 0) return Fail(std::strerror(errno), error);
    next[n] = '\0';
    target_ = next[0] == '/' ? std::string(next) : Directory(target_) + "/" + next;
  }
  if (in_place) {
    int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | (through_link ? 0 : O_NOFOLLOW);
    fd_ = open(target_.c_str(), flags);
    if (fd_ < 0) return Fail(std::strerror(errno), error);
    struct stat st;
    if (fstat(fd_, &st) != 0 || S_ISREG(st.st_mode))
      return Fail("it was replaced by a regular file while being opened", error);
    return true;
  }
  // O_EXCL: a new file, never one a link points to.
  temp_ = Directory(target_) + "/.pmsample-XXXXXX";
  fd_ = mkostemp(&temp_[0], O_CLOEXEC);
  if (fd_ < 0) {
    int e = errno;
    temp_.clear();
    return Fail(std::string(std::strerror(e)) + " (making a file in " + Directory(target_) + ")",
                error);
  }
  if (fchmod(fd_, NewFileMode()) != 0) return Fail(std::strerror(errno), error);
  return true;
}

bool OutputFile::Commit(const void* data, size_t size, std::string* error) {
  if (fd_ < 0) return Fail("it is not open", error);
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = write(fd_, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fail(std::strerror(errno), error);
    at += n;
    size -= static_cast<size_t>(n);
  }
  int result = close(fd_);
  fd_ = -1;
  if (result != 0) return Fail(std::strerror(errno), error);
  if (!temp_.empty()) {
    if (rename(temp_.c_str(), target_.c_str()) != 0) return Fail(std::strerror(errno), error);
    temp_.clear();
  }
  return true;
}

}  // namespace pmsample
