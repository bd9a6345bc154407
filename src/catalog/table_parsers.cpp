// SPDX-License-Identifier: MIT
// The text tables' parsers (format: events/README.md and groups/README.md): one event record a
// line of six '|'-separated fields; a group header line, then the group's "events", "metric" and
// "client-id" lines. Both report the first bad line as "<label>:<line>: <what is wrong>".
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <unordered_map>

#include "catalog/tables.h"
#include "pmapi.h"

namespace pmapi {

// ---- Fields ------------------------------------------------------------------------------

std::string Trim(std::string_view text) {
  const char *blanks = " \t\r";
  size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(blanks);
  return std::string(text.substr(begin, end - begin + 1));
}

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = text.find(separator, start);
    parts.push_back(Trim(text.substr(start, end == std::string_view::npos ? end : end - start)));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string Hex(unsigned long long value) {
  char text[24];
  snprintf(text, sizeof text, "0x%llx", value);
  return text;
}

namespace {

// The lines of a table text that hold something: trimmed, blank lines and comments skipped,
// each with its number (from 1) for error messages.
class TableLines {
 public:
  explicit TableLines(const std::string &text) : text_(text) {}
  bool Next(std::string *line, int *number) {
    while (start_ < text_.size()) {
      const size_t end = text_.find('\n', start_);
      *line = Trim(std::string_view(text_).substr(start_, end - start_));
      start_ = end == std::string::npos ? text_.size() : end + 1;
      *number = ++number_;
      if (!line->empty() && (*line)[0] != '#') return true;
    }
    return false;
  }

 private:
  const std::string &text_;
  size_t start_ = 0;
  int number_ = 0;
};

// The line each id and short name of one text was first used at: a second use is an error.
class FirstUses {
 public:
  // "" or what is wrong ("group id 3 is already used at a.grp:4"); `word` is "" or "group ".
  std::string Claim(int id, const std::string &short_name, const std::string &origin,
                    const std::string &word) {
    auto id_seen = ids_.emplace(id, origin);
    if (!id_seen.second) {
      return word + "id " + std::to_string(id) + " is already used at " + id_seen.first->second;
    }
    auto name_seen = names_.emplace(short_name, origin);
    if (!name_seen.second) {
      return word + "short name '" + short_name + "' is already used at " + name_seen.first->second;
    }
    return "";
  }

 private:
  std::unordered_map<int, std::string> ids_;
  std::unordered_map<std::string, std::string> names_;
};

}  // namespace

// ---- events/*.tbl ------------------------------------------------------------------------

namespace {

constexpr size_t kFieldCount = 6;

bool ParseTableId(const std::string &text, int *id) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  long value = strtol(text.c_str(), nullptr, 10);
  if (errno != 0 || value < kFirstTableId || value > kLastTableId) return false;
  *id = static_cast<int>(value);
  return true;
}

// Checks one record's fields; returns "" or what is wrong.
std::string ParseRecord(const std::vector<std::string> &fields, TableRecord *record) {
  if (fields.size() != kFieldCount) {
    return "expected " + std::to_string(kFieldCount) +
           " fields separated by '|' (id | short name "
           "| long name | mapping | libpfm4 event | description), found " +
           std::to_string(fields.size());
  }
  if (!ParseTableId(fields[0], &record->id)) {
    return "id '" + fields[0] + "' is not an integer in " + std::to_string(kFirstTableId) + ".." +
           std::to_string(kLastTableId);
  }
  record->short_name = fields[1];
  if (record->short_name.empty()) return "empty short name";
  if (record->short_name.find_first_of(" \t") != std::string::npos) {
    return "short name '" + record->short_name + "' contains a space";
  }
  record->long_name = fields[2];
  if (record->long_name.empty()) return "empty long name";
  if (fields[3] == "exact") {
    record->approximate = false;
  } else if (fields[3] == "approximate") {
    record->approximate = true;
  } else {
    return "mapping '" + fields[3] + "' is neither 'exact' nor 'approximate'";
  }
  record->pfm_alternatives.clear();
  for (const std::string &alternative : Split(fields[4], ';')) {
    if (alternative.empty()) return "empty libpfm4 event string";
    if (alternative.find_first_of(" \t") != std::string::npos) {
      return "libpfm4 event string '" + alternative + "' contains a space";
    }
    record->pfm_alternatives.push_back(alternative);
  }
  record->description = fields[5];
  if (record->description.empty()) {
    return record->approximate ? "empty description (an approximate mapping must say how it "
                                 "differs)"
                               : "empty description";
  }
  return "";
}

}  // namespace

Status ParseEventTable(const std::string &label, const std::string &text,
                       std::vector<TableRecord> *records) {
  std::vector<TableRecord> parsed;
  FirstUses uses;
  TableLines lines(text);
  std::string line;
  int line_number = 0;
  while (lines.Next(&line, &line_number)) {
    std::string origin = label + ":" + std::to_string(line_number);
    TableRecord record;
    std::string problem = ParseRecord(Split(line, '|'), &record);
    if (!problem.empty()) return Status(Pmapi_BadCatalog, origin + ": " + problem);
    record.origin = origin;

    problem = uses.Claim(record.id, record.short_name, origin, "");
    if (!problem.empty()) return Status(Pmapi_BadCatalog, origin + ": " + problem);
    parsed.push_back(std::move(record));
  }
  records->insert(records->end(), std::make_move_iterator(parsed.begin()),
                  std::make_move_iterator(parsed.end()));
  return Status::Ok();
}

// ---- groups/*.grp ------------------------------------------------------------------------

namespace {

constexpr size_t kHeaderFields = 4;

std::vector<std::string> Words(const std::string &text) {
  std::vector<std::string> words;
  size_t position = 0;
  for (;;) {
    size_t begin = text.find_first_not_of(" \t", position);
    if (begin == std::string::npos) return words;
    size_t end = text.find_first_of(" \t", begin);
    words.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return words;
    position = end;
  }
}

bool HasBlank(const std::string &text) { return text.find_first_of(" \t") != std::string::npos; }

bool ParseNumber(const std::string &text, int first, int last, int *id) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  long value = strtol(text.c_str(), nullptr, 10);
  if (errno != 0 || value < first || value > last) return false;
  *id = static_cast<int>(value);
  return true;
}

bool ParseGroupId(const std::string &text, int *id) {
  return ParseNumber(text, kFirstGroupId, kLastGroupId, id);
}

// "client-id N"; returns "" or what is wrong.
std::string ParseClientId(const std::string &rest, const std::string &where, GroupRecord *group) {
  if (group->client_id != kUnpinned) {
    return "a second 'client-id' line for group " + group->short_name + " (the first is at " +
           group->client_id_origin + ")";
  }
  if (!ParseNumber(rest, 0, kLastClientGroupId, &group->client_id)) {
    group->client_id = kUnpinned;
    return "client id '" + rest + "' is not an integer in 0.." + std::to_string(kLastClientGroupId);
  }
  group->client_id_origin = where;
  return "";
}

// "id | short name | long name | description"; returns "" or what is wrong.
std::string ParseHeader(const std::string &line, GroupRecord *group) {
  std::vector<std::string> fields = Split(line, '|');
  if (fields.size() != kHeaderFields) {
    return "a group header has " + std::to_string(kHeaderFields) +
           " fields separated by '|' (id | short name | long name | description), found " +
           std::to_string(fields.size());
  }
  if (!ParseGroupId(fields[0], &group->id)) {
    return "group id '" + fields[0] + "' is not an integer in " + std::to_string(kFirstGroupId) +
           ".." + std::to_string(kLastGroupId);
  }
  group->short_name = fields[1];
  if (group->short_name.empty()) return "empty short name";
  if (HasBlank(group->short_name)) return "short name '" + group->short_name + "' contains a space";
  group->long_name = fields[2];
  if (group->long_name.empty()) return "empty long name";
  group->description = fields[3];
  if (group->description.empty()) return "empty description";
  return "";
}

// "events NAME NAME ..."; returns "" or what is wrong.
std::string ParseEvents(const std::string &rest, GroupRecord *group) {
  if (!group->members.empty()) return "a second 'events' line for group " + group->short_name;
  std::vector<std::string> names = Words(rest);
  if (names.empty()) return "'events' lists no event";
  if (names.size() > MAX_COUNTERS) {
    return std::to_string(names.size()) + " events, but a group holds at most " +
           std::to_string(MAX_COUNTERS);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
        names.begin() + static_cast<std::ptrdiff_t>(i)) {
      return "event '" + names[i] + "' is listed twice";
    }
  }
  group->members = std::move(names);
  return "";
}

// "metric NAME = FORMULA [| DESCRIPTION]"; returns "" or what is wrong.
std::string ParseMetric(const std::string &rest, GroupRecord *group) {
  if (group->members.empty()) return "a 'metric' line before the group's 'events' line";
  size_t equals = rest.find('=');
  if (equals == std::string::npos) return "a metric is 'metric NAME = FORMULA'; '=' is missing";
  GroupMetric metric;
  metric.name = Trim(std::string_view(rest).substr(0, equals));
  // "FORMULA | DESCRIPTION": the description is optional; no formula holds a '|'.
  const size_t bar = rest.find('|', equals);
  metric.formula = Trim(std::string_view(rest).substr(
      equals + 1, bar == std::string::npos ? std::string::npos : bar - equals - 1));
  if (bar != std::string::npos) {
    metric.description = Trim(std::string_view(rest).substr(bar + 1));
    if (metric.description.empty())
      return "metric '" + metric.name + "': empty description after '|'";
  }
  if (metric.name.empty()) return "empty metric name";
  if (HasBlank(metric.name)) return "metric name '" + metric.name + "' contains a space";
  for (const GroupMetric &other : group->metrics) {
    if (other.name == metric.name) return "metric '" + metric.name + "' is defined twice";
  }
  std::string problem = Formula::Parse(metric.formula, group->members, &metric.compiled);
  if (!problem.empty()) return "metric '" + metric.name + "': " + problem;
  group->metrics.push_back(std::move(metric));
  return "";
}

// Splits "keyword rest" at the first blank.
void Keyword(const std::string &line, std::string *keyword, std::string *rest) {
  size_t blank = line.find_first_of(" \t");
  *keyword = line.substr(0, blank);
  *rest = blank == std::string::npos ? "" : Trim(std::string_view(line).substr(blank));
}

}  // namespace

Status ParseGroupTable(const std::string &label, const std::string &text,
                       std::vector<GroupRecord> *records) {
  std::vector<GroupRecord> parsed;
  FirstUses uses;
  // A group is complete when the next header (or the end) arrives; it must have events.
  auto finish = [&](const std::string &where) -> Status {
    if (!parsed.empty() && parsed.back().members.empty()) {
      return Status(Pmapi_BadCatalog, parsed.back().origin + ": group " + parsed.back().short_name +
                                          " has no 'events' line" +
                                          (where.empty() ? "" : " before " + where));
    }
    return Status::Ok();
  };
  TableLines lines(text);
  std::string line;
  int line_number = 0;
  while (lines.Next(&line, &line_number)) {
    // "<file>:<line>", made only for headers and errors: most lines need none.
    auto origin = [&label, line_number] { return label + ":" + std::to_string(line_number); };
    std::string keyword, rest, problem;
    Keyword(line, &keyword, &rest);
    // Only headers have '|' fields (and they start with the id); a metric's '|' is its
    // description's.
    if (keyword != "metric" &&
        (isdigit(static_cast<unsigned char>(line[0])) || line.find('|') != std::string::npos)) {
      std::string here = origin();
      Status complete = finish(here);
      if (!complete.ok()) return complete;
      GroupRecord group;
      problem = ParseHeader(line, &group);
      if (problem.empty()) {
        group.origin = here;
        problem = uses.Claim(group.id, group.short_name, here, "group ");
        parsed.push_back(std::move(group));
      }
    } else if (keyword == "events" || keyword == "metric" || keyword == "client-id") {
      if (parsed.empty()) {
        problem = "'" + keyword + "' before any group header (id | short name | long name | " +
                  "description)";
      } else if (keyword == "events") {
        problem = ParseEvents(rest, &parsed.back());
      } else if (keyword == "client-id") {
        problem = ParseClientId(rest, origin(), &parsed.back());
      } else {
        problem = ParseMetric(rest, &parsed.back());
      }
    } else {
      problem = "expected a group header (id | short name | long name | description), an " +
                std::string("'events', 'metric' or 'client-id' line, found '") + keyword + "'";
    }
    if (!problem.empty()) return Status(Pmapi_BadCatalog, origin() + ": " + problem);
  }
  Status complete = finish("");
  if (!complete.ok()) return complete;
  records->insert(records->end(), std::make_move_iterator(parsed.begin()),
                  std::make_move_iterator(parsed.end()));
  return Status::Ok();
}

}  // namespace pmapi
