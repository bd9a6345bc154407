// libpfm4 event strings with attributes ("INST_RETIRED:ANY_P", "RETIRED_OPS:c=2") through the
// public API.
//
// The catalog names each libpfm4 event once ("pmu::EVENT"), and a program may only use
// catalog ids, so a string with umasks or attributes has no id of its own. The one public way
// to give it one is the catalog's site-table layer: before pm_initialize, pmcount writes the
// strings as records of a temporary $PMAPI_EVENTS_DIR table (ids from the site range
// 50000..99999 that no table of the user's uses), and the catalog encodes and probes them like
// any table event. The user's own PMAPI_EVENTS_DIR files are linked in beside it, and the
// variable and the directory are put back as they were once pm_initialize has read them.
// That catalog is built from its sources (PMAPI_NO_CACHE for pm_initialize only): the cache
// keys on the table directory, and a one-off directory would only replace the user's cached
// catalog with one nobody asks for again.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "event_spec.h"

namespace pmcount {

class PfmStrings {
 public:
  PfmStrings() = default;
  ~PfmStrings() { Restore(); }
  PfmStrings(const PfmStrings &) = delete;
  PfmStrings &operator=(const PfmStrings &) = delete;

  // Registers every spec whose name is a libpfm4 string with attributes that libpfm4 encodes
  // on this machine (and is not a tracepoint). Returns "" or what failed (a file write).
  // Costs nothing when no spec has the shape of one.
  std::string Prepare(const std::vector<EventSpec> &specs);
  // After pm_initialize: removes the table and restores PMAPI_EVENTS_DIR.
  void Restore();

  // The catalog short name `name` was registered under, or "".
  std::string CatalogName(const std::string &name) const;
  // libpfm4's complaint about `name`, when it has the shape of a libpfm4 string with
  // attributes but libpfm4 refused it; "" otherwise.
  std::string Refusal(const std::string &name) const;

 private:
  std::map<std::string, std::string> registered_;  // spec name -> catalog short name
  std::map<std::string, std::string> refused_;     // spec name -> libpfm4's error
  std::string directory_;
  bool had_variable_ = false;
  std::string old_variable_;
  bool had_no_cache_ = false;
  std::string old_no_cache_;
};

}  // namespace pmcount
