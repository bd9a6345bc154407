// Eight bytes per step with one multiply: ~30 us for a 300 KB cache file here, where a
// byte-at-a-time hash (FNV) would cost ~150 us of a budget of about a millisecond.
#include "catalog/hash64.h"

#include <string.h>

namespace pmapi {
namespace {

constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;

uint64_t Step(uint64_t hash, uint64_t word) {
  hash = (hash ^ word) * kMultiplier;
  return hash ^ (hash >> 31);
}

}  // namespace

uint64_t Hash64(std::string_view bytes, uint64_t seed) {
  uint64_t hash = seed ^ (bytes.size() * kMultiplier);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    memcpy(&word, bytes.data() + i, 8);
    hash = Step(hash, word);
  }
  uint64_t tail = 0;
  if (i < bytes.size()) memcpy(&tail, bytes.data() + i, bytes.size() - i);
  hash = Step(hash, tail);
  // Final mix so that every input bit reaches every output bit.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  return hash;
}

std::string Hex64(uint64_t value) {
  static const char kHex[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[static_cast<size_t>(i)] = kHex[value & 15];
  return text;
}

}  // namespace pmapi
