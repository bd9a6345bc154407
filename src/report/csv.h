/* SPDX-License-Identifier: MIT */
// The CSV the tools and libraries write and read (RFC 4180 quoting): one writer of a field,
// one reader of a line. Pure, no I/O.
#pragma once

#include <string>
#include <vector>

namespace tools {

// `text` as one field: as it is unless it holds the separator, a quote or a line break; then
// in quotes, each quote doubled.
std::string CsvField(const std::string &text, char separator = ',');

// `text` in quotes whatever it holds, each quote doubled (for a format that quotes every
// field, such as AIX's pmlist -o c).
std::string CsvQuoted(const std::string &text);

// One line's fields. A field that starts with a quote runs to its closing quote ("" inside is
// one quote); any other field runs to the next separator as written. A line of n separators
// has n + 1 fields.
std::vector<std::string> CsvSplit(const std::string &line, char separator = ',');

}  // namespace tools
