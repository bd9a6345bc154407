/* SPDX-License-Identifier: MIT */
// Descriptions wrapped to the terminal: pmlist's rows stay one line each for scripts (a pipe, a
// file, --no-wrap) and fit the screen for people. Pure, so it can be unit-tested.
#pragma once

#include <stddef.h>

#include <string>
#include <vector>

namespace pmlist {

// The width to wrap at, 0 for none: no wrapping unless the output is a terminal and wrapping
// is wanted; then $COLUMNS when it holds a sensible number (`columns`, may be null), else the
// terminal's width (`terminal_columns`, 0 when unknown), else 80.
size_t WrapWidth(bool is_terminal, bool no_wrap, const char *columns, int terminal_columns);

// `text` in lines of at most `width` characters, broken at blanks (runs of blanks become
// one); a word longer than `width` has a line of its own, uncut. No lines for blank text.
std::vector<std::string> WrapText(const std::string &text, size_t width);

}  // namespace pmlist
