// A small JSON reader for cpuperf's session specs: objects, arrays, strings, integers, true,
// false and null, with // and /* */ comments as Fuchsia's .cpspec files allow. Errors say
// where (line) and what.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cpuperf {

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

// `text` with JSON's escapes, in quotes.
std::string JsonQuote(const std::string &text);

}  // namespace cpuperf
