// SPDX-License-Identifier: MIT
// Reading libHPMevents (events_file.h): look, open without blocking, look again, read.
#include "events_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hpm {
namespace {

// Why `info` is not a file to read, or "".
std::string Refusal(const struct stat &info) {
  if (S_ISREG(info.st_mode)) {
    if (static_cast<unsigned long long>(info.st_size) <= kLargestEventsFile) return "";
    return "is " + std::to_string(info.st_size) + " bytes, more than the " +
           std::to_string(kLargestEventsFile) + " a libHPMevents file may have";
  }
  const char *kind = S_ISDIR(info.st_mode)    ? "a directory"
                     : S_ISFIFO(info.st_mode) ? "a FIFO"
                     : S_ISCHR(info.st_mode)  ? "a character device"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                                              : "not a regular file";
  return std::string("is ") + kind + ", not a regular file";
}

// Reads at most kLargestEventsFile + 1 bytes of `fd` into `text`; false on a read error.
bool ReadBounded(int fd, std::string *text) {
  text->assign(kLargestEventsFile + 1, '\0');
  size_t used = 0;
  while (used < text->size()) {
    ssize_t n = read(fd, &(*text)[used], text->size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  text->resize(used);
  return true;
}

// "" when `text` is text; else what is wrong, with its line: a control byte (a NUL above all)
// would cut or garble every message that shows the request.
std::string BadByte(const std::string &text) {
  int line = 1;
  for (char ch : text) {
    unsigned char byte = static_cast<unsigned char>(ch);
    if (ch == '\n') ++line;
    if (byte >= 0x20 || ch == '\n' || ch == '\t' || ch == '\r') continue;
    char what[32];
    if (byte == 0) {
      snprintf(what, sizeof what, "a NUL byte");
    } else {
      snprintf(what, sizeof what, "the control byte 0x%02x", byte);
    }
    return std::string(kEventsFileName) + ":" + std::to_string(line) + ": holds " + what +
           "; the file must be text: group or event names separated by commas, blanks or lines";
  }
  return "";
}

std::string WithoutComments(const std::string &text) {
  std::string out;
  bool comment = false;
  for (char ch : text) {
    if (ch == '#') comment = true;
    if (ch == '\n') comment = false;
    if (!comment) out += ch;
  }
  return out;
}

}  // namespace

EventsFile ReadEventsFile(std::string *text, std::string *why) {
  text->clear();
  const std::string name = kEventsFileName;
  auto refuse = [&](const std::string &reason) {
    *why = name + " (in the working directory) " + reason;
    return EventsFile::kRefused;
  };
  auto cannot_read = [&] { return refuse(std::string("cannot be read: ") + strerror(errno)); };
  // Look before opening: opening a FIFO or a device can block or do something. The look after
  // opening is the one that counts: the file could have been swapped in between.
  struct stat info;
  if (stat(kEventsFileName, &info) < 0) {
    if (errno == ENOENT) return EventsFile::kAbsent;
    return cannot_read();
  }
  std::string reason = Refusal(info);
  if (!reason.empty()) return refuse(reason);
  int fd = open(kEventsFileName, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return cannot_read();
  bool ok = fstat(fd, &info) == 0;
  if (ok) reason = Refusal(info);
  if (ok && reason.empty()) ok = ReadBounded(fd, text);
  int saved = errno;
  close(fd);
  errno = saved;
  if (!ok) return cannot_read();
  if (!reason.empty()) return refuse(reason);
  if (text->size() > kLargestEventsFile) {
    text->clear();
    return refuse("grew past " + std::to_string(kLargestEventsFile) + " bytes while it was read");
  }
  std::string bad = BadByte(*text);
  if (!bad.empty()) {
    text->clear();
    *why = bad;
    return EventsFile::kRefused;
  }
  *text = WithoutComments(*text);
  return EventsFile::kRead;
}

}  // namespace hpm
