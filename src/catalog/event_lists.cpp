// Building and caching the per-filter event lists.
#include "catalog/event_lists.h"

#include <mutex>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/init_state.h"

namespace pmapi {
namespace {

constexpr const char *kCounter0First = "PM_CYC";
constexpr const char *kCounter1First = "PM_INST_CMPL";

// Catalog positions of the events passing the filter: order for counter 0 (and 2..7), and the
// order for counter 1.
struct Orders {
  std::vector<const CatalogEvent *> first;
  std::vector<const CatalogEvent *> second;
};

void MoveToFront(std::vector<const CatalogEvent *> *order, const char *short_name) {
  for (size_t i = 0; i < order->size(); ++i) {
    if ((*order)[i]->short_name == short_name) {
      const CatalogEvent *event = (*order)[i];
      order->erase(order->begin() + static_cast<std::ptrdiff_t>(i));
      order->insert(order->begin(), event);
      return;
    }
  }
}

Orders OrdersFor(int status_filter) {
  Orders orders;
  for (const CatalogEvent *event : Catalog::Get().InIdOrder()) {
    if (PassesFilter(event->status, status_filter)) orders.first.push_back(event);
  }
  MoveToFront(&orders.first, kCounter0First);
  orders.second = orders.first;
  MoveToFront(&orders.second, kCounter1First);
  return orders;
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

char Status1(EventStatus status) {
  switch (status) {
    case EventStatus::kVerified:
      return 'v';
    case EventStatus::kUnverified:
      return 'u';
    case EventStatus::kCaveat:
      return 'c';
  }
  return 'u';
}

pm_events2_t *Array2(const std::vector<const CatalogEvent *> &order) {
  pm_events2_t *array = new pm_events2_t[order.size() ? order.size() : 1]();
  for (size_t i = 0; i < order.size(); ++i) {
    const CatalogEvent &event = *order[i];
    array[i].event_id = event.id;
    array[i].status = Status2(event.status);
    array[i].short_name = Text(event.short_name);
    array[i].long_name = LongName(event);
    array[i].description = Text(event.description);
    array[i].reserved = 0;
  }
  return array;
}

pm_events_t *Array1(const std::vector<const CatalogEvent *> &order) {
  pm_events_t *array = new pm_events_t[order.size() ? order.size() : 1]();
  for (size_t i = 0; i < order.size(); ++i) {
    const CatalogEvent &event = *order[i];
    array[i].event_id = event.id;
    array[i].status = Status1(event.status);
    array[i].threshold = 'n';  // no event is thresholdable on Linux
    array[i].short_name = Text(event.short_name);
    array[i].long_name = LongName(event);
    array[i].description = Text(event.description);
  }
  return array;
}

template <typename Lists, typename MakeArray>
const Lists &Cached(Lists *(&cache)[kStatusFilterMask + 1], std::mutex &mutex, int status_filter,
                    MakeArray make_array) {
  status_filter &= kStatusFilterMask;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cache[status_filter]) {
    Orders orders = OrdersFor(status_filter);
    Lists *lists = new Lists;  // never freed: clients keep pointers into it until exit
    auto first = make_array(orders.first);
    auto second = make_array(orders.second);
    for (int counter = 0; counter < MAX_COUNTERS; ++counter) {
      lists->maxevents[counter] = static_cast<int>(orders.first.size());
      lists->lists[counter] = counter == 1 ? second : first;
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
