// Opening pmcount's -o file without letting another user's link choose where the counts go.
#pragma once

#include <string>

namespace pmcount {

// Opens `path` for writing (created 0666 less the umask, or truncated). A symbolic link at
// `path` is followed only when it belongs to the caller or to root (/dev/stdout, /dev/fd/N):
// a link another user planted in a shared directory such as /tmp could otherwise make a
// root pmcount truncate any file, as the kernel's protected_symlinks rule guards against
// in sticky directories only. Returns the descriptor, or -1 with `error` saying why.
int OpenOutputFile(const std::string &path, std::string *error);

}  // namespace pmcount
