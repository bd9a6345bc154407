/* SPDX-License-Identifier: MIT */
// The JSON the tools and libraries write (pmcount, pmlist, libhpm's report, the MPI summary,
// cpuperf's traces): string escaping and numbers that JSON accepts, written once here. Pure.
#pragma once

#include <stdint.h>

#include <string>
#include <utility>
#include <vector>

namespace tools {

// `text` as a JSON string literal, quotes included. Control characters become \uXXXX; bytes
// that are not valid UTF-8 become U+FFFD so that the output always parses.
std::string JsonString(const std::string &text);

// A JSON number, or null for not-a-number and infinities (JSON has neither).
std::string JsonNumber(double value);
inline std::string JsonNumber(uint64_t value) { return std::to_string(value); }
// printf's %.*g with `significant` digits in the C locale, or null (libhpm's metrics).
std::string JsonNumber(double value, int significant);

// The one JSON reader (json_reader.cpp), for cpuperf's session specs and the tests that read
// what the tools wrote: objects, arrays, strings, integers, true, false and null, with // and
// /* */ comments as Fuchsia's .cpspec files allow. Errors say where (line) and what.
struct Json {
  // kBadNumber: a number JSON does not have (nan, Infinity, 0x10, +1, .5, 010), kept as
  // written in `text` so that the reader of the field can refuse it with the field's name and
  // range; no consumer takes it for a number.
  enum class Type {
    kNull,
    kBool,
    kNumber,
    kString,
    kArray,
    kObject,
    kBadNumber
  } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  bool integral = false;
  std::string text;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;  // in file order

  const Json *Find(const std::string &key) const {
    for (const auto &member : members) {
      if (member.first == key) return &member.second;
    }
    return nullptr;
  }
};

// Parses `input` into *out; returns "" or the error ("line 3: expected ':'").
std::string ParseJson(const std::string &input, Json *out);

}  // namespace tools
