#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pmcount {

int OpenOutputFile(const std::string &path, std::string *error) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  int fd = open(path.c_str(), kFlags | O_NOFOLLOW, 0666);
  if (fd >= 0) return fd;
  if (errno == ELOOP) {
    // The last component is a link (O_NOFOLLOW's ELOOP): whose is it? A link cannot be
    // changed by anyone but its owner in a sticky directory, so the check holds until the
    // open below; in a directory others may write, they could replace any file anyway.
    struct stat link;
    if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      if (link.st_uid != geteuid() && link.st_uid != 0) {
        *error = "cannot open " + path + ": it is a symbolic link of user " +
                 std::to_string(link.st_uid) +
                 ", not yours: another user's link could send the counts into any file; "
                 "remove it, or name the file it points to";
        return -1;
      }
      fd = open(path.c_str(), kFlags, 0666);
      if (fd >= 0) return fd;
    }
  }
  *error = "cannot open " + path + ": " + strerror(errno);
  return -1;
}

}  // namespace pmcount
