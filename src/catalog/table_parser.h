// Parses one events/*.tbl text into records (format: events/README.md). Knows nothing about
// where the text came from beyond the label it puts in error messages.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace pmapi {

struct TableRecord {
  int id = 0;
  std::string short_name;
  std::string long_name;
  bool approximate = false;
  // One or more libpfm4 strings; the first that encodes on this machine is used.
  std::vector<std::string> pfm_alternatives;
  std::string description;
  std::string origin;  // "events/generic.tbl:12", for error messages about duplicates
};

constexpr int kFirstTableId = 1;
constexpr int kLastTableId = 99999;

// Appends the records of `text` to `records`. On the first bad line returns Pmapi_BadCatalog
// with "<label>:<line>: <what is wrong>" and appends nothing. Duplicates inside this one text
// are errors too; duplicates across files are the loader's business.
Status ParseEventTable(const std::string &label, const std::string &text,
                       std::vector<TableRecord> *records);

}  // namespace pmapi
