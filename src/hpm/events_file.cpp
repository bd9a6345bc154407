// SPDX-License-Identifier: MIT
// Reading libHPMevents (events_file.h) by the library's rule for small files (base/small_file.h),
// then checking it is text.
#include "events_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/small_file.h"

namespace hpm {
namespace {

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
  std::string reason;
  switch (pmapi::ReadSmallFile(AT_FDCWD, kEventsFileName, kLargestEventsFile, "a libHPMevents file",
                               text, &reason)) {
    case pmapi::SmallFile::kAbsent:
      return EventsFile::kAbsent;
    case pmapi::SmallFile::kRefused:
      *why = std::string(kEventsFileName) + " (in the working directory) " + reason;
      return EventsFile::kRefused;
    case pmapi::SmallFile::kRead:
      break;
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
