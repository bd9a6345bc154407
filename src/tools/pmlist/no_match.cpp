// SPDX-License-Identifier: MIT
#include "no_match.h"

#include <ctype.h>
#include <pmapi.h>
#include <pmapi_catalog.h>

#include <vector>

#include "catalog/catalog.h"
#include "catalog/group_catalog.h"
#include "text_format.h"

namespace pmlist {
namespace {

using tools::OrList;

constexpr size_t kMaxShown = 3;

// The words of the search, as the library's search splits them (at blanks).
std::vector<std::string> WordsOf(const std::string &query) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i <= query.size(); ++i) {
    if (i == query.size() || isspace(static_cast<unsigned char>(query[i]))) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += query[i];
    }
  }
  return words;
}

// "'instructions' 'retired'", for messages.
std::string Quoted(const std::vector<std::string> &words) {
  std::string text;
  for (const std::string &word : words) text += (text.empty() ? "'" : " '") + word + "'";
  return text;
}

// "; did you mean a, b or c?" for `word`, among the events or (`flags` PM_CATALOG_GROUPS) the
// groups; "" if nothing is close.
std::string DidYouMean(const std::string &word, int flags) {
  pm_catalog_suggestions_t close{};
  if (word.empty() || pm_catalog_suggest(word.c_str(), flags, &close) != 0) return "";
  const std::vector<std::string> names(close.suggestions, close.suggestions + close.nsuggestions);
  return names.empty() ? "" : "; did you mean " + OrList(names) + "?";
}

// Why tracepoints are hidden from this user, or "": a word such as "getppid" may name one
// though it has no tracepoint's shape.
std::string HiddenTracepoints(const std::vector<std::string> &words) {
  pm_catalog_suggestions_t close{};
  const std::string word = words.empty() ? "" : words[0];
  if (pm_catalog_suggest(word.c_str(), PM_CATALOG_HIDDEN_ANY, &close) != 0) return "";
  return close.hidden;
}

bool Matches(const std::string &query, const pmapi::CatalogEvent &event) {
  return pm_catalog_query_matches(query.c_str(), event.short_name.c_str(), event.long_name.c_str(),
                                  event.description.c_str());
}

}  // namespace

std::string NoEventMatches(const Options &options) {
  const std::vector<std::string> words = WordsOf(options.pattern);
  const std::vector<const pmapi::CatalogEvent *> events = pmapi::Catalog::Get().InIdOrder();
  std::string what = "no event matches " + Quoted(words);
  // Tracepoints this user cannot see are not in the catalog at all: a word such as "getppid"
  // may name one, so the reason comes before any other advice.
  const std::string hidden = HiddenTracepoints(words);
  if (!hidden.empty()) what += " among the events this user can see (" + hidden + ")";
  // Events that match, which the filters left out: say so rather than suggest other names.
  if (options.status_given || options.sources_given) {
    std::vector<std::string> left_out;
    size_t count = 0;
    for (const pmapi::CatalogEvent *event : events) {
      if (!Matches(options.pattern, *event)) continue;
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
  // The first word that matches nothing on its own is the one to fix.
  std::string counts;
  for (const std::string &word : words) {
    size_t count = 0;
    for (const pmapi::CatalogEvent *event : events) count += Matches(word, *event);
    if (count == 0) {
      const std::string where = pm_catalog_is_pattern(word.c_str())
                                    ? "no event's name matches '" + word + "'"
                                    : "no event's name or description contains '" + word + "'";
      return what + ": " + where + DidYouMean(word, 0) + " (pmlist with no word lists them all)";
    }
    counts += (counts.empty() ? "" : ", ") + ("'" + word + "' ") + std::to_string(count);
  }
  return what + " all together, though each word matches alone (" + counts +
         " events): leave a word out";
}

std::string NoGroupMatches(const Options &options) {
  const std::vector<std::string> words = WordsOf(options.pattern);
  const std::string word = words.empty() ? "" : words[0];
  return "no group matches " + Quoted(words) + DidYouMean(word, PM_CATALOG_GROUPS) +
         " (pmlist -g lists them all)";
}

}  // namespace pmlist
