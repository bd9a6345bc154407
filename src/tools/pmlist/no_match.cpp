#include "no_match.h"

#include <pmapi.h>
#include <strings.h>

#include <algorithm>

#include <vector>

#include "api/event_search.h"
#include "api/suggest.h"
#include "api/tracefs_hint.h"
#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "text_format.h"

namespace pmlist {
namespace {

using tools::OrList;

using pmapi::EventQuery;

constexpr size_t kMaxSuggestions = 4;
constexpr size_t kMaxShown = 3;

// "; did you mean a, b or c?" for `word`, from `names` and the words of `texts`; "" if nothing
// is close.
std::string DidYouMean(const std::string &word, const std::vector<std::string> &names,
                       const std::vector<std::string> &texts) {
  std::vector<std::string> close;
  if (pmapi::HasWildcard(word)) {
    // A pattern: the same pattern with its start spelt as the names spell theirs.
    close = pmapi::CorrectedPatterns(word, names, kMaxSuggestions);
    if (close.empty())
      close = pmapi::ClosestNames(pmapi::WithoutWildcards(word), names, kMaxSuggestions);
  } else {
    // A plain word is looked for in descriptions too: "retird" -> "retired".
    std::vector<std::string> candidates = names;
    for (std::string &other : pmapi::WordsOf(texts)) candidates.push_back(std::move(other));
    for (const std::string &name : pmapi::ClosestNames(word, candidates, candidates.size())) {
      if (close.size() == kMaxSuggestions) break;
      // A name is also a word of the texts, lowercased: offered once, as the name.
      const bool repeated = std::any_of(close.begin(), close.end(), [&](const std::string &c) {
        return strcasecmp(c.c_str(), name.c_str()) == 0;
      });
      if (!repeated) close.push_back(name);
    }
  }
  return close.empty() ? "" : "; did you mean " + OrList(close) + "?";
}

}  // namespace

std::string NoEventMatches(const Options &options) {
  const EventQuery query(options.pattern);
  const std::vector<const pmapi::CatalogEvent *> events = pmapi::Catalog::Get().InIdOrder();
  std::string what = "no event matches " + query.Quoted();
  // Tracepoints this user cannot see are not in the catalog at all: a word such as "getppid"
  // may name one, so the reason comes before any other advice.
  const std::string hidden = pmapi::TracefsUnreadable();
  if (!hidden.empty()) what += " among the events this user can see (" + hidden + ")";
  // Events that match, which the filters left out: say so rather than suggest other names.
  if (options.status_given || options.sources_given) {
    std::vector<std::string> left_out;
    size_t count = 0;
    for (const pmapi::CatalogEvent *event : events) {
      if (!query.Matches(event->short_name, event->long_name, event->description)) continue;
      if (++count <= kMaxShown) {
        left_out.push_back(event->short_name + " (" + pmapi::StatusWord(event->status) + ")");
      }
    }
    if (count > 0) {
      return what + " with these --status and --source; " + std::to_string(count) +
             (count == 1 ? " event does" : " events do") + " without them: " + OrList(left_out) +
             (count > kMaxShown ? ", ..." : "");
    }
  }
  std::vector<std::string> names, texts;
  for (const pmapi::CatalogEvent *event : events) {
    names.push_back(event->short_name);
    texts.push_back(event->short_name + " " + event->long_name + " " + event->description);
  }
  // The first word that matches nothing on its own is the one to fix.
  std::string counts;
  for (const std::string &word : query.words()) {
    size_t count = 0;
    for (const pmapi::CatalogEvent *event : events) {
      count +=
          EventQuery::WordMatches(word, event->short_name, event->long_name, event->description);
    }
    if (count == 0) {
      const std::string where = pmapi::HasWildcard(word)
                                    ? "no event's name matches '" + word + "'"
                                    : "no event's name or description contains '" + word + "'";
      return what + ": " + where + DidYouMean(word, names, texts) +
             " (pmlist with no word lists them all)";
    }
    counts += (counts.empty() ? "" : ", ") + ("'" + word + "' ") + std::to_string(count);
  }
  return what + " all together, though each word matches alone (" + counts +
         " events): leave a word out";
}

std::string NoGroupMatches(const Options &options) {
  const EventQuery query(options.pattern);
  std::vector<std::string> names, texts;
  for (const pmapi::ResolvedGroup &group : pmapi::GroupCatalog::Get().groups()) {
    names.push_back(group.record.short_name);
    texts.push_back(group.record.long_name + " " + group.record.description);
  }
  const std::string word = query.words().empty() ? "" : query.words()[0];
  return "no group matches " + query.Quoted() + DidYouMean(word, names, texts) +
         " (pmlist -g lists them all)";
}

}  // namespace pmlist
