/* SPDX-License-Identifier: MIT */
// The script a flame graph carries (flame_graph.cpp puts it in a CDATA section of the SVG, so
// that it reads the same inline in HTML). It finds everything through the SVG's attributes:
// data-total, data-width, data-margin, data-char (a label character's width), data-unit; each
// frame is a <g class="f"> with data-name, data-s (its first sample), data-n (its samples) and
// data-d (its depth). When it has indexed the frames it sets data-frames on the SVG.
#pragma once

namespace tools {

inline constexpr const char kFlameGraphScript[] = R"JS(
(function () {
  var svg = document.getElementById('flamegraph');
  if (!svg) return;
  var total = +svg.getAttribute('data-total'), width = +svg.getAttribute('data-width');
  var margin = +svg.getAttribute('data-margin'), charWidth = +svg.getAttribute('data-char');
  var unit = svg.getAttribute('data-unit');
  var details = document.getElementById('fg-details');
  var matched = document.getElementById('fg-matched');
  var frames = [];
  var groups = svg.querySelectorAll('g.f');
  for (var i = 0; i < groups.length; ++i) {
    var g = groups[i];
    frames.push({g: g, rect: g.querySelector('rect'), text: g.querySelector('text'),
                 name: g.getAttribute('data-name'), s: +g.getAttribute('data-s'),
                 n: +g.getAttribute('data-n'), d: +g.getAttribute('data-d'),
                 fill: g.querySelector('rect').getAttribute('fill')});
  }
  function percent(n) { return total ? (100 * n / total).toFixed(2) + '%' : '0%'; }
  // The name as far as it fits in w pixels, cut with '..' on a character (not on half of a
  // UTF-16 pair); nothing when not 3 characters fit.
  function label(name, w) {
    var fit = Math.floor((w - 6) / charWidth);
    if (fit < 3) return '';
    var chars = Array.from(name);
    return chars.length <= fit ? name : chars.slice(0, fit - 2).join('') + '..';
  }
  function place(f, x, w) {
    f.rect.setAttribute('x', x.toFixed(2));
    f.rect.setAttribute('width', w.toFixed(2));
    f.text.setAttribute('x', (x + 3).toFixed(2));
    f.text.textContent = label(f.name, w);
  }
  // Shows `z` (a frame, or null for everything) across the whole width: its callers full
  // width and faded below it, its callees scaled with it, every other frame hidden.
  function zoom(z) {
    var s = z ? z.s : 0, n = z ? z.n : total, d = z ? z.d : 0;
    var scale = (width - 2 * margin) / (n || 1);
    for (var i = 0; i < frames.length; ++i) {
      var f = frames[i];
      var inside = f.d >= d && f.s >= s && f.s + f.n <= s + n;
      var caller = f.d < d && f.s <= s && f.s + f.n >= s + n;
      if (!inside && !caller) {
        f.g.style.display = 'none';
        continue;
      }
      f.g.style.display = '';
      f.g.style.opacity = caller ? '0.5' : '';
      if (caller) place(f, margin, width - 2 * margin);
      else place(f, margin + (f.s - s) * scale, f.n * scale);
    }
    svg.setAttribute('data-zoom', z ? z.name : '');
  }
  // Colors the frames whose name matches, and says what share of the samples they cover
  // (a callee inside a matched caller counted once). `pattern` is a regular expression when
  // typed into Search, plain text when `literal`: the address's, since whoever wrote a link
  // could otherwise run an expression that backtracks for ever on every frame.
  function search(pattern, literal) {
    var matches;
    if (literal) {
      matches = function (name) { return name.indexOf(pattern) >= 0; };
    } else {
      var re;
      try { re = new RegExp(pattern); } catch (e) { matched.textContent = 'bad expression'; return; }
      matches = function (name) { return re.test(name); };
    }
    var spans = [];
    for (var i = 0; i < frames.length; ++i) {
      var f = frames[i];
      var hit = pattern !== '' && matches(f.name);
      f.rect.setAttribute('fill', hit ? 'rgb(200,60,220)' : f.fill);
      if (hit) spans.push([f.s, f.s + f.n]);
    }
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var covered = 0, end = -1;
    for (var j = 0; j < spans.length; ++j) {
      var from = Math.max(spans[j][0], end);
      if (spans[j][1] > from) covered += spans[j][1] - from;
      end = Math.max(end, spans[j][1]);
    }
    matched.textContent = pattern === '' ? '' : 'Matched: ' + percent(covered);
    svg.setAttribute('data-matched', pattern === '' ? '' : String(covered));
  }
  function frameOf(target) {
    for (var node = target; node && node !== svg; node = node.parentNode)
      if (node.getAttribute && node.getAttribute('class') === 'f')
        for (var i = 0; i < frames.length; ++i) if (frames[i].g === node) return frames[i];
    return null;
  }
  svg.addEventListener('click', function (e) {
    var f = frameOf(e.target);
    if (f) zoom(f);
  });
  svg.addEventListener('mouseover', function (e) {
    var f = frameOf(e.target);
    details.textContent = f ? f.name + ' (' + f.n + ' ' + unit + ', ' + percent(f.n) + ')' : '';
  });
  document.getElementById('fg-reset').addEventListener('click', function () {
    zoom(null);
    search('');
  });
  document.getElementById('fg-search').addEventListener('click', function () {
    var pattern = window.prompt('Search frames (regular expression)', '');
    if (pattern !== null) search(pattern);
  });
  // The address may ask for a view: #zoom=NAME (the widest frame of that name), #search=TEXT
  // (the frames whose name holds TEXT, as plain text).
  var ask = decodeURIComponent(window.location.hash.substring(1));
  if (ask.indexOf('zoom=') === 0) {
    var widest = null;
    for (var k = 0; k < frames.length; ++k)
      if (frames[k].name === ask.substring(5) && (!widest || frames[k].n > widest.n))
        widest = frames[k];
    if (widest) zoom(widest);
  } else if (ask.indexOf('search=') === 0) {
    search(ask.substring(7), true);
  }
  svg.setAttribute('data-frames', String(frames.length));
})();
)JS";

}  // namespace tools
