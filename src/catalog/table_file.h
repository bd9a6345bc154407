// Reading one run-time table file (events/*.tbl, groups/*.grp beside $PMAPI_EVENTS_DIR or
// $PMAPI_GROUPS_DIR). Those directories are named by the environment and may hold anything: a
// FIFO that would block a read forever, a device such as /dev/zero that never ends, a sparse
// file of 100 GB. Only a regular file no larger than kLargestTableFile is read; anything else
// is refused with Pmapi_BadCatalog naming the file, before a byte of it is read.
#pragma once

#include <stddef.h>

#include <string>

#include "base/status.h"

namespace pmapi {

// 16 MiB: the shipped tables are a few KB each, a generated site table of the whole id range
// (99,999 records) stays under 16 MB, and a larger file is taken for a mistake, not a table.
constexpr size_t kLargestTableFile = 16u << 20;

// Reads the file `name` of the directory open as `dir_fd` (or AT_FDCWD and a path) into
// `text`. A symbolic link is followed (pmcount links the user's tables into a directory of its
// own), but what it reaches must be a regular file too. `label` names the file in errors.
// Opening never blocks (O_NONBLOCK) and leaks no descriptor (O_CLOEXEC, closed on every path).
Status ReadTableFile(int dir_fd, const std::string &name, const std::string &label,
                     std::string *text);

}  // namespace pmapi
