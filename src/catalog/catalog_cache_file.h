// The bytes of a catalog cache file. Layout, native byte order (the file never leaves the
// machine that wrote it):
//   "PMAPICAT", u32 layout version, u32 key length, the key text,
//   u64 payload length, u64 Hash64 of the payload, the payload:
//     proc_name, tracefs_root, table_position, table_count, the id ranges, then every event:
//     id, source, status, the known encoding if any, short_name, long_name, description,
//     encoding (strings as u32 length + bytes).
// Reading checks everything before trusting it: magic, version, key, length, checksum, every
// bound, every enum value, and ContentsConsistent(). A file that fails any check is treated as
// absent; reading never crashes on bad bytes.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog_contents.h"

namespace pmapi {

std::string SerializeCatalog(const std::string &key, const CatalogContents &contents);

// True and `contents` filled when `bytes` is an intact file written under exactly `key`.
bool DeserializeCatalog(std::string_view bytes, const std::string &key, CatalogContents *contents);

}  // namespace pmapi
