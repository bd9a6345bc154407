// One file pmsample writes, prepared before the command starts (a path that cannot be written
// is reported at once, with its reason, and nothing runs) and safe to write as root in a
// shared directory such as /tmp: the content goes to a new file made beside the target with
// O_EXCL (which never follows a link) and is renamed over the target when complete, so a
// symbolic link planted there is replaced, never written through. A link is followed only when
// it belongs to root or to the user running pmsample (only they could have made it, as with
// /dev/stdout); a device or FIFO (/dev/null, a pipe) is written in place.
#pragma once

#include <cstddef>
#include <string>

namespace pmsample {

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // not committed: the new file is removed, the target left as it was
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  OutputFile(OutputFile&& other) noexcept;

  // False with *error = "cannot write PATH: reason" when `path` cannot be written.
  bool Open(const std::string& path, std::string* error);
  // Writes `data` and puts it at the path; false with *error set. Once only.
  bool Commit(const void* data, size_t size, std::string* error);

  const std::string& path() const { return path_; }

 private:
  bool Fail(const std::string& reason, std::string* error);

  std::string path_;    // as given
  std::string target_;  // what the new file is renamed to (the path, or where a link led)
  std::string temp_;    // the new file; empty when writing in place
  int fd_ = -1;
};

}  // namespace pmsample
