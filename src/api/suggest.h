/* SPDX-License-Identifier: MIT */
// "Did you mean ...?": the known names closest to a mistyped one. Pure.
#pragma once

#include <string>
#include <vector>

namespace pmapi {

// ASCII lower case of one character; names and searches ignore case through it.
char FoldCase(char c);

// Whether `needle` occurs in `haystack`, ignoring ASCII case.
bool ContainsFolded(const std::string &haystack, const std::string &needle);

// Levenshtein distance between `a` and `b`, ignoring ASCII case; stops counting at `limit`
// (returns limit + 1 or more when the distance exceeds it), so scanning thousands of names
// stays cheap.
size_t EditDistance(const std::string &a, const std::string &b, size_t limit);

// Up to `max_results` names from `candidates` closest to `query`, best first (ties keep the
// candidates' order). Only names within a distance that still looks like a typo are offered:
// a third of the query's length, at least 2. A candidate that contains the query (ignoring
// case) also qualifies, ranked after the typos, so "getppid" suggests
// "syscalls:sys_enter_getppid".
std::vector<std::string> ClosestNames(const std::string &query,
                                      const std::vector<std::string> &candidates,
                                      size_t max_results);

// The same ranking, as positions in `candidates` (a caller comparing against one spelling and
// showing another keeps two parallel lists). Repeated names each keep their position.
std::vector<size_t> ClosestIndices(const std::string &query,
                                   const std::vector<std::string> &candidates, size_t max_results);

}  // namespace pmapi
