// Where the catalog cache file lives: a directory only this user can write, local to the
// machine, chosen the way tmux and ssh-agent choose theirs (docs/catalog.md, "The catalog
// cache"):
//   1. $XDG_RUNTIME_DIR, when it is an absolute path (the login manager's per-user tmpfs);
//   2. else /run/user/<euid>, when it exists (the directory the login manager would have named);
//   3. else a private directory of the library's own, $TMPDIR/libpmapi-<euid> (/tmp when TMPDIR
//      is unset or relative), made with mode 0700 when absent. It is used only when lstat(2)
//      shows a real directory (not a link) owned by the effective user with no permission for
//      group or others; anything else there -- another user's directory, a link, one made too
//      open -- means no cache, and is neither followed nor changed.
// Root in a container, cron and batch jobs (Slurm sets no XDG_RUNTIME_DIR) get case 3.
#pragma once

#include <sys/types.h>

#include <string>

namespace pmapi {

// What the choice depends on, so that tests can name every case.
struct CacheDirectoryInputs {
  const char *runtime_dir = nullptr;  // $XDG_RUNTIME_DIR, or nullptr
  std::string login_dir;              // "/run/user/<euid>"
  const char *temp_dir = nullptr;     // $TMPDIR, or nullptr
  uid_t euid = 0;
};

// The inputs of this process: its settings (base/settings.h) and effective uid.
CacheDirectoryInputs CurrentCacheDirectoryInputs();

// The directory to keep the cache file in, or "" for none (then there is no cache). May make
// the private directory of case 3; changes nothing else. `own` (if given) tells whether it is
// that directory: unlike the runtime directories, it may be on a disk that keeps it across a
// reboot, so the file's key must name the boot.
std::string ChooseCacheDirectory(const CacheDirectoryInputs &inputs, bool *own = nullptr);

// Whether the directory at `path` is one the library may keep the cache in: lstat says a
// directory (a link is refused, not followed), owned by `euid`, mode without group or other
// permissions.
bool PrivateDirectory(const std::string &path, uid_t euid);

}  // namespace pmapi
