// A fast 64-bit hash of bytes, for the catalog cache: the checksum that detects a damaged cache
// file, and short digests of large key inputs. Not cryptographic: it guards against accidents
// (a torn write, a flipped bit), not against someone forging a file.
#pragma once

#include <stdint.h>

#include <string>
#include <string_view>

namespace pmapi {

uint64_t Hash64(std::string_view bytes, uint64_t seed = 0);

// The hash as 16 lowercase hex digits.
std::string Hex64(uint64_t value);

}  // namespace pmapi
