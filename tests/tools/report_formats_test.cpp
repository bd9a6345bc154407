// SPDX-License-Identifier: MIT
// The kit's formats (src/report): the one JSON writer read back by the one JSON reader, and
// the CSV writer read back by the CSV reader pmcount --merge uses.
#include <gtest/gtest.h>
#include <math.h>

#include <string>
#include <vector>

#include "csv.h"
#include "json.h"

namespace tools {
namespace {

// What JsonString writes, the reader gives back byte for byte (control characters, quotes,
// backslashes and UTF-8 included).
TEST(ReportJson, WriterAndReaderRoundTrip) {
  const std::string texts[] = {"plain",
                               "q\"uo\\te",
                               "tab\tline\nret\rbell\x07",
                               "\x01\x1f",
                               "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                               ""};
  for (const std::string &text : texts) {
    Json value;
    ASSERT_EQ(ParseJson(JsonString(text), &value), "") << JsonString(text);
    EXPECT_EQ(value.type, Json::Type::kString);
    EXPECT_EQ(value.text, text) << JsonString(text);
  }
}

TEST(ReportJson, ControlCharactersNeverAppearRaw) {
  std::string all;
  for (int c = 1; c < 0x20; ++c) all += static_cast<char>(c);
  const std::string quoted = JsonString(all);
  for (char c : quoted) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << quoted;
}

TEST(ReportJson, NumbersWithSignificantDigits) {
  EXPECT_EQ(JsonNumber(1.0 / 3, 15), "0.333333333333333");
  EXPECT_EQ(JsonNumber(3.0, 15), "3");
  EXPECT_EQ(JsonNumber(NAN, 15), "null");
  EXPECT_EQ(JsonNumber(-INFINITY, 6), "null");
}

TEST(ReportJson, ReaderTakesEveryEscape) {
  Json value;
  ASSERT_EQ(ParseJson("\"\\n\\t\\r\\b\\f\\/\\\"\\\\\\u00e9\"", &value), "");
  EXPECT_EQ(value.text, "\n\t\r\b\f/\"\\\xc3\xa9");
}

TEST(ReportJson, ReaderSaysWhereItStopped) {
  Json value;
  EXPECT_NE(ParseJson("{\"a\": 1,\n \"b\" 2}", &value).find("line 2"), std::string::npos);
  EXPECT_NE(ParseJson("\"cut", &value), "");
}

TEST(ReportCsv, FieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(CsvField("task-clock"), "task-clock");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("a;b"), "a;b");
  EXPECT_EQ(CsvField("a;b", ';'), "\"a;b\"");
  EXPECT_EQ(CsvField("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 is data, not quoted
  EXPECT_EQ(CsvQuoted("x"), "\"x\"");
}

TEST(ReportCsv, SplitReadsWhatTheWriterWrote) {
  const std::vector<std::string> fields = {"plain", "a,b", "q\"q", "", "caf\xc3\xa9", "t\tab"};
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + CsvField(fields[i]);
  EXPECT_EQ(CsvSplit(line), fields) << line;
  // perf stat's -x lines: never quoted, empty fields kept, another separator.
  EXPECT_EQ(CsvSplit("1.5;msec;task-clock;;", ';'),
            (std::vector<std::string>{"1.5", "msec", "task-clock", "", ""}));
  EXPECT_EQ(CsvSplit(""), (std::vector<std::string>{""}));
}

}  // namespace
}  // namespace tools
