// Text placed inside the pages and pictures the tools write (SVG, HTML): escaped so that a
// function or event name can never end an element, an attribute or a script. Pure.
#pragma once

#include <string>

namespace tools {

// `text` as XML/HTML character data or a quoted attribute value: & < > " ' escaped.
std::string EscapeMarkup(const std::string &text);

// A JSON text made safe to sit inside an HTML <script> element: "</" (which would end the
// element whatever the JSON means) is written "<\/", which JSON reads back as the same string.
std::string ScriptSafe(const std::string &json);

}  // namespace tools
