// SPDX-License-Identifier: MIT
// Where an output's bytes go (output_file.h has the policy): the path is resolved link by link,
// each link's owner checked, to the file that will be written; then that file is replaced by
// rename, opened with O_NOFOLLOW, or, for a device or FIFO, written in place.
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <vector>

namespace tools {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's ELOOP

std::string DirectoryOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string NameOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "65534 (nobody)", or the number alone when the user has no name here.
std::string UserOf(uid_t uid) {
  std::string user = std::to_string(uid);
  struct passwd entry, *found = nullptr;
  char buffer[1024];
  if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found) {
    user += std::string(" (") + found->pw_name + ")";
  }
  return user;
}

// The file an output path leads to, and how it is written.
struct Destination {
  enum Kind { kNew, kRegular, kInPlace };
  Kind kind = kNew;
  std::string target;         // the path, or where trusted links led
  bool through_link = false;  // target is a link the kernel resolves without a path
  bool held_open = false;     // reached through /proc's link to a file a process has open
  struct stat found = {};     // a regular file's
};

// Whether `directory` is in /proc (as /proc/self/fd, and /dev/fd that leads there), whose
// links name a process's open files.
bool InProcfs(const std::string &directory) {
  struct statfs fs;
  return statfs(directory.c_str(), &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

// "a FIFO", "a character device", "a block device": what is written in place.
const char *InPlaceKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  return S_ISBLK(mode) ? "a block device" : "a character device";
}

// Only root or this user may own a FIFO or device written in place: another user's (planted in
// /tmp, say) could hold the output back, or take it as it is written. "" or why not.
std::string InPlaceOwnerReason(const std::string &path, const std::string &target,
                               const struct stat &st) {
  if (st.st_uid == 0 || st.st_uid == geteuid()) return "";
  const std::string what = target == path ? "it is" : "it leads to " + target + ",";
  return what + " " + InPlaceKind(st.st_mode) + " of user " + UserOf(st.st_uid) +
         ", not yours: another user's FIFO or device could hold the output back or read it; "
         "remove it, or write elsewhere";
}

// "" and *d, or the reason the path cannot be written.
std::string Resolve(const std::string &path, Destination *d) {
  d->target = path;
  for (int hop = 0; hop <= kMaxLinks; ++hop) {
    struct stat st;
    if (lstat(d->target.c_str(), &st) != 0) {
      if (errno != ENOENT) return strerror(errno);
      d->kind = Destination::kNew;
      return "";
    }
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    if (S_ISSOCK(st.st_mode)) return "it is a socket";
    if (S_ISREG(st.st_mode)) {
      d->kind = Destination::kRegular;
      d->found = st;
      return "";
    }
    if (!S_ISLNK(st.st_mode)) {
      // A device or FIFO. One that a process already has open (/dev/stdout to the caller's
      // terminal) was chosen by whoever opened it, whoever owns it.
      if (!d->held_open) {
        const std::string reason = InPlaceOwnerReason(path, d->target, st);
        if (!reason.empty()) return reason;
      }
      d->kind = Destination::kInPlace;
      return "";
    }
    // Only root or this user could have made the link: it says where they want the output.
    // Anyone else's (planted in /tmp, say) could name any file root may write.
    if (st.st_uid != 0 && st.st_uid != geteuid()) {
      const std::string link = d->target == path ? "it is" : "it leads to " + d->target + ",";
      return link + " a symbolic link of user " + UserOf(st.st_uid) +
             ", not yours: another user's link could send the output into any file; remove "
             "it, or name the file it points to";
    }
    char next[PATH_MAX];
    const ssize_t n = readlink(d->target.c_str(), next, sizeof next - 1);
    if (n < 0) return strerror(errno);
    next[n] = '\0';
    const std::string resolved = next[0] == '/' ? next : DirectoryOf(d->target) + "/" + next;
    struct stat end;
    if (lstat(resolved.c_str(), &end) != 0 && errno == ENOENT &&
        stat(d->target.c_str(), &end) == 0) {
      // Nothing at the link's text, yet it leads somewhere: one of /proc's links to an open
      // file, such as /dev/stdout's /proc/self/fd/1 to a pipe ("pipe:[N]"). Only the kernel
      // can follow it.
      if (S_ISDIR(end.st_mode)) return "it is a directory";
      d->kind = Destination::kInPlace;
      d->through_link = true;
      return "";
    }
    d->held_open = InProcfs(DirectoryOf(d->target));
    d->target = resolved;
  }
  return strerror(ELOOP);
}

// Replacing a file by rename needs the right to remove it, which a sticky directory (/tmp)
// gives only to the file's and the directory's owners: "" or why not.
std::string ReplaceableReason(const Destination &d) {
  const uid_t me = geteuid();
  if (d.kind != Destination::kRegular || me == 0 || d.found.st_uid == me) return "";
  struct stat directory;
  if (stat(DirectoryOf(d.target).c_str(), &directory) == 0 && (directory.st_mode & S_ISVTX) &&
      directory.st_uid != me) {
    return "it is the file of user " + UserOf(d.found.st_uid) +
           ", in a sticky directory where only they may replace it";
  }
  return "";
}

// A new file beside `target`, ".NAME.XXXXXX" (O_EXCL: never one a link points to), or -1 with
// *reason set.
int MakeTemporary(const std::string &target, std::string *name, std::string *reason) {
  const std::string pattern = DirectoryOf(target) + "/." + NameOf(target) + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = mkostemp(buffer.data(), O_CLOEXEC);
  if (fd < 0) {
    *reason = std::string(strerror(errno)) + " (making a file in " + DirectoryOf(target) + ")";
    return -1;
  }
  *name = buffer.data();
  return fd;
}

mode_t NewFileMode() {
  static const mode_t mask = [] {
    const mode_t old = umask(022);
    umask(old);
    return old;
  }();
  return 0666 & ~mask;
}

std::string Refused(const std::string &path, const std::string &reason) {
  return "cannot write " + path + ": " + reason;
}

}  // namespace

std::string CheckOutputFile(const std::string &path) {
  NewFileMode();  // reads the umask now, before a tool starts threads (umask() sets it a moment)
  if (path.empty()) return "cannot write an output: its path is empty";
  Destination d;
  std::string reason = Resolve(path, &d);
  if (!reason.empty()) return Refused(path, reason);
  if (d.kind == Destination::kInPlace) {
    return access(d.target.c_str(), W_OK) == 0 ? "" : Refused(path, strerror(errno));
  }
  reason = ReplaceableReason(d);
  if (!reason.empty()) return Refused(path, reason);
  std::string temporary;
  const int fd = MakeTemporary(d.target, &temporary, &reason);
  if (fd < 0) return Refused(path, reason);
  close(fd);
  unlink(temporary.c_str());
  return "";
}

OutputFile::OutputFile(OutputFile &&other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temporary_(std::move(other.temporary_)),
      fd_(other.fd_),
      stream_(other.stream_) {
  other.temporary_.clear();
  other.fd_ = -1;
  other.stream_ = nullptr;
}

OutputFile::~OutputFile() {
  if (stream_) {
    fclose(stream_);
  } else if (fd_ >= 0) {
    close(fd_);
  }
  if (!temporary_.empty()) unlink(temporary_.c_str());
}

std::string OutputFile::Fail(const std::string &reason) {
  if (stream_) {
    fclose(stream_);
  } else if (fd_ >= 0) {
    close(fd_);
  }
  stream_ = nullptr;
  fd_ = -1;
  if (!temporary_.empty()) unlink(temporary_.c_str());
  temporary_.clear();
  return Refused(path_, reason);
}

std::string OutputFile::Open(const std::string &path) { return Begin(path, false); }

std::string OutputFile::OpenStream(const std::string &path) { return Begin(path, true); }

std::string OutputFile::Begin(const std::string &path, bool stream) {
  path_ = path;
  if (path.empty()) return "cannot write an output: its path is empty";
  Destination d;
  std::string reason = Resolve(path, &d);
  if (!reason.empty()) return Fail(reason);
  target_ = d.target;
  // Every open is O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader,
  // for ever if none comes. What was opened is then checked, and the flag taken off for the
  // writes.
  if (d.kind == Destination::kInPlace) {
    const int follow = d.through_link ? 0 : O_NOFOLLOW;
    fd_ = open(target_.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | follow);
    if (fd_ < 0 && errno == ENXIO) {
      return Fail("it is a FIFO that no process reads: start its reader first");
    }
    if (fd_ < 0) return Fail(strerror(errno));
    struct stat st;
    if (fstat(fd_, &st) != 0) return Fail(strerror(errno));
    if (S_ISREG(st.st_mode)) {
      // Swapped for a file since it was looked at: not written over in place.
      if (!d.through_link) return Fail("it was replaced by a regular file while being opened");
      if (ftruncate(fd_, 0) != 0) return Fail(strerror(errno));  // a deleted file still open
    } else if (!d.through_link && !d.held_open) {
      // Swapped for another user's FIFO since it was looked at.
      reason = InPlaceOwnerReason(path, target_, st);
      if (!reason.empty()) return Fail(reason);
    }
  } else if (stream) {
    fd_ = open(target_.c_str(),
               O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno == ELOOP) return Fail("it became a symbolic link while being opened");
    if (fd_ < 0 && errno == ENXIO) return Fail("it became a FIFO while being opened");
    if (fd_ < 0) return Fail(strerror(errno));
    struct stat st;
    if (fstat(fd_, &st) != 0) return Fail(strerror(errno));
    if (!S_ISREG(st.st_mode)) return Fail("it became a FIFO or device while being opened");
  } else {
    reason = ReplaceableReason(d);
    if (!reason.empty()) return Fail(reason);
    fd_ = MakeTemporary(target_, &temporary_, &reason);
    if (fd_ < 0) return Fail(reason);
    if (fchmod(fd_, NewFileMode()) != 0) return Fail(strerror(errno));
  }
  const int flags = fcntl(fd_, F_GETFL);
  if (flags < 0 || fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) return Fail(strerror(errno));
  stream_ = fdopen(fd_, "w");
  if (!stream_) return Fail(strerror(errno));
  return "";
}

FILE *OutputFile::stream() { return stream_; }

std::string OutputFile::Write(const void *bytes, size_t size) {
  if (!stream_) return Refused(path_, "it is not open");
  if (size > 0 && fwrite(bytes, 1, size, stream_) != size) return Fail(strerror(errno));
  return "";
}

std::string OutputFile::Commit() {
  if (!stream_) return Refused(path_, "it is not open");
  bool ok = fflush(stream_) == 0 && !ferror(stream_);
  int error = errno;
  if (fclose(stream_) != 0 && ok) {
    ok = false;
    error = errno;
  }
  stream_ = nullptr;
  fd_ = -1;
  if (!ok) return Fail(strerror(error));
  // rename replaces whatever is at the path now, a link planted meanwhile included, and never
  // follows one.
  if (!temporary_.empty() && rename(temporary_.c_str(), target_.c_str()) != 0) {
    return Fail(strerror(errno));
  }
  temporary_.clear();
  return "";
}

std::string WriteOutputFile(const std::string &path, const void *bytes, size_t size) {
  OutputFile file;
  std::string error = file.Open(path);
  if (error.empty()) error = file.Write(bytes, size);
  if (error.empty()) error = file.Commit();
  return error;
}

}  // namespace tools
