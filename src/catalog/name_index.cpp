// SPDX-License-Identifier: MIT
// Open addressing with linear probing: names equal but for case hash alike, so all of them sit
// in one run from their home slot, and a lookup that walks the run to the first empty slot
// sees every candidate.
#include "catalog/name_index.h"

#include <string.h>

namespace pmapi {
namespace {

constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;
// OR-ing 0x20 into every byte maps 'A'-'Z' onto 'a'-'z' and leaves 'a'-'z' alone, so names
// equal but for ASCII case hash alike (other bytes change too, but alike in both names).
constexpr uint64_t kFoldBits = 0x2020202020202020ULL;

uint64_t FoldedHash(std::string_view name) {
  uint64_t hash = name.size() * kMultiplier;
  size_t i = 0;
  for (; i + 8 <= name.size(); i += 8) {
    uint64_t word;
    memcpy(&word, name.data() + i, 8);
    hash = (hash ^ (word | kFoldBits)) * kMultiplier;
    hash ^= hash >> 29;
  }
  uint64_t tail = 0;
  if (i < name.size()) memcpy(&tail, name.data() + i, name.size() - i);
  hash = (hash ^ (tail | kFoldBits)) * kMultiplier;
  return hash ^ (hash >> 32);
}

char FoldCase(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

bool FoldedEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (FoldCase(a[i]) != FoldCase(b[i])) return false;
  }
  return true;
}

}  // namespace

void NameIndex::Build(const std::vector<CatalogEvent> &events) {
  size_t capacity = 16;
  while (capacity < 2 * events.size()) capacity *= 2;  // at most half full: short runs
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  for (size_t position = 0; position < events.size(); ++position) {
    size_t slot = FoldedHash(events[position].short_name) & mask_;
    while (slots_[slot] != 0) slot = (slot + 1) & mask_;
    slots_[slot] = static_cast<uint32_t>(position + 1);
  }
}

size_t NameIndex::Find(const std::vector<CatalogEvent> &events, std::string_view name) const {
  size_t exact = events.size(), folded = events.size();
  if (slots_.empty()) return exact;
  for (size_t slot = FoldedHash(name) & mask_; slots_[slot] != 0; slot = (slot + 1) & mask_) {
    size_t position = slots_[slot] - 1;
    std::string_view candidate = events[position].short_name;
    if (candidate == name) {
      if (position < exact) exact = position;
    } else if (position < folded && FoldedEqual(candidate, name)) {
      folded = position;
    }
  }
  return exact < events.size() ? exact : folded;
}

}  // namespace pmapi
