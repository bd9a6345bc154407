// SPDX-License-Identifier: MIT
// The catalog's search calls (include/pmapi_catalog.h): the one rule pmlist lists by and
// pmcount -e expands patterns by (api/event_search.h), and the "did you mean" offered when
// nothing matches, for any client.
#include "api/export.h"

#pragma GCC visibility push(default)
#include "pmapi_catalog.h"
#pragma GCC visibility pop

#include <string.h>
#include <strings.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/c_boundary.h"
#include "api/event_lookup.h"
#include "api/event_search.h"
#include "api/fixed_text.h"
#include "api/suggest.h"
#include "api/tracefs_hint.h"
#include "catalog/catalog.h"
#include "catalog/group_catalog.h"

namespace pmapi {
namespace {

std::string Text(const char *text) { return text ? text : ""; }

int NeedsInit() {
  return Report(Pmapi_NoInit, "call pm_initialize (or pm_init) before searching the catalog");
}

// The names to compare a word with, and the texts whose words are compared too.
void Candidates(int flags, std::vector<std::string> *names, std::vector<std::string> *texts) {
  if (flags & PM_CATALOG_GROUPS) {
    for (const ResolvedGroup &group : GroupCatalog::Get().groups()) {
      names->push_back(group.record.short_name);
      texts->push_back(group.record.long_name + " " + group.record.description);
    }
    return;
  }
  for (const CatalogEvent *event : Catalog::Get().InIdOrder()) {
    names->push_back(event->short_name);
    texts->push_back(event->short_name + " " + event->long_name + " " + event->description);
  }
}

constexpr int kKnownFlags = PM_CATALOG_GROUPS | PM_CATALOG_NAMES_ONLY | PM_CATALOG_HIDDEN_ANY;

// `texts` empty: the names alone are compared.
std::vector<std::string> Closest(const std::string &word, const std::vector<std::string> &names,
                                 const std::vector<std::string> &texts) {
  if (HasWildcard(word)) {
    // A pattern: the same pattern with its start spelt as the names spell theirs.
    std::vector<std::string> close = CorrectedPatterns(word, names, PM_CATALOG_SUGGESTIONS);
    if (close.empty()) close = ClosestNames(WithoutWildcards(word), names, PM_CATALOG_SUGGESTIONS);
    return close;
  }
  // A plain word is looked for in descriptions too: "retird" -> "retired".
  std::vector<std::string> candidates = names;
  for (std::string &other : WordsOf(texts)) candidates.push_back(std::move(other));
  std::vector<std::string> close;
  for (const std::string &name : ClosestNames(word, candidates, candidates.size())) {
    if (close.size() == PM_CATALOG_SUGGESTIONS) break;
    // A name is also a word of the texts, lowercased: offered once, as the name.
    const bool repeated = std::any_of(close.begin(), close.end(), [&](const std::string &c) {
      return strcasecmp(c.c_str(), name.c_str()) == 0;
    });
    if (!repeated) close.push_back(name);
  }
  return close;
}

}  // namespace
}  // namespace pmapi

extern "C" int pm_catalog_is_pattern(const char *text) {
  return text && strpbrk(text, "*?[") != nullptr ? 1 : 0;
}

extern "C" int pm_catalog_query_matches(const char *query, const char *name, const char *long_name,
                                        const char *description) {
  try {
    return pmapi::EventQuery(pmapi::Text(query))
                   .Matches(pmapi::Text(name), pmapi::Text(long_name), pmapi::Text(description))
               ? 1
               : 0;
  } catch (...) {
    return 0;  // out of memory: nothing is said to match
  }
}

extern "C" int pm_catalog_match(const char *query, pm_catalog_match_t *matches, int max_matches,
                                int *nmatches) {
  return pmapi::Guarded([&] {
    if (!query) return pmapi::Report(Pmapi_InvalidArg, "the query is NULL");
    if (!nmatches) return pmapi::Report(Pmapi_InvalidArg, "nmatches is NULL");
    if (max_matches < 0 || (max_matches > 0 && !matches)) {
      return pmapi::Report(Pmapi_InvalidArg, "matches must hold max_matches entries (>= 0)");
    }
    if (!pmapi::LibraryInitialized()) return pmapi::NeedsInit();
    const pmapi::EventQuery words(query);
    int count = 0;
    for (const pmapi::CatalogEvent *event : pmapi::Catalog::Get().InIdOrder()) {
      if (!words.Matches(event->short_name, event->long_name, event->description)) continue;
      if (count < max_matches) {
        pm_catalog_match_t &match = matches[count];
        memset(&match, 0, sizeof match);
        match.event_id = event->id;
        pmapi::CopyFixed(match.name, event->short_name);
        std::string reason;
        match.countable = pmapi::Countable(*event, &reason) ? 1 : 0;
        pmapi::CopyFixed(match.not_countable, reason);
      }
      ++count;
    }
    *nmatches = count;
    return 0;
  });
}

extern "C" int pm_catalog_suggest(const char *word, int flags,
                                  pm_catalog_suggestions_t *suggestions) {
  return pmapi::Guarded([&] {
    if (!word) return pmapi::Report(Pmapi_InvalidArg, "the word is NULL");
    if (!suggestions) return pmapi::Report(Pmapi_InvalidArg, "suggestions is NULL");
    if (flags & ~pmapi::kKnownFlags) {
      return pmapi::Report(Pmapi_InvalidArg,
                           "unknown flags (PM_CATALOG_GROUPS, PM_CATALOG_NAMES_ONLY and "
                           "PM_CATALOG_HIDDEN_ANY are the flags)");
    }
    if (!pmapi::LibraryInitialized()) return pmapi::NeedsInit();
    pm_catalog_suggestions_t out;
    memset(&out, 0, sizeof out);
    if (!(flags & PM_CATALOG_GROUPS) &&
        ((flags & PM_CATALOG_HIDDEN_ANY) || pmapi::LooksLikeTracepoint(word))) {
      pmapi::CopyFixed(out.hidden, pmapi::TracefsUnreadable());
    }
    std::vector<std::string> names, texts;
    pmapi::Candidates(flags, &names, &texts);
    if (flags & PM_CATALOG_NAMES_ONLY) texts.clear();
    for (const std::string &name : pmapi::Closest(word, names, texts)) {
      pmapi::CopyFixed(out.suggestions[out.nsuggestions++], name);
    }
    *suggestions = out;
    return 0;
  });
}
