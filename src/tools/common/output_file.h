/* SPDX-License-Identifier: MIT */
// The files the tools write (pmcount -o, cpuperf's outputs, pmsample's), safe to write as root
// in a directory others can write, such as /tmp. One policy (docs/tools.md, "Output files"):
//
// - A symbolic link at the path is followed only when it belongs to root or to the caller:
//   only they could have made it, and it says where they want the output (/dev/stdout, a link
//   of one's own). Another user's link is refused, with the path and its owner: following it is
//   how a planted link would make root overwrite any file. Every link of a chain is checked.
// - A regular file (or none) is written as a new file made beside it with O_EXCL, which
//   follows no link, and renamed over it when complete (Open): a reader never sees half a
//   file, a failed run leaves the old one, and a link planted meanwhile is replaced, not
//   followed. Or it is opened now with O_NOFOLLOW and written as the tool goes (OpenStream:
//   pmcount -o, -I intervals).
// - A device or FIFO (/dev/null, a pipe) is written in place, when it belongs to root or to the
//   caller, or a process has it open already (/dev/stdout): another user's (a FIFO planted in
//   /tmp) is refused as their link is. Opening never waits: a FIFO that no process reads is
//   refused at once rather than waited on.
// - Before it starts a command, a tool opens its outputs or, if it writes them only
//   afterwards, checks them (CheckOutputFile), and exits 125 on failure without running it.
//
// Every error reads "cannot write PATH: reason".
#pragma once

#include <stddef.h>
#include <stdio.h>

#include <string>

namespace tools {

// Whether Open(path) would succeed, without writing anything: "" or "cannot write PATH: why".
// The directory is probed with a file made and removed at once.
std::string CheckOutputFile(const std::string &path);

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // closes; a whole file never committed is removed, the old one left as it was
  OutputFile(OutputFile &&other) noexcept;
  OutputFile &operator=(OutputFile &&other) = delete;
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  // A whole file, put at `path` by Commit: "" or "cannot write PATH: why".
  std::string Open(const std::string &path);
  // A file written as it goes, created or truncated now: "" or "cannot write PATH: why".
  std::string OpenStream(const std::string &path);

  int fd() const { return fd_; }
  // A stdio stream over fd(), made on first use (for fprintf); Commit flushes it.
  FILE *stream();
  // Writes all of `bytes`: "" or "cannot write PATH: why".
  std::string Write(const void *bytes, size_t size);
  // Flushes, closes and puts a whole file at its path: "" or "cannot write PATH: why" (then the
  // old file is kept). Once only.
  std::string Commit();

  const std::string &path() const { return path_; }

 private:
  std::string Fail(const std::string &reason);
  std::string Begin(const std::string &path, bool stream);

  std::string path_;       // as given
  std::string target_;     // where the file goes: the path, or where trusted links led
  std::string temporary_;  // the new file beside target_; empty when writing in place
  int fd_ = -1;
  FILE *stream_ = nullptr;  // owns fd_ once made
};

// Writes `size` bytes as the whole file `path`: "" or "cannot write PATH: why".
std::string WriteOutputFile(const std::string &path, const void *bytes, size_t size);

}  // namespace tools
