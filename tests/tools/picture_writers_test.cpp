// SPDX-License-Identifier: MIT
// The picture writers of the tools' kit without a browser: folded stacks merged and kept whole
// whatever a name holds, and names that could end an element or a script escaped in the flame
// graph and the timeline, labels that fit their boxes, and a picture that an XML parser reads
// whatever a name holds (src/tools/common/folded_stacks.h, flame_graph.h, timeline_html.h).
// picture_render.py renders them in chromium.
#include <gtest/gtest.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "flame_graph.h"
#include "folded_stacks.h"
#include "timeline_html.h"

namespace {

TEST(FoldedStacks, MergesIdenticalStacksSortedAndKeepsEachLineWhole) {
  tools::FoldedStacks folded;
  folded.Add({"app", "main", "b"}, 2);
  folded.Add({"app", "main", "a;x"}, 1);  // a ';' would split the frame
  folded.Add({"app", "main", "b"}, 3);
  folded.Add({"app", "line\nbreak"}, 1);
  folded.Add({}, 5);  // nothing to draw
  EXPECT_EQ(folded.Text(), "app;line break 1\napp;main;a:x 1\napp;main;b 5\n");
  EXPECT_EQ(folded.total(), 7u);
}

TEST(FlameGraph, EscapesNamesAndDrawsEachFrameAsWideAsItsSamples) {
  tools::FoldedStacks folded;
  folded.Add({"p", "std::vector<int>::push_back", "f\"</script>"}, 3);
  folded.Add({"p", "g&h"}, 1);
  tools::FlameGraphOptions options;
  options.title = "a <b> title";
  std::string svg = tools::FlameGraphSvg(folded, options);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("vector<int>"), std::string::npos);
  EXPECT_NE(svg.find("data-name=\"std::vector&lt;int&gt;::push_back\""), std::string::npos);
  EXPECT_NE(svg.find("data-name=\"f&quot;&lt;/script&gt;\""), std::string::npos);
  EXPECT_NE(svg.find("data-name=\"g&amp;h\""), std::string::npos);
  // 1180 px for 4 samples: 3 of them 885 px wide, 1 of them 295; siblings in name order, so
  // g&h first; depth 2 is two boxes of 17 px above depth 0 (56 + 3 * 17).
  EXPECT_NE(svg.find("data-n=\"3\" data-d=\"2\"><title>std::vector&lt;int&gt;::push_back (3 "
                     "samples, 75.00%)</title><rect x=\"305.00\" y=\"73.00\" width=\"885.00\""),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("width=\"295.00\""), std::string::npos);
  std::string page = tools::FlameGraphHtml(folded, options);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<![CDATA["), std::string::npos);  // the script reads the same in HTML
  EXPECT_TRUE(tools::IsHtmlPath("x.HTML"));
  EXPECT_TRUE(tools::IsHtmlPath("x.htm"));
  EXPECT_FALSE(tools::IsHtmlPath("x.svg"));
}

// The frames of a flame graph SVG as written: name, box width and label, entities decoded.
struct DrawnFrame {
  std::string name, label;
  double width = 0;
};

std::string Unescaped(std::string text) {
  const std::pair<const char *, const char *> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (const auto &[entity, character] : entities) {
    for (size_t at; (at = text.find(entity)) != std::string::npos;) {
      text.replace(at, strlen(entity), character);
    }
  }
  return text;
}

std::string Between(const std::string &text, size_t from, const std::string &open,
                    const std::string &close) {
  const size_t start = text.find(open, from);
  if (start == std::string::npos) return "";
  const size_t end = text.find(close, start + open.size());
  return text.substr(start + open.size(), end - start - open.size());
}

std::vector<DrawnFrame> DrawnFrames(const std::string &svg) {
  std::vector<DrawnFrame> frames;
  for (size_t at = 0; (at = svg.find("<g class=\"f\"", at)) != std::string::npos; ++at) {
    DrawnFrame f;
    f.name = Unescaped(Between(svg, at, "data-name=\"", "\""));
    f.width = atof(Between(svg, at, "width=\"", "\"").c_str());
    f.label = Unescaped(Between(svg, at, "\">", "</text>")
                            .substr(Between(svg, at, "\">", "</text>").rfind('>') + 1));
    frames.push_back(f);
  }
  return frames;
}

size_t Characters(const std::string &text) {
  size_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

TEST(FlameGraph, ALabelShortenedToFitItsBoxFitsIt) {
  // Boxes of every width from a sliver to most of the picture, under names of one-, two-,
  // three- and four-byte characters: each label is the whole name, or its start and "..",
  // and at 7 px a character (12 px monospace) it fits the box less 3 px each side.
  tools::FoldedStacks folded;
  const std::string pieces[] = {"a_rather_long_function_name", "déjà_vu_été", "名前空間の関数",
                                "\xf0\x9f\x94\xa5"
                                "fire"};
  for (int k = 1; k <= 40; ++k) {
    std::string name;
    for (int r = 0; r <= k % 4; ++r) name += pieces[k % 4] + std::to_string(k);
    if (k % 8 == 0) name = "f" + std::to_string(k);  // short enough for a wide box
    folded.Add({"p", name}, static_cast<uint64_t>(k));
  }
  const std::vector<DrawnFrame> frames = DrawnFrames(tools::FlameGraphSvg(folded, {}));
  ASSERT_EQ(frames.size(), 42u);  // all, p and the 40
  int shortened = 0, whole = 0;
  for (const DrawnFrame &f : frames) {
    if (f.label.empty()) continue;
    EXPECT_LE(static_cast<double>(Characters(f.label)) * 7.0, f.width - 6) << f.label;
    if (f.label == f.name) {
      ++whole;
      continue;
    }
    ++shortened;
    ASSERT_GE(f.label.size(), 2u);
    EXPECT_EQ(f.label.substr(f.label.size() - 2), "..") << f.label;
    EXPECT_EQ(f.name.rfind(f.label.substr(0, f.label.size() - 2), 0), 0u) << f.label;
    EXPECT_EQ(Characters(f.label), static_cast<size_t>((f.width - 6) / 7))
        << f.label << ": shortened further than its box needs";
  }
  EXPECT_GT(shortened, 10);
  EXPECT_GE(whole, 4);  // all, p and short names
}

TEST(FlameGraph, IsWellFormedXmlWhateverANameHolds) {
  // Names as programs have them: a thread name the kernel cut inside a character (15 bytes
  // of ééééééééé), a long UTF-8 name whose label is cut, a Latin-1 command line, control
  // bytes. An XML parser (python3's) must read the picture, as a browser does.
  if (system("python3 -c 'import xml.etree.ElementTree' 2>/dev/null") != 0) {
    GTEST_SKIP() << "no python3 with xml.etree to read the picture";
  }
  tools::FoldedStacks folded;
  const std::string cut = std::string("ééééééééé").substr(0, 15);
  std::string long_name;
  for (int i = 0; i < 300; ++i) long_name += "é";
  folded.Add({cut, "main", long_name}, 30);
  folded.Add({cut, "main", "caf\xe9_latin1"}, 3);
  folded.Add({cut, "main", "ctl\x1b]0;title\x07\x01\x7f\xc2\x9b"}, 2);
  tools::FlameGraphOptions options;
  options.title = "pmsample r\xe9sum\xe9 \x1b[2J";
  const std::string svg = tools::FlameGraphSvg(folded, options);
  char path[] = "/tmp/flame_graph_xml.XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, svg.data(), svg.size()), static_cast<ssize_t>(svg.size()));
  close(fd);
  const std::string parse = std::string("python3 -c 'import sys, xml.etree.ElementTree as E; ") +
                            "E.parse(sys.argv[1])' " + path;
  const int status = system(parse.c_str());
  unlink(path);
  EXPECT_EQ(status, 0) << svg;
  // What replaced them: U+FFFD for what is no UTF-8, a visible escape for a control byte.
  EXPECT_NE(svg.find("data-name=\"ééééééé\xef\xbf\xbd\""), std::string::npos);
  EXPECT_NE(svg.find("data-name=\"caf\xef\xbf\xbd_latin1\""), std::string::npos);
  // (The ';' is the folded stacks' ':', as a ';' would split the frame.)
  EXPECT_NE(svg.find("data-name=\"ctl\\x1b]0:title\\x07\\x01\\x7f\\u009b\""), std::string::npos);
  for (const DrawnFrame &f : DrawnFrames(svg)) {
    if (f.name == long_name) {
      EXPECT_EQ(f.label.substr(f.label.size() - 2), "..");
      EXPECT_EQ(long_name.rfind(f.label.substr(0, f.label.size() - 2), 0), 0u)
          << "cut inside a character: " << f.label;
    }
  }
}

TEST(Timeline, KeepsItsDataInsideItsScriptWhateverANameHolds) {
  tools::Timeline timeline;
  timeline.title = "pmcount <x>";
  timeline.times_ms = {10, 20};
  timeline.series.push_back({"ev</script><script>alert(1)", "", {1, NAN}});
  std::string page = tools::TimelineHtml(timeline);
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(page.find("ev\\u003c/script>\\u003cscript>alert(1)"), std::string::npos) << page;
  EXPECT_NE(page.find("\"values\":[1,null]"), std::string::npos) << page;
  EXPECT_NE(page.find("<title>pmcount &lt;x&gt;</title>"), std::string::npos);
}

}  // namespace
