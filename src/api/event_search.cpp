// SPDX-License-Identifier: MIT
#include "api/event_search.h"

#include "api/suggest.h"

#include <ctype.h>
#include <fnmatch.h>

#include <algorithm>
#include <unordered_set>

namespace pmapi {
namespace {

// What ends a PMU's or a subsystem's name: "pmu::EVENT", "pmu/event", "subsystem:event".
bool IsSeparator(char c) { return c == ':' || c == '/'; }

bool IsWordChar(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool HasWildcard(const std::string &text) { return text.find_first_of("*?[") != std::string::npos; }

bool NameMatchesPattern(const std::string &pattern, const std::string &name) {
  if (fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) == 0) return true;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    if (IsSeparator(name[i]) && !IsSeparator(name[i + 1]) &&
        fnmatch(pattern.c_str(), name.c_str() + i + 1, FNM_CASEFOLD) == 0) {
      return true;
    }
  }
  return false;
}

EventQuery::EventQuery(const std::string &text) {
  std::string word;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || isspace(static_cast<unsigned char>(text[i]))) {
      if (!word.empty()) words_.push_back(word);
      word.clear();
    } else {
      word += text[i];
    }
  }
}

std::string EventQuery::Quoted() const {
  std::string text;
  for (const std::string &word : words_) text += (text.empty() ? "'" : " '") + word + "'";
  return text;
}

bool EventQuery::WordMatches(const std::string &word, const std::string &name,
                             const std::string &long_name, const std::string &description) {
  // A wildcard names events, as pmcount -e takes them: the short name only.
  if (HasWildcard(word)) return NameMatchesPattern(word, name);
  return ContainsFolded(name, word) || ContainsFolded(long_name, word) ||
         ContainsFolded(description, word);
}

bool EventQuery::Matches(const std::string &name, const std::string &long_name,
                         const std::string &description) const {
  for (const std::string &word : words_) {
    if (!WordMatches(word, name, long_name, description)) return false;
  }
  return true;
}

std::string WithoutWildcards(const std::string &word) {
  std::string out;
  for (size_t i = 0; i < word.size(); ++i) {
    if (word[i] == '*' || word[i] == '?') continue;
    if (word[i] == '[') {
      // A bracket expression: "]" first in it is a member, not its end (fnmatch(3)).
      size_t end = i + 1;
      if (end < word.size() && (word[end] == '!' || word[end] == '^')) ++end;
      if (end < word.size() && word[end] == ']') ++end;
      end = word.find(']', end);
      if (end == std::string::npos) break;
      i = end;
      continue;
    }
    out += word[i];
  }
  return out;
}

std::vector<std::string> CorrectedPatterns(const std::string &pattern,
                                           const std::vector<std::string> &names,
                                           size_t max_results) {
  const size_t literal = pattern.find_first_of("*?[");
  if (literal == 0 || literal == std::string::npos) return {};
  const std::string start = pattern.substr(0, literal), rest = pattern.substr(literal);
  // The starts of the names a little shorter or longer than the pattern's.
  std::vector<std::string> starts;
  std::unordered_set<std::string> seen;
  for (const std::string &name : names) {
    for (size_t length = literal > 2 ? literal - 2 : 1; length <= literal + 2; ++length) {
      if (length > name.size()) break;
      std::string candidate = name.substr(0, length);
      if (seen.insert(candidate).second) starts.push_back(std::move(candidate));
    }
  }
  // Only the closest starts: a shorter start one edit further would match more than meant.
  std::vector<std::string> out;
  size_t best = std::string::npos;
  for (const std::string &close : ClosestNames(start, starts, starts.size())) {
    const size_t distance = EditDistance(start, close, start.size());
    if (best == std::string::npos) best = distance;
    if (out.size() == max_results || distance > best) break;
    const std::string corrected = close + rest;
    if (std::find(out.begin(), out.end(), corrected) != out.end()) continue;
    for (const std::string &name : names) {
      if (NameMatchesPattern(corrected, name)) {
        out.push_back(corrected);
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> WordsOf(const std::vector<std::string> &texts) {
  std::vector<std::string> words;
  std::unordered_set<std::string> seen;
  for (const std::string &text : texts) {
    std::string word;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && IsWordChar(text[i])) {
        word += FoldCase(text[i]);
        continue;
      }
      if (word.size() >= 3 && seen.insert(word).second) words.push_back(word);
      // And its parts: "getppid" of "sys_enter_getppid", for a user who typed "getppdi".
      size_t start = 0;
      while (word.find('_') != std::string::npos && start < word.size()) {
        const size_t end = std::min(word.find('_', start), word.size());
        std::string part = word.substr(start, end - start);
        if (part.size() >= 3 && seen.insert(part).second) words.push_back(std::move(part));
        start = end + 1;
      }
      word.clear();
    }
  }
  return words;
}

}  // namespace pmapi
