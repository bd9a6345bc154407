/* SPDX-License-Identifier: MIT */
// The one tracefs helper: where tracefs answers, and a tracepoint's id, every read through the
// kernel seam (kTracefsRoots says where tracefs may be mounted). The catalog lists and encodes
// tracepoints with it; the core finds the fork tracepoint with it.
#pragma once

#include <stdint.h>

#include <string>

namespace pmapi {

// The first of kTracefsRoots under which `file` can be read whole into `*text`, or, when `text`
// is nullptr, passes access(R_OK) alone; "" when neither does.
std::string FindTracefsRoot(const char *file, std::string *text);

// Where the tracefs id of tracepoint "subsystem:name" is under `root`:
// "<root>/events/<subsystem>/<name>/id" ("" when `name` has no colon).
std::string TracepointIdPath(const std::string &root, const std::string &name);

// Reads that id into `*id`: 0; -errno when the file cannot be read; 1 when it holds no number
// (`*text` keeps what it holds, for the message).
int ReadTracepointId(const std::string &path, uint64_t *id, std::string *text);

}  // namespace pmapi
