// The events/*.tbl parser: one record per line, six '|'-separated fields.
#include "catalog/table_parser.h"

#include <errno.h>
#include <stdlib.h>

#include <unordered_map>

#include "catalog/text_fields.h"
#include "pmapi.h"

namespace pmapi {
namespace {

constexpr size_t kFieldCount = 6;

bool ParseId(const std::string &text, int *id) {
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
  if (!ParseId(fields[0], &record->id)) {
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
  std::unordered_map<int, std::string> origin_of_id;
  std::unordered_map<std::string, std::string> origin_of_name;
  size_t line_start = 0;
  for (int line_number = 1; line_start < text.size() || line_number == 1; ++line_number) {
    size_t line_end = text.find('\n', line_start);
    std::string line = Trim(std::string_view(text).substr(line_start, line_end - line_start));
    line_start = line_end == std::string::npos ? text.size() : line_end + 1;
    if (line.empty() || line[0] == '#') continue;

    std::string origin = label + ":" + std::to_string(line_number);
    TableRecord record;
    std::string problem = ParseRecord(Split(line, '|'), &record);
    if (!problem.empty()) return Status(Pmapi_BadCatalog, origin + ": " + problem);
    record.origin = origin;

    auto id_seen = origin_of_id.emplace(record.id, origin);
    if (!id_seen.second) {
      return Status(Pmapi_BadCatalog, origin + ": id " + std::to_string(record.id) +
                                          " is already used at " + id_seen.first->second);
    }
    auto name_seen = origin_of_name.emplace(record.short_name, origin);
    if (!name_seen.second) {
      return Status(Pmapi_BadCatalog, origin + ": short name '" + record.short_name +
                                          "' is already used at " + name_seen.first->second);
    }
    parsed.push_back(std::move(record));
  }
  records->insert(records->end(), std::make_move_iterator(parsed.begin()),
                  std::make_move_iterator(parsed.end()));
  return Status::Ok();
}

}  // namespace pmapi
