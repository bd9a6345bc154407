/* SPDX-License-Identifier: MIT */
// A flame graph of folded stacks, as one standalone SVG picture (or an HTML page holding it):
// each frame a box as wide as its share of the samples, callers below their callees, siblings
// in name order. Nothing is fetched: the picture carries its own small script, which zooms into
// a frame on click, searches names by regular expression (matched share shown), shows a
// frame's count on hover, and resets. The page's address may ask for a view at load time:
// `#zoom=NAME` zooms into the widest frame named NAME, `#search=TEXT` searches for TEXT as
// plain text (never as an expression, which a link's author could make backtrack for ever).
// Names are shown Printable (printable.h) and labels cut on characters: the SVG is always
// well-formed UTF-8.
// Without scripts (an image viewer) the picture still shows every frame, named where it fits.
#pragma once

#include <string>

#include "folded_stacks.h"

namespace tools {

struct FlameGraphOptions {
  std::string title = "Flame graph";
  std::string subtitle;          // e.g. the command and the sampling period
  std::string unit = "samples";  // what a count is
};

// The SVG document (with its XML declaration).
std::string FlameGraphSvg(const FoldedStacks &stacks, const FlameGraphOptions &options);
// An HTML5 page with the same SVG inline, for a browser.
std::string FlameGraphHtml(const FoldedStacks &stacks, const FlameGraphOptions &options);

// True if `path` names an HTML page (.html or .htm, any case) rather than an SVG picture.
bool IsHtmlPath(const std::string &path);

}  // namespace tools
