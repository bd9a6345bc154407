/* SPDX-License-Identifier: MIT */
// Finding catalog events by short name: the exact spelling first, then ignoring ASCII case (of
// several events answering to a name, the earliest stored wins). One flat table of event
// positions over the events' own strings, which never move: building it allocates nothing per
// name. Built on the first name lookup (PM_GET_GROUPS resolves members by name), where a
// node-based hash map of ~2500 names cost ~0.2 ms of allocations and page faults.
#pragma once

#include <stdint.h>

#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace pmapi {

class NameIndex {
 public:
  void Build(const std::vector<CatalogEvent> &events);
  // The position in `events` (the vector Build saw) of the event named `name`, or
  // events.size() when none is.
  size_t Find(const std::vector<CatalogEvent> &events, std::string_view name) const;

 private:
  std::vector<uint32_t> slots_;  // linear probing; position + 1, 0 for an empty slot
  size_t mask_ = 0;
};

}  // namespace pmapi
