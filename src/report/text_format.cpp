// SPDX-License-Identifier: MIT
#include "text_format.h"

#include <math.h>
#include <stdio.h>

namespace tools {

std::string WithThousands(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  const size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i >= lead && (i - lead) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string Fixed(double value, int decimals) {
  if (isnan(value)) return "nan";
  if (isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  // %f of a huge double would be hundreds of digits; no count comes near 1e30.
  if (fabs(value) >= 1e30) {
    snprintf(text, sizeof text, "%.*e", decimals, value);
    return text;
  }
  snprintf(text, sizeof text, "%.*f", decimals, value);
  // printf follows LC_NUMERIC; the tools never call setlocale, but a library might.
  for (char *c = text; *c; ++c) {
    if (*c == ',') *c = '.';
  }
  return text;
}

std::string FixedWithThousands(double value, int decimals) {
  std::string plain = Fixed(value, decimals);
  if (plain.find_first_not_of("-0123456789.") != std::string::npos) return plain;  // nan, 1e+30
  const bool negative = !plain.empty() && plain[0] == '-';
  if (negative) plain.erase(0, 1);
  const size_t point = plain.find('.');
  std::string whole = plain.substr(0, point);
  if (whole.size() > 19) return (negative ? "-" : "") + plain;  // beyond uint64_t
  std::string rest = point == std::string::npos ? "" : plain.substr(point);
  std::string grouped = WithThousands(std::stoull(whole));
  return (negative ? "-" : "") + grouped + rest;
}

std::string PadLeft(const std::string &text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string PadRight(const std::string &text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string SecondsFromNs(uint64_t ns) {
  char text[48];
  snprintf(text, sizeof text, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000),
           static_cast<unsigned long long>(ns % 1000000000));
  return text;
}

std::string OrList(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

}  // namespace tools
