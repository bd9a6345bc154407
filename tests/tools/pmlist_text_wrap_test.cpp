// SPDX-License-Identifier: MIT
// pmlist's descriptions on a terminal: wrapped to its width, and never anywhere else.
#include "text_wrap.h"

#include <gtest/gtest.h>

namespace pmlist {
namespace {

TEST(PmlistTextWrap, WrapsOnlyOnATerminalThatWantsIt) {
  EXPECT_EQ(WrapWidth(false, false, "100", 120), 0u) << "a pipe or a file: one line per event";
  EXPECT_EQ(WrapWidth(true, true, "100", 120), 0u) << "--no-wrap";
  EXPECT_EQ(WrapWidth(true, false, "100", 120), 100u) << "$COLUMNS first";
  EXPECT_EQ(WrapWidth(true, false, nullptr, 120), 120u) << "then the terminal's";
  EXPECT_EQ(WrapWidth(true, false, "", 0), 80u) << "then 80";
  for (const char *bad : {"wide", "0", "5", "99999999", "80x"}) {
    EXPECT_EQ(WrapWidth(true, false, bad, 132), 132u) << bad;
  }
}

TEST(PmlistTextWrap, BreaksAtBlanksWithinTheWidth) {
  const std::vector<std::string> lines = WrapText("one two three  four\tfive", 9);
  EXPECT_EQ(lines, (std::vector<std::string>{"one two", "three", "four five"}));
  for (const std::string &line : lines) EXPECT_LE(line.size(), 9u);
  EXPECT_EQ(WrapText("a supercalifragilistic b", 5),
            (std::vector<std::string>{"a", "supercalifragilistic", "b"}))
      << "a long word is not cut";
  EXPECT_TRUE(WrapText("   ", 10).empty());
  EXPECT_EQ(WrapText("fits", 4), (std::vector<std::string>{"fits"}));
}

}  // namespace
}  // namespace pmlist
