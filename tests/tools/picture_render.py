#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures the tools draw, rendered by a browser (headless Debian chromium) and checked
by what it drew: the document after the picture's own script has run (--dump-dom).

usage: picture_render.py flamegraph PMSAMPLE SAMPLER_WORKLOAD
       picture_render.py timeline PMCOUNT PMCOUNT_WORKLOAD

flamegraph: pmsample --folded and --flamegraph (SVG and HTML) on a program whose
  shares_caller spends 3/4 of its CPU time in hot_loop_a and 1/4 in hot_loop_b: the folded
  stacks say so (3:1 within 25%), the frames' boxes are as wide as their samples, the script
  indexed every frame, zooms into a frame named in the address (#zoom=) and searches for its
  plain text (#search=), and every label fits its box.
timeline: pmcount -I 10 -x, --timeline on N getppid calls (N random): a chart per event, one
  point per interval pmcount printed a count for, at its time, with that count, the getppid
  points summing to N exactly.

Exit status: 0 passed, 1 a check failed, 77 cannot run here (no chromium, no tracefs), with
the reason printed.
"""
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing checks.py must leave no __pycache__ in the source tree
from checks import check, finish, skip  # noqa: E402


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    skip("no chromium to render the pictures (scripts/setup-deps installs Debian's)")


def render(browser, work, path, fragment=""):
    """The document as chromium has it once the page's scripts have run."""
    run = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--user-data-dir=" + os.path.join(work, "profile"), "--dump-dom",
         "file://" + path + fragment],
        capture_output=True, text=True, timeout=120)
    if run.returncode != 0 or not run.stdout.strip():
        print(run.stderr, file=sys.stderr)
        sys.exit("chromium could not render " + path)
    return run.stdout


class Elements(html.parser.HTMLParser):
    """Every element's tag and attributes, and the text inside each one (innermost)."""

    def __init__(self, text):
        super().__init__()
        self.elements = []
        self.open = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "children": []}
        if self.open:
            self.open[-1]["children"].append(element)
        self.elements.append(element)
        if tag not in ("rect", "circle", "line", "polyline", "meta", "br"):
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.open and self.open[-1]["tag"] == tag:
            self.open.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i]["tag"] == tag:
                del self.open[i:]
                break

    def handle_data(self, data):
        if self.open:
            self.open[-1]["text"] += data


def frames(dom):
    """Each drawn frame: name, samples, depth, box width, label, hidden."""
    out = []
    for e in Elements(dom).elements:
        if e["tag"] == "g" and e["attrs"].get("class") == "f":
            rect = next(c for c in e["children"] if c["tag"] == "rect")
            text = next(c for c in e["children"] if c["tag"] == "text")
            out.append({"name": e["attrs"]["data-name"], "n": int(e["attrs"]["data-n"]),
                        "d": int(e["attrs"]["data-d"]), "width": float(rect["attrs"]["width"]),
                        "label": text["text"],
                        "hidden": "display: none" in e["attrs"].get("style", "")})
    return out


def check_labels_fit(drawn, when):
    """Every label fits its box: 7 px a character (12 px monospace) and 3 px each side, and one
    shortened to fit is its name's start and '..'."""
    wrong = [f for f in drawn if f["label"] and not f["hidden"] and (
        len(f["label"]) * 7 > f["width"] - 6 or (f["label"] != f["name"] and not (
            f["label"].endswith("..") and f["name"].startswith(f["label"][:-2]))))]
    check("every label fits its box, %s (%d shortened)" % (
        when, sum(f["label"] not in ("", f["name"]) for f in drawn)), not wrong, str(wrong))


def svg_root(dom):
    return next(e for e in Elements(dom).elements if e["tag"] == "svg")["attrs"]


def flamegraph(pmsample, workload):
    browser = chromium()
    work = tempfile.mkdtemp(prefix="picture_render.")
    try:
        folded, svg, page = (os.path.join(work, n) for n in ("f.txt", "fg.svg", "fg.html"))
        for picture in (svg, page):
            run = subprocess.run(
                [pmsample, "-q", "--period", "100000", "--folded", folded, "--flamegraph",
                 picture, "--", workload, "shares", "0.4"],
                capture_output=True, text=True, timeout=120)
            if run.returncode != 0:
                sys.exit("pmsample failed: " + run.stdout + run.stderr)
            if picture == svg:
                svg_text = open(svg).read()
                check("the SVG picture is one standalone document", svg_text.startswith("<?xml")
                      and "http://" not in svg_text.replace("http://www.w3.org/2000/svg", ""))
        # The folded stacks: the call structure, outermost first, and the 3:1 of the workload.
        counts = {}
        for line in open(folded).read().splitlines():
            stack, samples = line.rsplit(" ", 1)
            counts[stack] = int(samples)
        under = lambda leaf: sum(n for s, n in counts.items() if ";shares_caller;" + leaf in s)
        a, b = under("hot_loop_a"), under("hot_loop_b")
        check("folded stacks run main;shares_caller;hot_loop_a", any(
            re.search(r";main;shares_caller;hot_loop_a( |;|$)", s) for s in counts), str(counts))
        check("hot_loop_a:hot_loop_b is 3:1 within 25%% (%d:%d)" % (a, b),
              b > 50 and 2.25 <= a / b <= 3.75, str(counts))

        # The HTML page as drawn: every frame indexed by its script, boxes as wide as samples.
        dom = render(browser, work, page, "#search=hot_loop_")
        root = svg_root(dom)
        drawn = frames(dom)
        check("the script indexed every frame (%s of %d)" % (root.get("data-frames"), len(drawn)),
              root.get("data-frames") == str(len(drawn)) and len(drawn) > 5)
        total = int(root["data-total"])
        check("the samples drawn are the folded stacks' (%d)" % total,
              total == sum(counts.values()))
        box = {f["name"]: f for f in drawn if f["name"].startswith("hot_loop_")
               and f["d"] == 5}  # all, the thread, __libc_start_call_main, main, shares_caller
        check("hot_loop_a and hot_loop_b are drawn above shares_caller",
              set(box) == {"hot_loop_a", "hot_loop_b"}, str(drawn))
        if set(box) == {"hot_loop_a", "hot_loop_b"}:
            fa, fb = box["hot_loop_a"], box["hot_loop_b"]
            check("their samples are the folded stacks' (%d, %d)" % (fa["n"], fb["n"]),
                  fa["n"] == a and fb["n"] == b)
            scale = (1200 - 20) / total
            for f in (fa, fb):
                check("%s's box is %.2f px wide for %d of %d samples" % (
                    f["name"], f["width"], f["n"], total), abs(f["width"] - f["n"] * scale) < 0.02)
            check("their widths are 3:1 within 25%", 2.25 <= fa["width"] / fb["width"] <= 3.75)
            check("a wide frame is labelled with its name", fa["label"] == "hot_loop_a")
        check("the search matched both loops (%s of %d samples)" % (root.get("data-matched"), a + b),
              root.get("data-matched") == str(a + b))
        check_labels_fit(drawn, "as written")

        # The address's search is plain text, never an expression: a link could otherwise
        # make the page backtrack for ever on every frame ((.|.|.|.)*Z).
        dom = render(browser, work, page, "#search=hot.loop")
        check("#search=hot.loop is plain text: it matches no frame (%s)"
              % svg_root(dom).get("data-matched"), svg_root(dom).get("data-matched") == "0")

        # Zoomed by the address into hot_loop_b: it spans the width, its sibling is hidden.
        dom = render(browser, work, svg, "#zoom=hot_loop_b")
        zoomed = {f["name"]: f for f in frames(dom) if f["d"] == 5}
        check("the SVG zooms into hot_loop_b", svg_root(dom).get("data-zoom") == "hot_loop_b")
        check("hot_loop_b spans the width when zoomed",
              abs(zoomed["hot_loop_b"]["width"] - 1180) < 0.02, str(zoomed))
        check("hot_loop_a is hidden when zoomed", zoomed["hot_loop_a"]["hidden"], str(zoomed))
        check_labels_fit(frames(dom), "relabelled by the zoom")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def timeline(pmcount, workload):
    if not os.path.isdir("/sys/kernel/tracing/events/syscalls") and \
            not os.path.isdir("/sys/kernel/debug/tracing/events/syscalls"):
        skip("no tracefs: syscalls:sys_enter_getppid cannot be counted")
    browser = chromium()
    work = tempfile.mkdtemp(prefix="picture_render.")
    try:
        page = os.path.join(work, "timeline.html")
        # Usage: a timeline charts intervals; a page that cannot be written stops pmcount
        # before the command runs.
        marker = os.path.join(work, "ran")
        alone = subprocess.run([pmcount, "--timeline", page, "-e", "task-clock", "--", "true"],
                               capture_output=True, text=True, timeout=60)
        check("--timeline without -I is a usage error (2) that says to add -I",
              alone.returncode == 2 and "add -I" in alone.stderr, alone.stderr)
        missing = os.path.join(work, "missing", "t.html")
        bad = subprocess.run([pmcount, "-I", "100", "--timeline", missing, "-e", "task-clock",
                              "--", "touch", marker], capture_output=True, text=True, timeout=60)
        check("an unwritable --timeline exits 125 before the command runs",
              bad.returncode == 125 and "cannot write " + missing in bad.stderr
              and not os.path.exists(marker), bad.stderr)
        n = random.randint(200000, 299999)
        run = subprocess.run(
            [pmcount, "-I", "10", "-x", ",", "--timeline", page, "-e",
             "syscalls:sys_enter_getppid,task-clock", "--", workload, "getppid", str(n)],
            capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            sys.exit("pmcount failed: " + run.stderr)
        # event -> (seconds, count) of each interval line; a count of None where pmcount
        # printed <not counted> (no time enabled in that interval): the chart leaves a gap.
        printed = {}
        for line in run.stderr.splitlines():
            fields = line.split(",")
            if len(fields) > 4 and re.match(r"^\s*[0-9.]+$", fields[0]):
                count = float(fields[1]) if re.match(r"^[0-9.]+$", fields[1]) else None
                if count is not None and fields[2] == "msec":  # perf's unit for the clocks
                    count *= 1e6  # the page keeps pmcount's nanoseconds
                printed.setdefault(fields[3], []).append((float(fields[0]), count))
        dom = render(browser, work, page)
        elements = Elements(dom).elements
        charts = next((e for e in elements if e["attrs"].get("id") == "charts"), None)
        check("the page's script drew its charts",
              charts is not None and charts["attrs"].get("data-drawn") == "2")
        series = [e for e in elements if e["attrs"].get("class") == "series"]
        names = [s["attrs"]["data-name"] for s in series]
        check("a chart per event: " + ", ".join(names),
              names == ["syscalls:sys_enter_getppid", "task-clock"])
        for s in series:
            name = s["attrs"]["data-name"]
            points = [(float(e["attrs"]["data-t"]) / 1000, float(e["attrs"]["data-v"]))
                      for e in Elements_of(s) if e["attrs"].get("class") == "point"]
            counted = [(t, c) for t, c in printed.get(name, []) if c is not None]
            check("%s: a point per interval counted (%d, %d printed)" % (
                name, len(points), len(counted)), len(points) == len(counted) and points)
            check("%s: each point is the interval's time and count printed" % name, all(
                abs(pt - t) < 1e-6 and abs(pv - c) <= 0.005e6 * (name == "task-clock")
                for (pt, pv), (t, c) in zip(points, counted)),
                "%s\n%s" % (points, counted))
            if name == "syscalls:sys_enter_getppid":
                check("getppid points sum to the %d calls" % n,
                      sum(v for _, v in points) == n, str(points))
                polyline = [e for e in Elements_of(s) if e["tag"] == "polyline"]
                check("a line joins the points", len(polyline) == 1 and len(
                    polyline[0]["attrs"].get("points", "").split()) == len(points))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def Elements_of(element):
    out = []
    for child in element["children"]:
        out.append(child)
        out.extend(Elements_of(child))
    return out


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("flamegraph", "timeline"):
        sys.exit(__doc__)
    (flamegraph if sys.argv[1] == "flamegraph" else timeline)(sys.argv[2], sys.argv[3])
    finish()


if __name__ == "__main__":
    main()
