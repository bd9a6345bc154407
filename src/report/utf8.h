/* SPDX-License-Identifier: MIT */
// UTF-8 as the tools write it: one decoder, so that the JSON writer and the text shown on a
// terminal or in a picture agree on which bytes are text. Pure.
#pragma once

#include <stddef.h>

#include <string>

namespace tools {

// The length (1 to 4) of the valid UTF-8 sequence that starts at text[i], or 0 if none does
// (a stray continuation byte, an overlong form, a surrogate, a sequence cut short).
size_t Utf8Length(const std::string &text, size_t i);

}  // namespace tools
