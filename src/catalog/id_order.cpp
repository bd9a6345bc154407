// SPDX-License-Identifier: MIT
// Choosing which events are listed and numbering them.
#include "catalog/id_order.h"

#include <fnmatch.h>
#include <string.h>

namespace pmapi {
namespace {

// Patterns separated by commas or blanks; empty pieces are skipped.
std::vector<std::string> SplitPatterns(const std::string &patterns) {
  std::vector<std::string> pieces;
  std::string piece;
  for (char c : patterns) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n') {
      if (!piece.empty()) pieces.push_back(piece);
      piece.clear();
    } else {
      piece.push_back(c);
    }
  }
  if (!piece.empty()) pieces.push_back(piece);
  return pieces;
}

// A pattern whose one wildcard is a final '*' ("sched:*") matches exactly the names it begins
// with: those are compared as a prefix, as fnmatch would decide but without its cost (matching
// ~2300 tracepoints against the default patterns with fnmatch took ~80 us of each
// pm_initialize here).
struct Pattern {
  std::string text;
  size_t prefix = std::string::npos;  // the length to compare, or npos: ask fnmatch
};

std::vector<Pattern> Compile(const std::vector<std::string> &texts) {
  std::vector<Pattern> patterns;
  for (const std::string &text : texts) {
    Pattern pattern{text};
    if (!text.empty() && text.find_first_of("*?[\\") == text.size() - 1 && text.back() == '*') {
      pattern.prefix = text.size() - 1;
    }
    patterns.push_back(std::move(pattern));
  }
  return patterns;
}

bool MatchesAny(const std::string &name, const std::vector<Pattern> &patterns) {
  for (const Pattern &pattern : patterns) {
    if (pattern.prefix != std::string::npos) {
      if (name.size() >= pattern.prefix &&
          memcmp(name.data(), pattern.text.data(), pattern.prefix) == 0) {
        return true;
      }
    } else if (fnmatch(pattern.text.c_str(), name.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool MatchesAnyPattern(const std::string &name, const std::string &patterns) {
  return MatchesAny(name, Compile(SplitPatterns(patterns)));
}

IdOrder OrderIds(const std::vector<CatalogEvent> &events, size_t table_position, size_t table_count,
                 const std::string &extra_tracepoints, size_t listed_bound) {
  const std::vector<Pattern> default_patterns = Compile(SplitPatterns(kDefaultTracepointPatterns));
  const std::vector<Pattern> extra_patterns = Compile(SplitPatterns(extra_tracepoints));
  std::vector<size_t> hardware, software, sysfs, default_tracepoints, extra_tracepoints_found,
      other_tracepoints;
  for (size_t position = 0; position < events.size(); ++position) {
    const CatalogEvent &event = events[position];
    switch (event.source) {
      case EventSource::kTable:
        break;  // taken from their sorted run below
      case EventSource::kPfm:
        hardware.push_back(position);
        break;
      case EventSource::kSoftware:
        software.push_back(position);
        break;
      case EventSource::kSysfsPmu:
        sysfs.push_back(position);
        break;
      case EventSource::kTracepoint:
        if (MatchesAny(event.short_name, default_patterns)) {
          default_tracepoints.push_back(position);
        } else if (MatchesAny(event.short_name, extra_patterns)) {
          extra_tracepoints_found.push_back(position);
        } else {
          other_tracepoints.push_back(position);
        }
        break;
    }
  }
  // What is always listed; hardware events, then sysfs ones, share the room that is left. The
  // tracepoints the environment asks for come on top, last, so that they move no other id.
  size_t fixed = table_count + software.size() + default_tracepoints.size();
  size_t room = listed_bound > fixed ? listed_bound - fixed : 0;
  size_t listed_hardware = hardware.size() < room ? hardware.size() : room;
  room -= listed_hardware;
  size_t listed_sysfs = sysfs.size() < room ? sysfs.size() : room;

  IdOrder order;
  order.positions.reserve(events.size());
  for (size_t i = 0; i < table_count; ++i) order.positions.push_back(table_position + i);
  order.positions.insert(order.positions.end(), hardware.begin(),
                         hardware.begin() + static_cast<std::ptrdiff_t>(listed_hardware));
  order.positions.insert(order.positions.end(), software.begin(), software.end());
  order.positions.insert(order.positions.end(), sysfs.begin(),
                         sysfs.begin() + static_cast<std::ptrdiff_t>(listed_sysfs));
  order.positions.insert(order.positions.end(), default_tracepoints.begin(),
                         default_tracepoints.end());
  order.positions.insert(order.positions.end(), extra_tracepoints_found.begin(),
                         extra_tracepoints_found.end());
  order.listed = order.positions.size();
  // The other tracepoints first, in the kernel's order: then listing all of them ("*") gives
  // them the very ids they have unlisted.
  order.positions.insert(order.positions.end(), other_tracepoints.begin(), other_tracepoints.end());
  order.positions.insert(order.positions.end(),
                         hardware.begin() + static_cast<std::ptrdiff_t>(listed_hardware),
                         hardware.end());
  order.positions.insert(order.positions.end(),
                         sysfs.begin() + static_cast<std::ptrdiff_t>(listed_sysfs), sysfs.end());
  return order;
}

}  // namespace pmapi
