// SPDX-License-Identifier: MIT
#include "printing.h"

#include <algorithm>

#include "json.h"
#include "text_format.h"
#include "text_wrap.h"

namespace pmlist {
namespace {

using tools::JsonString;
using tools::PadLeft;
using tools::PadRight;

// Names longer than this push their own line's description right rather than everyone's.
constexpr size_t kMaxNameColumn = 40;
// Narrower than this, a description column reads as a word a line: wrapped below its row.
constexpr size_t kMinDescriptionWidth = 30;
// Where a description wrapped below its row starts: under the name.
constexpr size_t kIndent = 9;

std::string TrimRight(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string Strings(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + JsonString(items[i]);
  return out + "]";
}

}  // namespace

std::string EventTable(const std::vector<EventRow> &rows, bool verbose, size_t width) {
  size_t name_width = 4;
  for (const EventRow &row : rows) name_width = std::max(name_width, row.name.size());
  name_width = std::min(name_width, kMaxNameColumn);
  const size_t description_column = 7 + 2 + name_width + 2 + 10 + 2 + 8 + 2;
  // Too narrow a terminal for a description column: each description below its row.
  const bool below = width > 0 && width < description_column + kMinDescriptionWidth;
  const std::string header = PadLeft("ID", 7) + "  " + PadRight("NAME", name_width) + "  " +
                             PadRight("STATUS", 10) + "  " + PadRight("COUNTERS", 8) + "  ";
  std::string out = below ? TrimRight(header) + "\n" : header + "DESCRIPTION\n";
  for (const EventRow &row : rows) {
    const std::string start = PadLeft(std::to_string(row.id), 7) + "  " +
                              PadRight(row.name, name_width) + "  " + PadRight(row.status, 10) +
                              "  " + PadRight(CounterList(row.counters), 8) + "  ";
    if (width == 0) {
      out += start + row.description + "\n";  // one line per event: what scripts read
    } else if (!below) {
      // In the description column; after a name too long for its column, from the next line.
      std::vector<std::string> lines = WrapText(row.description, width - description_column);
      const bool fits = start.size() == description_column;
      out += fits && !lines.empty() ? start + lines[0] + "\n" : TrimRight(start) + "\n";
      for (size_t l = fits ? 1 : 0; l < lines.size(); ++l) {
        out += std::string(description_column, ' ') + lines[l] + "\n";
      }
    } else {
      // Under the name.
      out += TrimRight(start) + "\n";
      const size_t indent = std::min(width / 2, kIndent);
      for (const std::string &line : WrapText(row.description, width - indent)) {
        out += std::string(indent, ' ') + line + "\n";
      }
    }
    if (verbose) {
      out += PadLeft("", 9) + "source " + row.source + "; encoding " + row.encoding + "\n";
    }
  }
  // Scripts read "N events" as the last line, its first field the count: kept as it was.
  out += std::to_string(rows.size()) + (rows.size() == 1 ? " event\n" : " events\n");
  return out;
}

std::string GroupTable(const std::vector<GroupRow> &rows) {
  size_t name_width = 4, status_width = 6;
  for (const GroupRow &row : rows) {
    name_width = std::max(name_width, row.name.size());
    status_width = std::max(status_width, row.status.size());
  }
  std::string out = PadLeft("ID", 5) + "  " + PadRight("NAME", name_width) + "  " +
                    PadRight("STATUS", status_width) + "  LONG NAME\n";
  for (const GroupRow &row : rows) {
    out += PadLeft(std::to_string(row.id), 5) + "  " + PadRight(row.name, name_width) + "  " +
           PadRight(row.status, status_width) + "  " + row.long_name + "\n";
    if (!row.description.empty()) out += "       " + row.description + "\n";
    std::string members;
    for (size_t m = 0; m < row.members.size(); ++m) {
      members += (m ? " " : "") + std::to_string(m) + ":" + row.members[m];
    }
    out += "       events  " + members + "\n";
    if (!row.missing.empty())
      out += "       missing " + row.missing + " (not an event of this machine)\n";
    for (const auto &metric : row.metrics) {
      out += "       metric  " + metric.first + " = " + metric.second + "\n";
    }
  }
  out += std::to_string(rows.size()) + (rows.size() == 1 ? " group\n" : " groups\n");
  return out;
}

namespace {

// {"processor":"...","<key>":[ one object per row, a line each ]}: the listing's JSON form.
template <typename Row, typename ObjectOf>
std::string ListingJson(const std::string &processor, const char *key, const std::vector<Row> &rows,
                        ObjectOf object_of) {
  std::string out = "{\"processor\":" + JsonString(processor) + ",\"" + key + "\":[";
  for (size_t i = 0; i < rows.size(); ++i) out += (i ? ",\n" : "\n") + object_of(rows[i]);
  return out + "\n]}\n";
}

// The members an event's and a group's objects begin with, in this order.
template <typename Row>
std::string OpenRowObject(const Row &row) {
  return "{\"id\":" + std::to_string(row.id) + ",\"name\":" + JsonString(row.name) +
         ",\"long_name\":" + JsonString(row.long_name) + ",\"status\":" + JsonString(row.status);
}

}  // namespace

std::string EventJson(const std::string &processor, const std::vector<EventRow> &rows,
                      bool verbose) {
  return ListingJson(processor, "events", rows, [verbose](const EventRow &row) {
    std::string out =
        OpenRowObject(row) + ",\"counters\":" + JsonString(CounterList(row.counters)) +
        ",\"source\":" + JsonString(row.source) + ",\"description\":" + JsonString(row.description);
    if (verbose) out += ",\"encoding\":" + JsonString(row.encoding);
    return out + "}";
  });
}

std::string GroupJson(const std::string &processor, const std::vector<GroupRow> &rows) {
  return ListingJson(processor, "groups", rows, [](const GroupRow &row) {
    std::string out = OpenRowObject(row) + ",\"description\":" + JsonString(row.description) +
                      ",\"events\":" + Strings(row.members);
    if (!row.missing.empty()) out += ",\"missing\":" + JsonString(row.missing);
    out += ",\"metrics\":[";
    for (size_t m = 0; m < row.metrics.size(); ++m) {
      out += (m ? "," : "") + std::string("{\"name\":") + JsonString(row.metrics[m].first) +
             ",\"formula\":" + JsonString(row.metrics[m].second) + "}";
    }
    return out + "]}";
  });
}

}  // namespace pmlist
