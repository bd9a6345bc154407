// SPDX-License-Identifier: MIT
#include "timeline_html.h"

#include "json.h"
#include "markup.h"
#include "timeline_script.h"

namespace tools {
namespace {

std::string Numbers(const std::vector<double> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + JsonNumber(values[i]);
  return out + "]";
}

}  // namespace

std::string TimelineHtml(const Timeline &timeline) {
  std::string json = "{\"title\":" + JsonString(timeline.title) +
                     ",\"subtitle\":" + JsonString(timeline.subtitle) +
                     ",\"times_ms\":" + Numbers(timeline.times_ms) + ",\"series\":[";
  for (size_t i = 0; i < timeline.series.size(); ++i) {
    const TimelineSeries &s = timeline.series[i];
    json += std::string(i ? "," : "") + "{\"name\":" + JsonString(s.name) +
            ",\"unit\":" + JsonString(s.unit) + ",\"values\":" + Numbers(s.values) + "}";
  }
  json += "]}";
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         EscapeMarkup(timeline.title) +
         "</title>\n<style>\n"
         "body { font-family: sans-serif; margin: 16px; background: #fff; }\n"
         "h1 { font-size: 18px; } h2 { font-size: 14px; margin: 12px 0 2px; }\n"
         "p.subtitle { color: #555; font-family: monospace; }\n"
         ".axis { stroke: #888; } .tick { font-size: 11px; fill: #444; }\n"
         ".line { fill: none; stroke: #1f5fa8; stroke-width: 1.5; }\n"
         ".point { fill: #1f5fa8; } .point:hover { fill: #d0402a; }\n"
         "</style>\n</head>\n<body>\n<h1>" +
         EscapeMarkup(timeline.title) + "</h1>\n<p class=\"subtitle\">" +
         EscapeMarkup(timeline.subtitle) +
         "</p>\n<noscript>This page draws its charts with its own script; the counts are in "
         "the JSON below.</noscript>\n<div id=\"charts\"></div>\n"
         "<script type=\"application/json\" id=\"timeline-data\">" +
         ScriptSafe(json) + "</script>\n<script>" + kTimelineScript +
         "</script>\n</body>\n</html>\n";
}

}  // namespace tools
