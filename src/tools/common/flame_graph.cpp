// SPDX-License-Identifier: MIT
// The layout is computed here, once, so that the picture is complete without its script:
// x = margin + first sample * scale, width = samples * scale, depth 0 (all) at the bottom.
#include "flame_graph.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

#include <algorithm>
#include <map>
#include <memory>

#include "flame_graph_script.h"
#include "markup.h"
#include "printable.h"

namespace tools {
namespace {

constexpr double kWidth = 1200;
constexpr double kMargin = 10;
constexpr double kFrameHeight = 17;  // a box of 16 and a gap of 1
constexpr double kHeader = 56;       // title, subtitle and the buttons
constexpr double kFooter = 26;       // the hovered frame's details
constexpr double kCharWidth = 7.0;   // 12 px monospace, what labels are cut to

struct Node {
  uint64_t samples = 0;
  std::map<std::string, std::unique_ptr<Node>> children;  // name order, as flamegraph tools
};

void Insert(Node *root, const std::string &stack, uint64_t count) {
  Node *node = root;
  node->samples += count;
  size_t from = 0;
  while (from <= stack.size()) {
    size_t end = stack.find(';', from);
    if (end == std::string::npos) end = stack.size();
    std::unique_ptr<Node> &child = node->children[stack.substr(from, end - from)];
    if (!child) child = std::make_unique<Node>();
    node = child.get();
    node->samples += count;
    from = end + 1;
  }
}

int Depth(const Node &node) {
  int deepest = 0;
  for (const auto &entry : node.children) deepest = std::max(deepest, 1 + Depth(*entry.second));
  return deepest;
}

// A warm color that depends only on the name, so a function keeps its color across pictures.
std::string ColorOf(const std::string &name) {
  uint32_t hash = 2166136261u;  // FNV-1a
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  char text[32];
  snprintf(text, sizeof text, "rgb(%u,%u,%u)", 205 + hash % 50, 70 + (hash >> 8) % 160,
           30 + (hash >> 16) % 50);
  return text;
}

std::string Number(double value) {
  char text[32];
  snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// The name as far as it fits in `width` pixels, cut with ".." on a character (a cut byte would
// leave no UTF-8); nothing when not 3 characters fit. `name` is Printable.
std::string Label(const std::string &name, double width) {
  const int fit = static_cast<int>((width - 6) / kCharWidth);
  if (fit < 3) return "";
  if (CharacterCount(name) <= static_cast<size_t>(fit)) return name;
  return FirstCharacters(name, static_cast<size_t>(fit - 2)) + "..";
}

struct Layout {
  double scale = 0;
  double bottom = 0;  // the y of depth 0's box
  uint64_t total = 0;
  std::string unit;
};

void Frames(const std::string &name, const Node &node, uint64_t first, int depth,
            const Layout &layout, std::string *out) {
  double x = kMargin + static_cast<double>(first) * layout.scale;
  double w = static_cast<double>(node.samples) * layout.scale;
  double y = layout.bottom - depth * kFrameHeight;
  char share[32];
  snprintf(share, sizeof share, "%.2f%%",
           layout.total ? 100.0 * static_cast<double>(node.samples) / layout.total : 0.0);
  const std::string shown = Printable(name);
  const std::string escaped = EscapeMarkup(shown);
  *out += "<g class=\"f\" data-name=\"" + escaped + "\" data-s=\"" + std::to_string(first) +
          "\" data-n=\"" + std::to_string(node.samples) + "\" data-d=\"" + std::to_string(depth) +
          "\"><title>" + escaped + " (" + std::to_string(node.samples) + " " +
          EscapeMarkup(layout.unit) + ", " + share + ")</title><rect x=\"" + Number(x) + "\" y=\"" +
          Number(y) + "\" width=\"" + Number(w) + "\" height=\"" + Number(kFrameHeight - 1) +
          "\" rx=\"2\" fill=\"" + ColorOf(name) + "\"/><text x=\"" + Number(x + 3) + "\" y=\"" +
          Number(y + 12) + "\">" + EscapeMarkup(Label(shown, w)) + "</text></g>\n";
  uint64_t at = first;
  for (const auto &[child_name, child] : node.children) {
    Frames(child_name, *child, at, depth + 1, layout, out);
    at += child->samples;
  }
}

std::string Svg(const FoldedStacks &stacks, const FlameGraphOptions &options, bool xml) {
  Node root;
  for (const auto &[stack, count] : stacks.stacks()) Insert(&root, stack, count);
  int depth = Depth(root);
  double height = kHeader + (depth + 1) * kFrameHeight + kFooter;
  Layout layout;
  layout.total = root.samples;
  layout.scale = root.samples ? (kWidth - 2 * kMargin) / static_cast<double>(root.samples) : 0;
  layout.bottom = kHeader + depth * kFrameHeight;
  layout.unit = options.unit;

  std::string out;
  if (xml) out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
  out += "<svg id=\"flamegraph\" xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         Number(kWidth) + "\" height=\"" + Number(height) + "\" viewBox=\"0 0 " + Number(kWidth) +
         " " + Number(height) + "\" data-total=\"" + std::to_string(root.samples) +
         "\" data-width=\"" + Number(kWidth) + "\" data-margin=\"" + Number(kMargin) +
         "\" data-char=\"" + Number(kCharWidth) + "\" data-unit=\"" + EscapeMarkup(options.unit) +
         "\">\n";
  out +=
      "<style>text { font-family: monospace; font-size: 12px; fill: #000; }\n"
      "g.f { cursor: pointer; } g.f:hover rect { stroke: #333; stroke-width: 0.5; }\n"
      "#fg-title { font-size: 17px; text-anchor: middle; }\n"
      "#fg-subtitle { fill: #555; text-anchor: middle; }\n"
      "#fg-reset, #fg-search { cursor: pointer; fill: #225; text-decoration: underline; }\n"
      "#fg-search, #fg-matched { text-anchor: end; }</style>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fdf8ee\"/>\n";
  out += "<text id=\"fg-title\" x=\"" + Number(kWidth / 2) + "\" y=\"22\">" +
         EscapeMarkup(options.title) + "</text>\n";
  out += "<text id=\"fg-subtitle\" x=\"" + Number(kWidth / 2) + "\" y=\"40\">" +
         EscapeMarkup(options.subtitle) + "</text>\n";
  out += "<text id=\"fg-reset\" x=\"" + Number(kMargin) + "\" y=\"22\">Reset zoom</text>\n";
  out += "<text id=\"fg-search\" x=\"" + Number(kWidth - kMargin) + "\" y=\"22\">Search</text>\n";
  out += "<text id=\"fg-details\" x=\"" + Number(kMargin) + "\" y=\"" + Number(height - 8) +
         "\"></text>\n";
  out += "<text id=\"fg-matched\" x=\"" + Number(kWidth - kMargin) + "\" y=\"" +
         Number(height - 8) + "\"></text>\n";
  Frames("all", root, 0, 0, layout, &out);
  out += "<script type=\"text/ecmascript\"><![CDATA[";
  out += kFlameGraphScript;
  out += "]]></script>\n</svg>\n";
  return out;
}

}  // namespace

std::string FlameGraphSvg(const FoldedStacks &stacks, const FlameGraphOptions &options) {
  return Svg(stacks, options, true);
}

std::string FlameGraphHtml(const FoldedStacks &stacks, const FlameGraphOptions &options) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         EscapeMarkup(options.title) +
         "</title>\n<style>body { margin: 0; background: #fdf8ee; }</style>\n</head>\n<body>\n" +
         Svg(stacks, options, false) + "</body>\n</html>\n";
}

bool IsHtmlPath(const std::string &path) {
  auto ends = [&path](const std::string &suffix) {
    if (path.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
      if (tolower(static_cast<unsigned char>(path[path.size() - suffix.size() + i])) != suffix[i])
        return false;
    return true;
  };
  return ends(".html") || ends(".htm");
}

}  // namespace tools
