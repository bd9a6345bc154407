/* SPDX-License-Identifier: MIT */
// The catalog cache: one file per user in a private directory (ChooseCacheDirectory) holding the
// catalog the sources gave the first process, so that later ones restore it instead of initializing
// libpfm4, reading tracefs and probing the kernel again (docs/catalog.md, "The catalog cache").
//
// $XDG_RUNTIME_DIR is the user's own directory on a tmpfs that is emptied at boot (and logout),
// local to the machine: so the file needs no boot id, no pruning of old files, and never lands on
// a home directory that a cluster's nodes share. The file is keyed on what its contents depend
// on beyond this boot and user: the build constant (a digest of the library's sources and
// tables), libpfm4's version, and kernel.perf_event_paranoid. Two kernel-seam calls do all the
// file work: MapFile to read, WriteFileAtomically to write. Every failure is silent and costs
// only the time of building from the sources.
//
// The file's bytes, native byte order (the file never leaves the machine that wrote it):
//   "PMAPICAT", u32 format version, u32 key length, the key text,
//   u64 payload length, u64 Hash64 of the payload, the payload:
//     proc_name, tracefs_root, table_position, table_count, the id ranges, then every event:
//     id, source, status, the known encoding if any, short_name, long_name, description,
//     encoding (strings as u32 length + bytes); then u8 has_groups and, if 1, the compiled-in
//     groups: count, then each group's id, client id (-1 unpinned), short_name, long_name,
//     description, origin, its members (count, names) and metrics (count, name and formula
//     text); then the members' stored positions (count, u32 each, UINT32_MAX for none) and the
//     filler's.
// Reading checks everything before trusting it: magic, version, key, length, checksum, every
// bound, every enum value, and ContentsConsistent(). A file that fails any check is treated as
// absent; reading never crashes on bad bytes.
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include <string>
#include <string_view>

#include "catalog/catalog_contents.h"

namespace pmapi {

// A SHA-256 over the library's sources, headers and tables, made at build time
// (build_constant.cmake): the same for every program built from the same sources.
extern const char kCatalogBuildConstant[];

// The cache file this process uses, or "" for none: "libpmapi-catalog-<euid>.bin" in the
// directory ChooseCacheDirectory chooses ($XDG_RUNTIME_DIR, else /run/user/<euid>, else a private
// $TMPDIR/libpmapi-<euid>). None when PMAPI_NO_CACHE is set (to anything but "" or "0"),
// in setuid/setgid programs (they must not trust a file the caller's environment names), and
// when the catalog's contents would depend on more of the environment than the key says:
// PMAPI_EVENTS_DIR set, or a LIBPFM_* variable (LIBPFM_FORCE_PMU and the like).
// `boot_in_key` (if given) says whether the key must name the boot (the private directory may
// outlive one; catalog.cpp passes it on to CatalogCacheKey).
std::string DefaultCatalogCachePath(bool *boot_in_key = nullptr);

// The key a file must have been written under to be used here. "" when one of its facts cannot
// be read (then there is no cache). With `boot`, it also names the boot
// (/proc/sys/kernel/random/boot_id), for a file in a directory that a reboot may not empty.
std::string CatalogCacheKey(bool boot = false);

// True and `contents` filled when the file at `path` is a regular file (not a link) of this
// effective user, writable by no one else, intact, and written under exactly `key`.
bool LoadCatalogCache(const std::string &path, const std::string &key, CatalogContents *contents);

// Replaces the file at `path` atomically (readers see the old file or the new one), mode 0600.
// Failures are ignored.
void StoreCatalogCache(const std::string &path, const std::string &key,
                       const CatalogContents &contents);

// The file's bytes for `contents` under `key`.
std::string SerializeCatalog(const std::string &key, const CatalogContents &contents);

// True and `contents` filled when `bytes` is an intact file written under exactly `key`.
bool DeserializeCatalog(std::string_view bytes, const std::string &key, CatalogContents *contents);

// The file's checksum: a fast 64-bit hash of bytes, eight at a time. Not cryptographic: it
// guards against accidents (a torn write, a flipped bit), not against someone forging a file.
uint64_t Hash64(std::string_view bytes, uint64_t seed = 0);

// ---- Where the file lives ----------------------------------------------------------------
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
