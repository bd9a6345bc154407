/* SPDX-License-Identifier: MIT */
// Everything a built catalog holds, as plain data: what the sources produce
// (AssembleCatalog, event_sources.h), what the on-disk cache stores and restores (catalog_cache.h),
// and what Catalog answers lookups from.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/tables.h"

namespace pmapi {

// Discovered events (libpfm4, sysfs PMUs, tracepoints) have consecutive ids from their
// source's base, stored consecutively: events[first_position + k] has id first_id + k. So an
// id lookup is arithmetic.
struct IdRange {
  int first_id = 0;
  size_t first_position = 0;
  size_t count = 0;
};

struct CatalogContents {
  // In the order they were built (none is moved afterwards: the lists point into them).
  std::vector<CatalogEvent> events;
  // events[table_position, +table_count) are the table events, sorted by id.
  size_t table_position = 0;
  size_t table_count = 0;
  std::vector<IdRange> ranges;
  std::string proc_name;     // pm_info_t.proc_name
  std::string tracefs_root;  // where tracepoint ids are read when one is encoded; "" for none
  // The compiled-in group tables as the loader gives them without $PMAPI_GROUPS_DIR, when
  // `has_groups`: stored in the cache beside the events so that a restored catalog's groups
  // need no parsing (GroupCatalog::Build). Filled only for the cache, never by the sources.
  bool has_groups = false;
  std::vector<GroupRecord> groups;
  // With has_groups: for every member of every group, in order, the position in `events` of
  // the event its name finds (Catalog::FindName), or kNoStoredPosition when none does. A
  // restored catalog resolves the members with these instead of building its name index.
  std::vector<uint32_t> member_positions;
  uint32_t filler_position = UINT32_MAX;  // likewise for GroupCatalog's filler event
};

constexpr uint32_t kNoStoredPosition = UINT32_MAX;

// Whether `contents` keeps the promises lookups rely on: every range and the table run inside
// `events`, range ids consecutive, table ids increasing and below the first discovered id,
// every event in exactly one of them. Anything read from a file is checked with this.
bool ContentsConsistent(const CatalogContents &contents);

}  // namespace pmapi
