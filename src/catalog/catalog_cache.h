// The per-boot on-disk catalog cache. Building the catalog from its sources costs a cold
// pm_initialize several milliseconds (libpfm4's initialization, tracefs, kernel probes); the
// cache lets every later process of the same boot, library builds and user read the result of
// the first instead (docs/catalog.md, "The catalog cache").
//
// Where: $XDG_CACHE_HOME/libpmapi, else $HOME/.cache/libpmapi; one file per libpmapi build,
// libpfm4 build, effective uid and boot, catalog-<tag>.bin (catalog_cache_key.h). The path is
// walked without following links and must pass the ownership rule of catalog_cache_directory.h
// (no directory of another user on the way), else there is no cache. Off when
// PMAPI_NO_CACHE is set (to anything but "" or "0"), in setuid/setgid programs, and when
// neither variable is set. Every failure is silent and only costs the time of building from
// the sources: an unwritable directory, a file of another owner, a damaged file.
#pragma once

#include <string>

#include "catalog/catalog_cache_key.h"
#include "catalog/catalog_contents.h"

namespace pmapi {

constexpr const char *kNoCacheVariable = "PMAPI_NO_CACHE";

// The cache directory this process uses, or "" for none (see above).
std::string DefaultCatalogCacheDirectory();

// The file under `dir` that holds the catalog for `key`.
std::string CatalogCachePath(const std::string &dir, const CatalogCacheKey &key);

// True and `contents` filled when `dir` passes the ownership rule and the file for `key` in it
// exists (not as a link), belongs to this effective user,
// is writable by no one else, and is an intact file written under exactly this key.
bool LoadCatalogCache(const std::string &dir, const CatalogCacheKey &key,
                      CatalogContents *contents);

// Writes the file for `key` atomically (a private temporary file renamed over it, so readers
// see the old file or the new one, never part of one), creating `dir` and its parent (mode
// 0700) if needed, inside a directory of this user only, and only when the path passes the
// ownership rule. Then keeps only the newest few other files (of other builds or boots; each
// build of libpmapi, and each program linking libpmapi.a, has its own). Failures are ignored.
//
// The file is read through a read-only mapping. Writers never change a file in place (they
// rename a new one over it), so a mapped file does not shrink under its reader.
void StoreCatalogCache(const std::string &dir, const CatalogCacheKey &key,
                       const CatalogContents &contents);

}  // namespace pmapi
