// cpuperf's files, written safely when cpuperf runs as root in a directory others can write
// (/tmp): never through a symbolic link, never onto a file someone else put in its place. A
// regular file is written as a new file beside it (O_CREAT | O_EXCL, which follows no link)
// and renamed over it when complete, so a reader never sees half a file and a failed run leaves
// the old one. An existing device or FIFO (/dev/null, a pipe) is written in place. A symbolic
// link at the path is refused: following it is how another user's planted link would make
// root overwrite any file.
#pragma once

#include <stdio.h>

#include <string>

namespace cpuperf {

// Whether `path` can be written, checked before the traced command runs: "" or "PATH: why".
// The directory is probed with a file made and removed at once.
std::string CheckOutput(const std::string &path);

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // removes the new file unless committed
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  // "" or "PATH: why". Then write to stream().
  std::string Open(const std::string &path);
  FILE *stream() const { return stream_; }
  // Flushes, closes and puts the file in place: "" or "PATH: why" (the old file is kept then).
  std::string Commit();

 private:
  std::string path_;
  std::string temporary_;  // "" when writing the path itself
  FILE *stream_ = nullptr;
};

// Writes `size` bytes as the whole file `path` through an OutputFile: "" or "PATH: why".
std::string WriteOutput(const std::string &path, const void *bytes, size_t size);

}  // namespace cpuperf
