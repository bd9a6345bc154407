// SPDX-License-Identifier: MIT
// The kit's Printable (src/tools/common/printable.h): a program's names shown on a terminal or
// in a picture carry no control character and no byte that is not UTF-8.
#include "printable.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Printable, WritesControlCharactersVisiblyAndKeepsText) {
  // Clear the screen, set the title, write the clipboard (OSC 52): shown, never obeyed.
  EXPECT_EQ(tools::Printable("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(tools::Printable("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
  EXPECT_EQ(tools::Printable("\x1b]52;c;aGk=\x1b\\"), "\\x1b]52;c;aGk=\\x1b\\");
  EXPECT_EQ(tools::Printable("tab\there\nline\r\x7f"), "tab\\x09here\\x0aline\\x0d\\x7f");
  // C1 controls as UTF-8 (U+009B is CSI where a terminal takes C1), as \u00NN.
  EXPECT_EQ(tools::Printable("x\xc2\x9b"
                             "2J"),
            "x\\u009b2J");
  EXPECT_EQ(tools::Printable("std::vector<int>::push_back(int&&) été 名前 \xf0\x9f\x94\xa5"),
            "std::vector<int>::push_back(int&&) été 名前 \xf0\x9f\x94\xa5");
  EXPECT_EQ(tools::Printable("\xc2\xa0"), "\xc2\xa0");  // U+00A0 is text
}

TEST(Printable, ReplacesBytesThatAreNotUtf8AsTheJsonWriterDoes) {
  const std::string replacement = "\xef\xbf\xbd";
  EXPECT_EQ(tools::Printable("caf\xe9"), "caf" + replacement);            // Latin-1
  EXPECT_EQ(tools::Printable("\xc3\xa9\xc3"), "\xc3\xa9" + replacement);  // cut short
  EXPECT_EQ(tools::Printable("\x9b"
                             "2J"),
            replacement + "2J");                                       // a bare C1 byte
  EXPECT_EQ(tools::Printable("\xc0\xaf"), replacement + replacement);  // overlong '/'
  EXPECT_EQ(tools::Printable("\xed\xa0\x80"), replacement + replacement + replacement);
}

TEST(Printable, IsTheSameAppliedTwice) {
  for (const std::string text : {"a\x1b[2Jb", "caf\xe9", "x\xc2\x9b", "\\x1b", "plain"}) {
    const std::string once = tools::Printable(text);
    EXPECT_EQ(tools::Printable(once), once) << text;
  }
}

TEST(Printable, CountsAndCutsOnCharactersNeverInsideOne) {
  const std::string text = "é名\xf0\x9f\x94\xa5x";  // 2, 3, 4 and 1 bytes
  EXPECT_EQ(tools::CharacterCount(text), 4u);
  EXPECT_EQ(tools::FirstCharacters(text, 0), "");
  EXPECT_EQ(tools::FirstCharacters(text, 1), "é");
  EXPECT_EQ(tools::FirstCharacters(text, 3), "é名\xf0\x9f\x94\xa5");
  EXPECT_EQ(tools::FirstCharacters(text, 4), text);
  EXPECT_EQ(tools::FirstCharacters(text, 9), text);
}

}  // namespace
