// The consistency check a restored catalog must pass.
#include "catalog/catalog_contents.h"

#include <algorithm>

#include "catalog/event_sources.h"
#include "catalog/tables.h"

namespace pmapi {

bool ContentsConsistent(const CatalogContents &contents) {
  const std::vector<CatalogEvent> &events = contents.events;
  std::vector<bool> covered(events.size(), false);
  auto cover = [&covered](size_t position) {
    if (position >= covered.size() || covered[position]) return false;
    covered[position] = true;
    return true;
  };
  int previous = kFirstTableId - 1;
  for (size_t i = 0; i < contents.table_count; ++i) {
    size_t position = contents.table_position + i;
    if (!cover(position)) return false;
    int id = events[position].id;
    if (id <= previous || id > kLastTableId) return false;
    previous = id;
  }
  for (const IdRange &range : contents.ranges) {
    if (range.first_id <= kLastTableId) return false;
    for (size_t k = 0; k < range.count; ++k) {
      if (!cover(range.first_position + k)) return false;
      long long expected = static_cast<long long>(range.first_id) + static_cast<long long>(k);
      if (events[range.first_position + k].id != expected) return false;
    }
  }
  // Ids of different ranges must not overlap, or an id would name two events.
  std::vector<IdRange> by_id = contents.ranges;
  std::sort(by_id.begin(), by_id.end(),
            [](const IdRange &a, const IdRange &b) { return a.first_id < b.first_id; });
  for (size_t i = 1; i < by_id.size(); ++i) {
    long long end =
        static_cast<long long>(by_id[i - 1].first_id) + static_cast<long long>(by_id[i - 1].count);
    if (end > by_id[i].first_id) return false;
  }
  for (bool is_covered : covered) {
    if (!is_covered) return false;
  }
  return true;
}

}  // namespace pmapi
