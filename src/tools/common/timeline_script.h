/* SPDX-License-Identifier: MIT */
// The script of a timeline page (timeline_html.cpp): reads the JSON in #timeline-data
// ({title, subtitle, times_ms, series: [{name, unit, values}]}) and draws one SVG chart per
// series into #charts: axes, a line through the points, a circle per point whose <title> gives
// the interval and value. When done it sets data-drawn (the number of charts) on #charts.
#pragma once

namespace tools {

inline constexpr const char kTimelineScript[] = R"JS(
(function () {
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var charts = document.getElementById('charts');
  var NS = 'http://www.w3.org/2000/svg';
  var W = 900, H = 170, left = 80, right = 20, top = 12, bottom = 30;
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function short(v) {
    var a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(2) + 'G';
    if (a >= 1e6) return (v / 1e6).toFixed(2) + 'M';
    if (a >= 1e3) return (v / 1e3).toFixed(2) + 'k';
    return String(Math.round(v * 100) / 100);
  }
  var times = data.times_ms, tmax = times.length ? times[times.length - 1] : 1;
  for (var s = 0; s < data.series.length; ++s) {
    var series = data.series[s];
    var box = document.createElement('div');
    box.className = 'series';
    box.setAttribute('data-name', series.name);
    var heading = document.createElement('h2');
    heading.textContent = series.name + (series.unit ? ' (' + series.unit + ')' : '');
    box.appendChild(heading);
    var svg = el('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H}, box);
    var vmax = 0;
    for (var i = 0; i < series.values.length; ++i)
      if (series.values[i] !== null && series.values[i] > vmax) vmax = series.values[i];
    if (vmax === 0) vmax = 1;
    function x(t) { return left + (W - left - right) * t / (tmax || 1); }
    function y(v) { return top + (H - top - bottom) * (1 - v / vmax); }
    el('line', {x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, class: 'axis'}, svg);
    el('line', {x1: left, y1: top, x2: left, y2: H - bottom, class: 'axis'}, svg);
    el('text', {x: left - 6, y: top + 10, class: 'tick', 'text-anchor': 'end'}, svg)
        .textContent = short(vmax);
    el('text', {x: left - 6, y: H - bottom, class: 'tick', 'text-anchor': 'end'}, svg)
        .textContent = '0';
    el('text', {x: W - right, y: H - 8, class: 'tick', 'text-anchor': 'end'}, svg)
        .textContent = (tmax / 1000).toFixed(3) + ' s';
    var path = [];
    for (var p = 0; p < series.values.length; ++p)
      if (series.values[p] !== null) path.push(x(times[p]).toFixed(1) + ',' + y(series.values[p]).toFixed(1));
    el('polyline', {points: path.join(' '), class: 'line'}, svg);
    for (var q = 0; q < series.values.length; ++q) {
      var v = series.values[q];
      if (v === null) continue;
      var dot = el('circle', {cx: x(times[q]).toFixed(1), cy: y(v).toFixed(1), r: 3,
                              class: 'point', 'data-t': times[q], 'data-v': v}, svg);
      el('title', {}, dot).textContent = (times[q] / 1000).toFixed(3) + ' s: ' + v;
    }
    charts.appendChild(box);
  }
  charts.setAttribute('data-drawn', String(data.series.length));
})();
)JS";

}  // namespace tools
