/* SPDX-License-Identifier: MIT */
// Finding events the way people search for them: several words, in any order, any case, each
// a substring of the name, long name or description, or a shell wildcard over the name.
// pmlist filters its listing with it and pmcount -e expands wildcards with the same rule, so
// `pmlist PATTERN` shows what `pmcount -e PATTERN` counts. Pure (no catalog), so it can be
// unit-tested.
#pragma once

#include <string>
#include <vector>

namespace pmapi {

// Whether `text` holds a shell wildcard: '*', '?' or '['.
bool HasWildcard(const std::string &text);

// fnmatch(3) `pattern` against `name`, ignoring case: against the whole name, or against the
// name without its PMU or subsystem (the part after a ':' or '/'), so that "sys_enter_getpp*"
// finds "syscalls:sys_enter_getppid" as "syscalls:sys_enter_getpp*" does, and "RETIRED_*"
// finds "amd64_fam19h_zen3::RETIRED_OPS".
bool NameMatchesPattern(const std::string &pattern, const std::string &name);

// The words of a search; blanks inside one argument separate words too.
class EventQuery {
 public:
  EventQuery() = default;
  explicit EventQuery(const std::string &text);

  const std::vector<std::string> &words() const { return words_; }
  bool empty() const { return words_.empty(); }
  // "'instructions' 'retired'", for messages.
  std::string Quoted() const;

  // Every word matches (a word with a wildcard: NameMatchesPattern against `name`; any other
  // word: a substring of `name`, `long_name` or `description`, ignoring case).
  bool Matches(const std::string &name, const std::string &long_name,
               const std::string &description) const;
  static bool WordMatches(const std::string &word, const std::string &name,
                          const std::string &long_name, const std::string &description);

 private:
  std::vector<std::string> words_;
};

// The literal text of a word, its wildcards and bracket expressions taken out ("sys_entr_*"
// -> "sys_entr_"): what a "did you mean" compares.
std::string WithoutWildcards(const std::string &word);

// For a pattern nothing matches, patterns that would match: its literal start (up to the first
// wildcard) replaced by the closest start of a name in `names`, the rest kept
// ("syscalls:sys_entr_*" -> "syscalls:sys_enter_*"); closest first, at most `max_results`.
// None when the pattern starts with a wildcard.
std::vector<std::string> CorrectedPatterns(const std::string &pattern,
                                           const std::vector<std::string> &names,
                                           size_t max_results);

// The distinct words of `texts`, lowercased, in the order first seen: runs of letters, digits
// and '_' of at least 3 characters ("sys_enter_getppid", "retired"), and the parts of those
// between '_' ("enter", "getppid"). What a mistyped search word is compared with, beside the
// event names.
std::vector<std::string> WordsOf(const std::vector<std::string> &texts);

}  // namespace pmapi
