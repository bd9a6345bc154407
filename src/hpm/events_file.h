/* SPDX-License-Identifier: MIT */
// The libHPMevents file of the working directory, read the way the catalog reads its tables:
// the directory is the user's and may hold anything. Only a regular file is read (a FIFO would
// block hpmInit forever, a device might never end), opened without blocking, up to a bound;
// text only (a NUL byte would cut the request short in every message that shows it).
#pragma once

#include <stddef.h>

#include <string>

namespace hpm {

constexpr const char *kEventsFileName = "libHPMevents";
constexpr size_t kLargestEventsFile = 64 * 1024;  // 8 names and comments need far less

enum class EventsFile {
  kAbsent,   // no such file: nothing asked
  kRead,     // `text` holds its contents, comments (from '#' to the line's end) removed
  kRefused,  // `why` says what is wrong, naming the file (and the line for a bad byte)
};

EventsFile ReadEventsFile(std::string *text, std::string *why);

}  // namespace hpm
