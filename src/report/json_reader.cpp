// SPDX-License-Identifier: MIT
#include "json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tools {
namespace {

class Parser {
 public:
  explicit Parser(const std::string &input) : s_(input) {}

  std::string Parse(Json *out) {
    if (!Value(out, 0)) return error_;
    Space();
    if (at_ != s_.size()) return Error("text after the end of the value");
    return "";
  }

 private:
  bool Fail(const std::string &what) {
    error_ = Error(what);
    return false;
  }
  std::string Error(const std::string &what) {
    size_t line = 1;
    for (size_t i = 0; i < at_ && i < s_.size(); ++i) line += s_[i] == '\n';
    return "line " + std::to_string(line) + ": " + what;
  }
  void Space() {
    for (;;) {
      while (at_ < s_.size() &&
             (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) {
        ++at_;
      }
      if (s_.compare(at_, 2, "//") == 0) {
        while (at_ < s_.size() && s_[at_] != '\n') ++at_;
      } else if (s_.compare(at_, 2, "/*") == 0) {
        size_t end = s_.find("*/", at_ + 2);
        at_ = end == std::string::npos ? s_.size() : end + 2;
      } else {
        return;
      }
    }
  }
  bool Literal(const char *word) {
    size_t n = strlen(word);
    if (s_.compare(at_, n, word) != 0) return false;
    at_ += n;
    return true;
  }
  bool String(std::string *out) {
    ++at_;  // the opening quote
    while (at_ < s_.size() && s_[at_] != '"') {
      char c = s_[at_++];
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (at_ >= s_.size()) break;
      char e = s_[at_++];
      // The one-letter escapes, each letter followed by what it stands for.
      static const char kEscapes[] = "n\nt\tr\rb\bf\f";
      const char *letter = e ? strchr(kEscapes, e) : nullptr;
      if (letter && (letter - kEscapes) % 2 == 0) {
        out->push_back(letter[1]);
        continue;
      }
      switch (e) {
        case 'u': {
          if (at_ + 4 > s_.size()) return Fail("a cut \\u escape");
          unsigned code = static_cast<unsigned>(strtoul(s_.substr(at_, 4).c_str(), nullptr, 16));
          at_ += 4;
          if (code < 0x80) {
            out->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out->push_back(static_cast<char>(0xc0 | (code >> 6)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
          } else {
            out->push_back(static_cast<char>(0xe0 | (code >> 12)));
            out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
          }
          break;
        }
        default:
          out->push_back(e);
      }
    }
    if (at_ >= s_.size()) return Fail("a string without its closing quote");
    ++at_;
    return true;
  }
  // The character `c` next, taken; false (nothing taken) if another is.
  bool Eat(char c) {
    if (at_ >= s_.size() || s_[at_] != c) return false;
    ++at_;
    return true;
  }
  // An object's members or an array's items: at the opening bracket, `element` read one by
  // one, separated by commas, up to `close`.
  template <typename Element>
  bool Sequence(char close, Element element) {
    ++at_;
    Space();
    if (Eat(close)) return true;
    for (;;) {
      if (!element()) return false;
      Space();
      if (Eat(',')) continue;
      if (Eat(close)) return true;
      return Fail(std::string("expected ',' or '") + close + "'");
    }
  }
  bool Value(Json *out, int depth) {
    if (depth > 64) return Fail("nested too deeply");
    Space();
    if (at_ >= s_.size()) return Fail("a value was expected");
    char c = s_[at_];
    if (c == '{') {
      out->type = Json::Type::kObject;
      return Sequence('}', [this, out, depth] {
        Space();
        if (at_ >= s_.size() || s_[at_] != '"') return Fail("a quoted member name was expected");
        std::string key;
        if (!String(&key)) return false;
        Space();
        if (!Eat(':')) return Fail("expected ':' after \"" + key + "\"");
        Json value;
        if (!Value(&value, depth + 1)) return false;
        out->members.emplace_back(key, std::move(value));
        return true;
      });
    }
    if (c == '[') {
      out->type = Json::Type::kArray;
      return Sequence(']', [this, out, depth] {
        Json value;
        if (!Value(&value, depth + 1)) return false;
        out->items.push_back(std::move(value));
        return true;
      });
    }
    if (c == '"') {
      out->type = Json::Type::kString;
      return String(&out->text);
    }
    if (Literal("true") || Literal("false")) {
      out->type = Json::Type::kBool;
      out->boolean = s_[at_ - 1] == 'e' && s_[at_ - 2] == 'u';
      return true;
    }
    if (Literal("null")) return true;
    return Number(out);
  }
  // A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. A word that
  // strtod would take but JSON does not (nan, inf, 0x10, +1, .5, 010) becomes kBadNumber.
  bool Number(Json *out) {
    size_t end = at_;
    while (end < s_.size() && (isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '.' ||
                               s_[end] == '+' || s_[end] == '-' || s_[end] == '_')) {
      ++end;
    }
    const std::string word = s_.substr(at_, end - at_);
    if (word.empty()) return Fail("not a JSON value");
    if (!IsJsonNumber(word)) {
      char *parsed = nullptr;
      (void)strtod(word.c_str(), &parsed);
      if (parsed == word.c_str()) return Fail("not a JSON value");
      out->type = Json::Type::kBadNumber;
      out->text = word;
      at_ = end;
      return true;
    }
    out->type = Json::Type::kNumber;
    out->number = strtod(word.c_str(), nullptr);
    out->integral = word.find_first_of(".eE") == std::string::npos;
    at_ = end;
    return true;
  }
  static bool IsJsonNumber(const std::string &word) {
    size_t i = 0;
    auto digits = [&] {
      size_t from = i;
      while (i < word.size() && isdigit(static_cast<unsigned char>(word[i]))) ++i;
      return i > from;
    };
    if (i < word.size() && word[i] == '-') ++i;
    if (i < word.size() && word[i] == '0') {
      ++i;
    } else if (!digits()) {
      return false;
    }
    if (i < word.size() && word[i] == '.') {
      ++i;
      if (!digits()) return false;
    }
    if (i < word.size() && (word[i] == 'e' || word[i] == 'E')) {
      ++i;
      if (i < word.size() && (word[i] == '+' || word[i] == '-')) ++i;
      if (!digits()) return false;
    }
    return i == word.size();
  }

  const std::string &s_;
  size_t at_ = 0;
  std::string error_;
};

}  // namespace

std::string ParseJson(const std::string &input, Json *out) { return Parser(input).Parse(out); }

}  // namespace tools
