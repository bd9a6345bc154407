/* SPDX-License-Identifier: MIT */
// Names that come from the program being counted or sampled (its function names, its thread
// names, its command line) are the program's to choose: shown raw, an escape sequence in one
// would drive the terminal (clear it, set its title, write its clipboard), and a byte that is no
// UTF-8 would break an SVG. Every tool shows them through Printable. Pure.
#pragma once

#include <string>

namespace tools {

// `text` made safe to print: valid UTF-8 is kept, except the control characters (C0, DEL and
// C1, tab and line breaks included), written visibly as \xNN (\u00NN for C1); a byte that is
// not UTF-8 becomes U+FFFD, as in the JSON the tools write. Applied twice, the same.
std::string Printable(const std::string &text);

// How many characters (code points) `text`, valid UTF-8, holds.
size_t CharacterCount(const std::string &text);

// The first `count` characters of `text`, valid UTF-8: never a character cut in two.
std::string FirstCharacters(const std::string &text, size_t count);

}  // namespace tools
