/* SPDX-License-Identifier: MIT */
// Events a client adds to the catalog at run time by their encoding string (Catalog::Add,
// pm_catalog_add_event): libpfm4 strings with umasks or attributes, which the catalog names only
// without them, and tracepoints created after it was built. They take the ids after every built
// event, so no id moves and no list changes (AIX clients index their tables by id).
//
// Readers never lock: an added event is stored before the count that makes it visible is
// published (release), and readers load the count first (acquire). Writers take a mutex. Added
// events live, like every catalog event, until exit.
#pragma once

#include <stddef.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/event_sources.h"

namespace pmapi {

class AddedEvents {
 public:
  // The most events one process may add.
  static constexpr size_t kCapacity = 65536;

  AddedEvents() = default;
  ~AddedEvents();
  AddedEvents(const AddedEvents &) = delete;
  AddedEvents &operator=(const AddedEvents &) = delete;

  size_t size() const { return count_.load(std::memory_order_acquire); }
  // The index-th added event (its id is the first added id + index), or nullptr.
  const CatalogEvent *At(size_t index) const;
  // The added event whose short name is `name`, exactly, then ignoring ASCII case; or nullptr.
  const CatalogEvent *FindName(std::string_view name) const;

  // The event `encoding` names, added with id `first_id` + its index unless already added:
  // a tracepoint "subsystem:name" under `tracefs_root` (when that is not ""), else whatever
  // libpfm4 encodes. Its status is probed like a built event's. Pmapi_InvalidEvent when
  // neither knows the string (the detail says what each said), Pmapi_InvalidArg when the
  // catalog is full.
  Status Add(const std::string &encoding, const std::string &tracefs_root, int first_id,
             const CatalogEvent **added);

 private:
  static constexpr size_t kChunk = 1024;
  static constexpr size_t kChunks = kCapacity / kChunk;

  std::mutex mutex_;  // serializes Add
  std::atomic<size_t> count_{0};
  // chunks_[i / kChunk][i % kChunk] is added event i. Slots and chunks are written under the
  // mutex before count_ covers them, and never change afterwards.
  const CatalogEvent **chunks_[kChunks] = {};
  std::vector<std::unique_ptr<CatalogEvent>> owned_;  // under the mutex
  StatusProbe probe_;                                 // under the mutex
};

}  // namespace pmapi
