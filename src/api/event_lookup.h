/* SPDX-License-Identifier: MIT */
// One name of an event spec -> the catalog's event: by id, by perf's generic name, as pmlist
// lists it, as a bare libpfm4 name, or added by its encoding; and, for a name nothing has, the
// sentence saying so with the names closest to it.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace pmapi {

// A catalog id as pmlist prints it ("1000").
bool IsNumber(const std::string &name);

// The event `name` names among those the catalog has; nullptr if none (no adding).
const CatalogEvent *FindListedEvent(const std::string &name, bool numbers_are_ids);

// Adds `name` to the catalog by its encoding (a libpfm4 string with attributes, a tracepoint
// made since the catalog was built). On failure `refusal` receives libpfm4's complaint when
// the name has the shape of a libpfm4 string with attributes (it may be a misspelt one).
const CatalogEvent *AddByEncoding(const std::string &name, std::string *refusal);

// "unknown event 'x'; did you mean a, b or c? (pmlist lists them all)", or the reason
// tracepoints cannot be seen; `suggestions` receives the names offered.
std::string UnknownEvent(const std::string &name, const std::string &refusal,
                         std::vector<std::string> *suggestions);

// Whether `entry` can be programmed here, and if not why, in a few words ("the kernel has no
// hardware PMU for it"), from the status and the catalog's description.
bool Countable(const CatalogEvent &entry, std::string *reason);

}  // namespace pmapi
