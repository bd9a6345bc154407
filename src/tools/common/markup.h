/* SPDX-License-Identifier: MIT */
// Text placed inside the pages and pictures the tools write (SVG, HTML): escaped so that a
// function or event name can never end an element, an attribute or a script. Pure.
#pragma once

#include <string>

namespace tools {

// `text` as XML/HTML character data or a quoted attribute value: made Printable (printable.h),
// so that the document is UTF-8 with no character XML forbids whatever a name held, then
// & < > " ' escaped.
std::string EscapeMarkup(const std::string &text);

// A JSON text made safe to sit inside an HTML <script> element: every '<' (only ever inside a
// JSON string) is written \u003c, which JSON reads back as '<', so no "</script" ends the
// element early and no "<!--" changes how the browser reads the rest of it.
std::string ScriptSafe(const std::string &json);

}  // namespace tools
