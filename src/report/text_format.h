/* SPDX-License-Identifier: MIT */
// Number and text formatting shared by pmcount and pmlist: pure functions, no I/O.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

namespace tools {

// 1234567 -> "1,234,567". The separator is always ',' (like perf stat's -B in the C locale):
// scripts read CSV and JSON, which never carry separators.
std::string WithThousands(uint64_t value);

// A fixed-point number with `decimals` digits after the point, thousands-separated before it
// ("1,234.57"). Not-a-number and infinities print as "nan", "inf", "-inf".
std::string FixedWithThousands(double value, int decimals);

// printf("%.*f") in the C locale, whatever the process locale says.
std::string Fixed(double value, int decimals);

// `text` padded with spaces on the left (right-aligned) or right (left-aligned) to `width`.
std::string PadLeft(const std::string &text, size_t width);
std::string PadRight(const std::string &text, size_t width);

// "a", "a or b", "a, b or c": the alternatives a message offers.
std::string OrList(const std::vector<std::string> &names);

// Seconds with nine decimals from nanoseconds: 8301572 -> "0.008301572".
std::string SecondsFromNs(uint64_t ns);

}  // namespace tools
