// SPDX-License-Identifier: MIT
// The helpers both tools share: number formatting, JSON escaping.
#include <gtest/gtest.h>
#include <math.h>
#include <stdint.h>

#include "json.h"
#include "text_format.h"

namespace tools {
namespace {

TEST(ToolsFormat, ThousandsSeparators) {
  EXPECT_EQ(WithThousands(0), "0");
  EXPECT_EQ(WithThousands(999), "999");
  EXPECT_EQ(WithThousands(1000), "1,000");
  EXPECT_EQ(WithThousands(1234567), "1,234,567");
  EXPECT_EQ(WithThousands(100000), "100,000");
  EXPECT_EQ(WithThousands(UINT64_MAX), "18,446,744,073,709,551,615");
  EXPECT_EQ(FixedWithThousands(1234567.891, 2), "1,234,567.89");
  EXPECT_EQ(FixedWithThousands(-1234.5, 1), "-1,234.5");
  EXPECT_EQ(FixedWithThousands(0.125, 3), "0.125");
  EXPECT_EQ(FixedWithThousands(NAN, 2), "nan");
  EXPECT_EQ(FixedWithThousands(1e25, 0), "10000000000000000905969664");  // past uint64_t: plain
  EXPECT_EQ(SecondsFromNs(8301572), "0.008301572");
  EXPECT_EQ(SecondsFromNs(12000000001ull), "12.000000001");
  EXPECT_EQ(PadLeft("ab", 4), "  ab");
  EXPECT_EQ(PadRight("ab", 4), "ab  ");
  EXPECT_EQ(PadLeft("abcdef", 4), "abcdef");
}

TEST(ToolsJson, EscapesEverythingThatWouldBreakAParser) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonString("t\tn\nx\x01"), "\"t\\tn\\nx\\u0001\"");
  EXPECT_EQ(JsonString("caf\xc3\xa9"), "\"caf\xc3\xa9\"");             // valid UTF-8 kept
  EXPECT_EQ(JsonString("bad\xff\xc3"), "\"bad\\ufffd\\ufffd\"");       // invalid bytes replaced
  EXPECT_EQ(JsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a lone surrogate
  EXPECT_EQ(JsonNumber(NAN), "null");
  EXPECT_EQ(JsonNumber(INFINITY), "null");
  EXPECT_EQ(JsonNumber(1000.0), "1000");
  EXPECT_EQ(JsonNumber(0.5), "0.5");
  EXPECT_EQ(JsonNumber(uint64_t{18446744073709551615u}), "18446744073709551615");
}

}  // namespace
}  // namespace tools
