// Choosing the catalog cache's directory, and making the private one when no login session
// gave the process a runtime directory.
#include "catalog/cache_directory.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/settings.h"

namespace pmapi {

CacheDirectoryInputs CurrentCacheDirectoryInputs() {
  CacheDirectoryInputs inputs;
  inputs.euid = geteuid();
  // The settings' strings stay valid until exit (settings.h).
  const Settings &settings = CurrentSettings();
  if (!settings.runtime_dir.empty()) inputs.runtime_dir = settings.runtime_dir.c_str();
  inputs.login_dir = "/run/user/" + std::to_string(inputs.euid);
  if (!settings.temp_dir.empty()) inputs.temp_dir = settings.temp_dir.c_str();
  return inputs;
}

bool PrivateDirectory(const std::string &path, uid_t euid) {
  struct stat info;
  if (lstat(path.c_str(), &info) != 0) return false;
  return S_ISDIR(info.st_mode) && info.st_uid == euid && (info.st_mode & 077) == 0;
}

std::string ChooseCacheDirectory(const CacheDirectoryInputs &inputs, bool *own_directory) {
  if (own_directory) *own_directory = false;
  // The XDG base-directory rules: a relative path is to be ignored. The runtime directory is
  // the login manager's promise of a private one, so it is taken as it is.
  if (inputs.runtime_dir && inputs.runtime_dir[0] == '/') return inputs.runtime_dir;
  struct stat info;
  if (stat(inputs.login_dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return inputs.login_dir;
  const std::string temp =
      inputs.temp_dir && inputs.temp_dir[0] == '/' ? inputs.temp_dir : std::string("/tmp");
  const std::string own = temp + "/libpmapi-" + std::to_string(inputs.euid);
  // Checked before it is made, so that a hit costs one lstat. mkdir fails on anything already
  // at the path, a link included, and never changes what is there; the umask may only narrow
  // 0700. In a sticky /tmp nobody else can rename or remove the directory once it is checked.
  if (!PrivateDirectory(own, inputs.euid)) {
    if (mkdir(own.c_str(), 0700) != 0 && errno != EEXIST) return "";
    if (!PrivateDirectory(own, inputs.euid)) return "";
  }
  if (own_directory) *own_directory = true;
  return own;
}

}  // namespace pmapi
