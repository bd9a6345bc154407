// The picture writers of the tools' kit without a browser: folded stacks merged and kept whole
// whatever a name holds, and names that could end an element or a script escaped in the flame
// graph and the timeline (src/tools/common/folded_stacks.h, flame_graph.h, timeline_html.h).
// picture_render.py renders them in chromium.
#include <gtest/gtest.h>
#include <math.h>

#include <string>

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
