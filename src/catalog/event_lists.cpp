// SPDX-License-Identifier: MIT
// Building and caching the per-filter event lists.
#include "catalog/event_lists.h"

#include <mutex>
#include <vector>

#include "catalog/catalog.h"

namespace pmapi {
namespace {

// The listed events (ids 0..listed_count()-1) whose status passes the filter, by increasing
// id. Under the full filter (every status) entry k is event k, which is what clients that
// index list_events[counter][event_id] rely on.
std::vector<const CatalogEvent *> ListedFor(int status_filter) {
  const Catalog &catalog = Catalog::Get();
  std::vector<const CatalogEvent *> order;
  order.reserve(catalog.listed_count());
  for (size_t id = 0; id < catalog.listed_count(); ++id) {
    const CatalogEvent *event = catalog.FindId(static_cast<int>(id));
    if (event && PassesFilter(event->status, status_filter)) order.push_back(event);
  }
  return order;
}

char *Text(const std::string &text) { return const_cast<char *>(text.c_str()); }

// Tracepoints carry no separate long name (see CatalogEvent); clients get the short one.
char *LongName(const CatalogEvent &event) {
  return Text(event.long_name.empty() ? event.short_name : event.long_name);
}

pm_status_t Status2(EventStatus status) {
  pm_status_t bits;
  bits.w = 0;
  bits.b.verified = status == EventStatus::kVerified;
  bits.b.unverified = status == EventStatus::kUnverified;
  bits.b.caveat = status == EventStatus::kCaveat;
  return bits;
}

char Status1(EventStatus status) { return StatusWord(status)[0]; }

// One zeroed entry per listed event (one entry for none: clients may read list[0]), each
// filled by `fill`.
template <typename Entry, typename Fill>
Entry *NewEntries(const std::vector<const CatalogEvent *> &order, Fill fill) {
  Entry *array = new Entry[order.size() ? order.size() : 1]();
  for (size_t i = 0; i < order.size(); ++i) fill(*order[i], &array[i]);
  return array;
}

pm_events2_t *Array2(const std::vector<const CatalogEvent *> &order) {
  return NewEntries<pm_events2_t>(order, [](const CatalogEvent &event, pm_events2_t *entry) {
    entry->event_id = event.id;
    entry->status = Status2(event.status);
    entry->short_name = Text(event.short_name);
    entry->long_name = LongName(event);
    entry->description = Text(event.description);
    entry->reserved = 0;
  });
}

pm_events_t *Array1(const std::vector<const CatalogEvent *> &order) {
  return NewEntries<pm_events_t>(order, [](const CatalogEvent &event, pm_events_t *entry) {
    entry->event_id = event.id;
    entry->status = Status1(event.status);
    entry->threshold = 'n';  // no event is thresholdable on Linux
    entry->short_name = Text(event.short_name);
    entry->long_name = LongName(event);
    entry->description = Text(event.description);
  });
}

template <typename Lists, typename MakeArray>
const Lists &Cached(Lists *(&cache)[kStatusFilterMask + 1], std::mutex &mutex, int status_filter,
                    MakeArray make_array) {
  status_filter &= kStatusFilterMask;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cache[status_filter]) {
    std::vector<const CatalogEvent *> order = ListedFor(status_filter);
    Lists *lists = new Lists;  // never freed: clients keep pointers into it until exit
    // One array for every counter: perf schedules any event on any counter, and an id must
    // mean the same event on each (a group's events[counter] is looked up in that counter's
    // list).
    auto array = make_array(order);
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      lists->maxevents[counter] = static_cast<int>(order.size());
      lists->lists[counter] = array;
    }
    cache[status_filter] = lists;
  }
  return *cache[status_filter];
}

std::mutex g_mutex2;
EventLists2 *g_lists2[kStatusFilterMask + 1];
std::mutex g_mutex1;
EventLists1 *g_lists1[kStatusFilterMask + 1];

}  // namespace

const EventLists2 &EventListsForFilter2(int status_filter) {
  return Cached(g_lists2, g_mutex2, status_filter, Array2);
}

const EventLists1 &EventListsForFilter1(int status_filter) {
  return Cached(g_lists1, g_mutex1, status_filter, Array1);
}

}  // namespace pmapi
