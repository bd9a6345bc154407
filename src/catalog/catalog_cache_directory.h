// The catalog cache directory, found without trusting anyone else's directory. $HOME or
// $XDG_CACHE_HOME may point into a directory another user controls (sudo keeping HOME), and a
// path resolved by name could then lead, through that user's symbolic link, anywhere: root
// would write its cache file there and delete files named like old cache files. So the
// directory is walked from "/" one component at a time, following no link, and every component
// must pass the rule below; the directory is then held open, and every file operation below it
// goes through that open directory, never through the path again.
//
// The rule (docs/catalog.md, "The catalog cache"):
//   - no component is a symbolic link, ".", or "..";
//   - every component is owned by root or by this effective user;
//   - a component writable by its group or by others is accepted only with the sticky bit
//     (like /tmp), where no one else can rename or remove what is ours;
//   - the cache directory itself is owned by this effective user and writable by no one else.
// A path that breaks the rule means no cache at all: nothing is read, written or removed.
#pragma once

#include <string>

namespace pmapi {

class CacheDirectory {
 public:
  CacheDirectory() = default;
  ~CacheDirectory();
  CacheDirectory(const CacheDirectory &) = delete;
  CacheDirectory &operator=(const CacheDirectory &) = delete;

  // Walks `dir` (absolute) under the rule above. With `create`, makes the last component and
  // its parent (mode 0700) when missing, but nothing further up. True when `dir` is usable.
  bool Open(const std::string &dir, bool create);

  // A path naming `name` inside the held directory, for the kernel seam's path-taking calls:
  // "/proc/self/fd/<fd>/<name>". The kernel resolves the descriptor link to the very directory
  // that was checked (wherever it has been moved since), and only `name` is looked up in it.
  // `name` "" names the directory itself.
  std::string Path(const std::string &name) const;

 private:
  int fd_ = -1;  // O_PATH
};

}  // namespace pmapi
