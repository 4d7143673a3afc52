#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the plots of xtm-netsim and dcqcn-trace as a reader would (docs/netsim.md 5.1).

    check_plots.py run DIR               a directory of `xtm-netsim run`
    check_plots.py sweep DIR             a directory of `xtm-netsim sweep`
    check_plots.py trace PNG -- ARGS...  a `dcqcn-trace ARGS... --png PNG` plot (and PNG.gp)

Prints one `ok ...` line per plot that passes and one `FAIL file: why` line per problem;
exit status 0 when every plot passes, 1 otherwise, 2 on a bad command line.

What is expected comes from the run's own record, never from the plot script:
summary.json (duration, seed, version, overrides, fairness groups, pauses, the scenario's
Kmin/Kmax/buffer in RTT), timeseries.csv (samples, QPs), results.csv (a sweep's rows),
the dcqcn-trace command line. Each PNG is checked as a file (signature, chunk CRCs,
IHDR size, IDAT inflating to exactly the image, enough non-flat content). What it shows
is checked on the same script drawn again with gnuplot's SVG terminal in a scratch
directory (same data, same commands; only the terminal and the output names differ):
titles and axis labels with their units, the labelled reference lines, every expected
series present with its data (and no unexpected one in the key), the key outside the
data area, every text inside the image, and the footer (version, seed, reproducing
command). gnuplot runs without a shell.
"""
import csv
import html
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

RUN_W, RUN_H = 1100, 850      # sim/netsim/plot.h NS_PLOT_W, NS_PLOT_H
TRACE_W, TRACE_H = 1100, 700  # tools/dcqcn-trace.c
CHAR_EM = 0.56                # mean advance of a DejaVu Sans character, in em (estimate)
MIN_EDGE_FRACTION = 0.004     # non-zero filtered bytes: a blank image has almost none

failures = []


def fail(where, why):
    failures.append("%s: %s" % (where, why))
    print("FAIL %s: %s" % (where, why))


# ------------------------------------------------------------------ PNG as a file

def check_png(path, want_w, want_h):
    """The PNG is complete, of the expected size, and not blank. True when it is."""
    name = os.path.basename(path)
    try:
        b = open(path, "rb").read()
    except OSError as e:
        fail(name, "missing (%s)" % e.strerror)
        return False
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        fail(name, "not a PNG (signature)")
        return False
    p, idat, ihdr, ended = 8, [], None, False
    while p + 12 <= len(b):
        n, = struct.unpack(">I", b[p:p + 4])
        typ, data = b[p + 4:p + 8], b[p + 8:p + 8 + n]
        if p + 12 + n > len(b):
            break
        crc, = struct.unpack(">I", b[p + 8 + n:p + 12 + n])
        if zlib.crc32(typ + data) != crc:
            fail(name, "chunk %r has a bad CRC" % typ.decode("latin-1"))
            return False
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data)
        elif typ == b"IDAT":
            idat.append(data)
        elif typ == b"IEND":
            ended = True
            break
        p += 12 + n
    if ihdr is None or not ended:
        fail(name, "truncated (no IHDR or no IEND)")
        return False
    w, h, depth, ctype = ihdr[:4]
    if (w, h) != (want_w, want_h):
        fail(name, "%dx%d pixels, expected %dx%d" % (w, h, want_w, want_h))
        return False
    bpp = {2: 3, 6: 4}.get(ctype)
    if depth != 8 or bpp is None:
        fail(name, "colour type %d depth %d, expected 8-bit RGB or RGBA" % (ctype, depth))
        return False
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error:
        fail(name, "image data does not inflate")
        return False
    stride = 1 + w * bpp
    if len(raw) != h * stride:
        fail(name, "image data is %d bytes, expected %d" % (len(raw), h * stride))
        return False
    # Filtered bytes are differences from neighbours: an image of one colour is almost all
    # zero whatever the filters; lines, text and tics make non-zero ones.
    nonzero = len(raw) - raw.count(0) - sum(1 for r in range(h) if raw[r * stride] != 0)
    if nonzero < MIN_EDGE_FRACTION * h * w * bpp:
        fail(name, "almost blank (%d non-flat bytes of %d)" % (nonzero, h * w * bpp))
        return False
    return True


# ------------------------------------------------------------------ the script, as SVG

def render_svg(script_path, data_dir, width, height):
    """Draws the script with the SVG terminal in a scratch directory; returns
    {png name as in the script: svg text}."""
    text = open(script_path, encoding="ascii", errors="replace").read()
    tmp = tempfile.mkdtemp(prefix="check-plots-")
    try:
        for f in ("timeseries.csv", "results.csv"):
            if os.path.exists(os.path.join(data_dir, f)):
                os.symlink(os.path.abspath(os.path.join(data_dir, f)), os.path.join(tmp, f))
        names = []

        def out(m):
            names.append(m.group(1))
            return "set output 'plot%d.svg'" % (len(names) - 1)

        text = re.sub(r"^set output '([^']*)'", out, text, flags=re.M)
        text, nterm = re.subn(r"^set terminal pngcairo size (\d+),(\d+)",
                              "set terminal svg size \\1,\\2 dynamic", text, flags=re.M)
        if nterm == 0:
            fail(os.path.basename(script_path), "no 'set terminal pngcairo' line")
            return {}
        open(os.path.join(tmp, "check.gp"), "w").write(text)
        r = subprocess.run(["gnuplot", "check.gp"], cwd=tmp, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        if r.returncode != 0:
            fail(os.path.basename(script_path), "gnuplot failed on the SVG copy: %s"
                 % r.stderr.decode("utf-8", "replace").strip()[-300:])
        res = {}
        for i, n in enumerate(names):
            p = os.path.join(tmp, "plot%d.svg" % i)
            if os.path.exists(p):
                res[os.path.basename(n)] = open(p, encoding="utf-8", errors="replace").read()
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TEXT_RE = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)(?: rotate\(([-\d.]+)\))?"'
                     r'[^>]*?font-size="([\d.]+)"[^>]*?text-anchor="(\w+)"[^>]*>\s*<text>(.*?)</text>',
                     re.S)
GROUP_RE = re.compile(r'<g id="gnuplot_plot_(\d+)([a-z]*)" ><title>[^<]*</title>')
COORD_RE = re.compile(r"[ML]\s*([-\d.]+),([-\d.]+)")
RECT_RE = re.compile(r"<path stroke='black'\s+d='M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+) "
                     r"L([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+) L[-\d.]+,[-\d.]+ Z")


class Svg:
    """What one plot shows: its texts, the plot borders and the plotted series."""

    def __init__(self, text, width, height):
        self.w, self.h = width, height
        spans = [(m.start(), m) for m in GROUP_RE.finditer(text)]
        bounds = [s for s, _ in spans] + [len(text)]
        self.series = []  # dict(panel, title, points)
        in_group = []
        for i, (start, m) in enumerate(spans):
            end = bounds[i + 1]
            body = text[start:end]
            # gnuplot closes the group with "\t</g>" on its own line right after the "</g>"
            # of its last element (a text's group closes after "</text>" instead)
            close = body.find("</g>\n\t</g>")
            if close >= 0:
                body = body[:close]
                end = start + close
            in_group.append((start, end))
            tm = list(TEXT_RE.finditer(body))
            paths = re.findall(r"<path[^>]*d='([^']*)'", body)
            pts = sum(len(COORD_RE.findall(d)) for d in paths)
            # a key entry: the group's first text, then a horizontal sample line at its
            # height (a plot `with labels` has texts and no such line)
            title = None
            if tm and paths:
                c = COORD_RE.findall(paths[0])
                ty = float(tm[0].group(2))
                if len(c) >= 2 and c[0][1] == c[1][1] and abs(float(c[0][1]) - ty) < 8 and \
                        body.find("<path") > tm[0].start():
                    title = html.unescape(tm[0].group(6))
                    pts -= 2  # the key sample
            labels = len(tm) - (1 if title is not None else 0)
            self.series.append({"panel": m.group(2) or "a", "title": title,
                                "points": pts + labels, "labels": labels,
                                "boxes": body.count("<polygon"), "start": start,
                                "key_at": tm[0].start() + start if title is not None else -1})
        self.texts = []
        keys = {g["key_at"] for g in self.series}
        for m in TEXT_RE.finditer(text):
            x, y, rot, size, anchor, t = m.groups()
            key = m.start() in keys
            self.texts.append({"x": float(x), "y": float(y), "rot": float(rot or 0),
                               "size": float(size), "anchor": anchor,
                               "text": html.unescape(t), "key": key})
        self.borders = []
        for m in RECT_RE.finditer(text):
            if any(s <= m.start() < e for s, e in in_group):
                continue  # a box of a bar chart, not a plot's border
            xs = [float(v) for v in m.groups()[0::2]]
            ys = [float(v) for v in m.groups()[1::2]]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            if (x1 - x0) * (y1 - y0) > 0.05 * width * height:
                self.borders.append((x0, y0, x1, y1))

    def all_text(self):
        return [t["text"] for t in self.texts]

    def footer(self):
        """The footer: the small texts below the lowest plot border, top to bottom."""
        low = max((b[3] for b in self.borders), default=0)
        f = sorted((t for t in self.texts if t["size"] <= 8.5 and t["y"] > low), key=lambda t: t["y"])
        return " ".join(t["text"] for t in f)


def check_layout(name, s):
    """Every text inside the image; the key outside every data area; at least one border."""
    if not s.borders:
        fail(name, "no plot area drawn")
    for t in s.texts:
        est = len(t["text"]) * t["size"] * CHAR_EM
        lead = {"start": 0, "middle": 0.5, "end": 1}.get(t["anchor"], 0) * est
        if abs(t["rot"]) < 1:
            lo, hi, lim = t["x"] - lead, t["x"] - lead + est, s.w
        else:  # rotated by 270 or 90: the text runs along y
            lo, hi, lim = t["y"] - (est - lead), t["y"] + lead, s.h
        if lo < -1 or hi > lim + 1:
            fail(name, "text does not fit in the image (about %.0f..%.0f of %d px): %r"
                 % (lo, hi, lim, t["text"][:80]))
        if t["key"]:
            for (x0, y0, x1, y1) in s.borders:
                if x0 < t["x"] < x1 and y0 < t["y"] < y1:
                    fail(name, "key entry %r inside the data area" % t["text"][:60])


def need_text(name, s, pattern, what):
    """A text matching the regular expression is shown; returns its match or None."""
    rx = re.compile(pattern)
    for t in s.all_text():
        m = rx.search(t)
        if m:
            return m
    fail(name, "no %s (a text matching %r)" % (what, pattern))
    return None


def series(s, title_rx, panel=None):
    rx = re.compile(title_rx)
    return [g for g in s.series if g["title"] is not None and rx.fullmatch(g["title"])
            and (panel is None or g["panel"] == panel)]


def need_series(name, s, title_rx, min_points, zoom=False):
    """A series titled in the key (whole-run panel "a") with at least min_points points;
    with zoom, the same series (the zoomed panel "b" has no key: the same position in the
    same plot command) has points there too."""
    got = series(s, title_rx, "a")
    if not got:
        fail(name, "series %r missing" % title_rx)
        return
    if max(g["points"] for g in got) < min_points:
        fail(name, "series %r has %d points, expected at least %d"
             % (title_rx, max(g["points"] for g in got), min_points))
    if zoom:
        a = [g for g in s.series if g["panel"] == "a"]
        b = [g for g in s.series if g["panel"] == "b"]
        i = a.index(got[0])
        if i >= len(b) or b[i]["points"] < 2:
            fail(name, "series %r not drawn in the zoomed panel" % title_rx)


def need_footer(name, s, parts):
    f = s.footer()
    for p in parts:
        if p not in f:
            fail(name, "footer lacks %r (footer: %r)" % (p, f[:300]))


def time_unit(end_us):
    """docs/netsim.md 5.1: us below 2 ms, ms below 2 s, else s."""
    return "s" if end_us >= 2e6 else "ms" if end_us >= 2e3 else "us"


def close_to(a, b, rel=0.03):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def plain(t):
    """Text as the plots print it (sim/netsim/plot.c ns_plot_text keeps these)."""
    return re.sub(r"[^A-Za-z0-9 ._\-=,:+/()%>]", "_", t)


# ------------------------------------------------------------------ one run

def check_run(d):
    try:
        js = json.load(open(os.path.join(d, "summary.json")))
    except (OSError, ValueError) as e:
        fail("summary.json", "cannot read (%s)" % e)
        return
    meta, sm = js["meta"], js["summary"]
    params = meta.get("params", {})
    rows, header = [], []
    with open(os.path.join(d, "timeseries.csv")) as f:
        r = csv.reader(line for line in f if not line.startswith("#"))
        header = next(r)
        rows = list(r)
    nsamples = len(rows)
    end_us = sm["duration_s"] * 1e6
    sample_us = float(params.get("sample_us", "0") or 0)
    tu = time_unit(end_us)
    qps = [h[:-len("_rc_mbps")] for h in header if h.endswith("_rc_mbps")]
    dcqcn = params.get("dcqcn", "on") != "off" and any(
        f.get("transport") == "roce" for f in js["flows"])
    groups = sorted((sm.get("steady_goodput_gbps") or {}).keys())
    ngroups = sm.get("fairness_groups", len(groups))
    warm = float(params.get("warmup_s", "0") or 0) * 1e6
    # a zoomed panel after warm-up is required; plot.c also zooms without one (from the
    # start of the measurement, or past the first 10 %), checked when it is there
    zoom_needed = warm > 0 and end_us - warm >= 10 * sample_us
    # the rate bin W (one base RTT or 10 samples, a whole number of samples), the zoom's
    # longest span (200 W) and the whole-run panel's bin of a long run (plot.c, 5.1)
    smp = sample_us if sample_us > 0 else 1
    w_us = smp * math.ceil(max(float(sm.get("base_rtt_us", 0) or 0), 10 * smp) / smp - 1e-9)
    coarse = end_us / w_us > WHOLE_MAX_BINS
    wa_us = w_us * math.ceil(end_us / w_us / DETAIL_BINS - 1e-9) if coarse else w_us
    foot = ["xtm-netsim %s" % meta["version"], "seed %s" % meta["seed"],
            "reproduce: xtm-netsim run %s" % plain(meta["scenario"])]
    foot += ["--set %s=%s" % (k, plain(v)) for k, v in meta.get("overrides", {}).items()]
    want = ["queue.png", "util.png"] + (["rates.png", "rates-qp.png"] if dcqcn and qps else [])
    present = [w for w in want if check_png(os.path.join(d, w), RUN_W, RUN_H)]
    if not os.path.exists(os.path.join(d, "plots.gp")):
        fail("plots.gp", "missing")
        return
    svgs = render_svg(os.path.join(d, "plots.gp"), d, RUN_W, RUN_H)
    for w in want:
        if w not in svgs:
            fail(w, "not drawn by plots.gp")
            continue
        n0 = len(failures)
        s = Svg(svgs[w], RUN_W, RUN_H)
        check_layout(w, s)
        need_footer(w, s, foot)
        need_text(w, s, r"^time \(%s\)$" % tu, "time axis in %s" % tu)
        zoom = any(t.startswith("zoom: from ") for t in s.all_text())
        if zoom_needed and not zoom:
            fail(w, "no zoomed panel after warmup_s")
        if zoom:
            check_zoom_span(w, s, end_us, warm, w_us)
        if coarse and w in ("rates.png", "rates-qp.png"):
            check_whole_bins(w, s, wa_us)
        need_text(w, s, "^%s: " % re.escape(plain(meta["name"])), "title naming the scenario")
        if w == "queue.png":
            check_queue(w, s, sm, params, nsamples, zoom)
        elif w == "util.png":
            need_text(w, s, r"^Gb/s$", "y axis in Gb/s")
            need_text(w, s, r"^link rate [\d.]+ Gb/s$", "labelled link-rate line")
            need_series(w, s, r"L2 \(frame bytes\)", nsamples)
            need_series(w, s, r"L1 \(\+ preamble, SFD, IFG\)", nsamples)
        elif w == "rates.png":
            check_rates(w, s, groups, ngroups, qps, zoom)
        elif w == "rates-qp.png":  # a line per QP, a key entry per group
            titled = [g for g in s.series if g["title"] and g["panel"] == "a"]
            lines = [g for g in s.series if g["panel"] == "a"]
            if len(titled) != ngroups:
                fail(w, "key has %d entries, expected one per group (%d)" % (len(titled), ngroups))
            if len(lines) != min(len(qps), 64):
                fail(w, "%d QP lines, the time series has %d QPs" % (len(lines), len(qps)))
        if len(failures) == n0 and w in present:
            print("ok %s" % w)


DETAIL_BINS = 200      # the zoomed panel spans at most this many rate bins
WHOLE_MAX_BINS = 400   # a whole run with more bins is drawn as means of about 200


def us_of(v, unit):
    return float(v) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]


def check_zoom_span(w, s, end_us, warm_us, w_us):
    """The zoomed panel starts at the warm-up or later, and spans at most 200 rate bins."""
    for t in s.all_text():
        m = re.match(r"zoom: from ([\d.e+-]+) (us|ms|s) ", t)
        if not m:
            continue
        start = us_of(*m.groups())
        span = end_us - start
        # the title prints the start to 3 significant digits: half a unit of the third
        if span > DETAIL_BINS * w_us * 1.01 + start * 0.005 + 1e-6:
            fail(w, "zoomed panel spans %.6g us, more than %d rate bins of %.6g us"
                 % (span, DETAIL_BINS, w_us))
        if warm_us > 0 and start < warm_us * 0.99:
            fail(w, "zoomed panel starts at %.6g us, before warmup_s (%.6g us)" % (start, warm_us))
        return


def check_whole_bins(w, s, wa_us):
    """A long run's whole-run panel: every line the mean per wa_us (about 200 points), and
    the panel's title says so."""
    need_text(w, s, r"^whole run, every line the mean per ", "whole-run panel title naming its bin")
    most = 2 * DETAIL_BINS + 2
    for g in s.series:
        if g["panel"] == "a" and g["points"] > most:
            fail(w, "series %r has %d points in the whole-run panel, expected at most %d "
                 "(the mean per %.6g us)" % (g["title"], g["points"], most, wa_us))
            return


def check_queue(w, s, sm, params, nsamples, zoom):
    need_text(w, s, r"^queue \(MB", "y axis in MB")
    if sm.get("base_rtt_us", 0) > 0:
        need_text(w, s, r"^queue \(RTT", "second y axis in RTT")
    need_series(w, s, r"VOQ occupancy", nsamples, zoom)
    # the reference lines, in MB and RTT; against the scenario's own values where it has them
    lim = need_text(w, s, r"^VOQ limit ([\d.e+]+) MB(?: = ([\d.e+-]+) RTT)?", "labelled VOQ-limit line")
    if lim and "buffer_rtt" in params and lim.group(2):
        if not close_to(float(lim.group(2)), float(params["buffer_rtt"])):
            fail(w, "VOQ limit line at %s RTT, the scenario says buffer_rtt %s"
                 % (lim.group(2), params["buffer_rtt"]))
    if "kmin_rtt" in params and params.get("profile") in ("final", "custom"):
        for k in ("kmin", "kmax"):
            m = need_text(w, s, r"^%s ([\d.e+]+) MB = ([\d.e+-]+) RTT" % k.capitalize(),
                          "labelled %s line" % k.capitalize())
            if m and not close_to(float(m.group(2)), float(params[k + "_rtt"])):
                fail(w, "%s line at %s RTT, the scenario says %s_rtt %s"
                     % (k.capitalize(), m.group(2), k, params[k + "_rtt"]))
    if sm.get("pause_frames", 0) > 0:  # PFC acted: its thresholds are drawn
        texts = " | ".join(s.all_text())
        if not re.search(r"(^| \| )XOFF ", texts) and not series(s, r"XOFF .*"):
            fail(w, "no XOFF line or series although the run sent PAUSE frames")
        if not re.search(r"(^| \| )XON ", texts) and not series(s, r"XON.*"):
            fail(w, "no XON line or series although the run sent PAUSE frames")


def check_rates(w, s, groups, ngroups, qps, zoom):
    need_text(w, s, r"^Gb/s$", "y axis in Gb/s")
    titled = [g for g in s.series if g["title"] and g["panel"] == "a"]
    clients = [g for g in titled if re.fullmatch(r".* \(\d+ QPs?(, Rc only)?\)", g["title"])]
    if len(clients) != ngroups:
        fail(w, "%d group lines in the key, expected one per group (%d): %s"
             % (len(clients), ngroups, [g["title"] for g in clients][:8]))
    extra = [g["title"] for g in titled if g not in clients and not g["title"].startswith(("solid:", "dashed:"))]
    if extra:
        fail(w, "unexpected key entries %s" % extra[:5])
    for name in groups:
        need_series(w, s, r"%s \(\d+ QPs?(, Rc only)?\)" % re.escape(plain(name)), 2, zoom)
    nq = sum(int(re.search(r"\((\d+) QP", g["title"]).group(1)) for g in clients) if clients else 0
    if clients and nq != min(len(qps), 64):
        fail(w, "the key counts %d QPs, the time series has %d" % (nq, len(qps)))


# ------------------------------------------------------------------ one sweep

# KPI column of results.csv -> (PNG, unit kind); sim/netsim/main.c draws these when a run
# has a value
KPIS = [("bottleneck_util_gbps", "util", "Gb/s"), ("steady_util_gbps", "steady", "Gb/s"),
        ("peak_queue_rtt", "peakq", "RTT"), ("cnps_sent", "cnps", "count"),
        ("pause_frames", "pauses", "count"), ("victim_fct_us", "victim", "time"),
        ("fct_us", "fct", "time"), ("retransmitted_bytes", "retx", "bytes")]


def num(v):
    try:
        x = float(v)
        return x if math.isfinite(x) else None
    except ValueError:
        return None


def check_sweep(d):
    try:
        lines = open(os.path.join(d, "results.csv")).read().splitlines()
    except OSError as e:
        fail("results.csv", "cannot read (%s)" % e.strerror)
        return
    m = re.match(r"# xtm-netsim (\S+) sweep (\S+);", lines[0])
    if not m:
        fail("results.csv", "no stamp line")
        return
    version, family = m.groups()
    rows = list(csv.reader(lines[1:]))
    head, rows = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    nax = head.index("bottleneck_util_gbps")
    lines_mode = nax >= 2
    # the series axis: the first, but with two axes of which only the first is numeric the
    # numbers go on x and the second axis gives the lines (sim/netsim/main.c, the same rule)
    sa = 0
    if nax == 2 and all(num(r[0]) is not None for r in rows) and \
            not all(num(r[1]) is not None for r in rows):
        sa = 1
    foot = ["xtm-netsim %s" % version, "sweep %s" % family, "reproduce: xtm-netsim sweep %s" % family]
    # the report names the sweep's overrides: they are in the footer's command too
    rep = open(os.path.join(d, "report.md")).read() if os.path.exists(os.path.join(d, "report.md")) else ""
    rm = re.search(r"Reproduce with `([^`]*)`", rep)
    if rm:
        foot = [p for p in foot if not p.startswith("reproduce")] + ["reproduce: " + plain(rm.group(1))]
    want = []
    for col, png, kind in KPIS:
        if col in head and any(num(r[head.index(col)]) is not None for r in rows):
            want.append((col, png + ".png", kind))
    for col, w, kind in want:
        if not check_png(os.path.join(d, w), RUN_W, RUN_H):
            continue
    svgs = render_svg(os.path.join(d, "report.gp"), d, RUN_W, RUN_H) if os.path.exists(
        os.path.join(d, "report.gp")) else {}
    if not svgs:
        fail("report.gp", "missing or draws nothing")
    for col, w, kind in want:
        if w not in svgs:
            fail(w, "not drawn by report.gp")
            continue
        n0 = len(failures)
        s = Svg(svgs[w], RUN_W, RUN_H)
        check_layout(w, s)
        need_footer(w, s, foot)
        need_text(w, s, "^%s: " % re.escape(family), "title naming the family")
        ci = head.index(col)
        vals = [num(r[ci]) for r in rows]
        vmax = max((abs(v) for v in vals if v is not None), default=0)
        unit = {"time": time_unit(vmax), "bytes": "GB" if vmax >= 2e9 else "MB" if vmax >= 2e6 else
                "kB" if vmax >= 2e3 else "B", "count": "count"}.get(kind, kind)
        need_text(w, s, r"\(%s\)$" % re.escape(unit), "y axis in %s" % unit)
        if lines_mode:  # one line per value of the series axis, a point per row with a value
            firsts = []
            for r in rows:
                if r[sa] not in firsts:
                    firsts.append(r[sa])
            for v in firsts:
                n = sum(1 for r in rows if r[sa] == v and num(r[ci]) is not None)
                need_series(w, s, re.escape("%s=%s" % (head[sa], plain(v))), n)
            titled = [g for g in s.series if g["title"]]
            if len(titled) != len(firsts):
                fail(w, "%d lines in the key, expected %d (%s=...)" % (len(titled), len(firsts), head[sa]))
        else:  # a bar per row with a value, and its value written above it
            n = sum(1 for v in vals if v is not None)
            nz = sum(1 for v in vals if v)  # a bar of height 0 is not drawn, its label is
            bars = sum(g["boxes"] for g in s.series)
            labels = sum(g["labels"] for g in s.series)
            if bars != nz or labels != n:
                fail(w, "%d bars and %d value labels, expected %d and %d" % (bars, labels, nz, n))
            for r in rows:
                if num(r[ci]) is not None and plain(r[0]) not in s.all_text():
                    fail(w, "no bar labelled %r" % r[0])
        if len(failures) == n0:
            print("ok %s" % w)


# ------------------------------------------------------------------ dcqcn-trace

def check_trace(png, args):
    def opt(name, dflt):
        return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else dflt
    until = float(opt("--until-us", "1000"))
    cnps = [c for c in opt("--cnp-us", "").split(",") if c] if "--cnp-us" in args else []
    rate = float(opt("--line-rate-mbps", "100000"))
    for a in args:
        if a.startswith("LINE_RATE="):
            rate = float(a.split("=", 1)[1])
    name = os.path.basename(png)
    ok = check_png(png, TRACE_W, TRACE_H)
    if not os.path.exists(png + ".gp"):
        fail(name, "no %s.gp beside it" % name)
        return
    svgs = render_svg(png + ".gp", os.path.dirname(png) or ".", TRACE_W, TRACE_H)
    if len(svgs) != 1:
        fail(name, "the script draws %d plots, expected 1" % len(svgs))
        return
    n0 = len(failures)
    s = Svg(list(svgs.values())[0], TRACE_W, TRACE_H)
    check_layout(name, s)
    need_text(name, s, r"^time \(%s\)$" % time_unit(until), "time axis in %s" % time_unit(until))
    ru = "Gb/s" if rate >= 10000 else "Mb/s"
    need_text(name, s, r"^rate \(%s\)$" % re.escape(ru), "rate axis in %s" % ru)
    need_text(name, s, r"^alpha \(fraction", "alpha axis as a fraction")
    need_text(name, s, r"^line rate [\d.]+ %s$" % re.escape(ru), "labelled line-rate line")
    need_text(name, s, r"\b%d CNPs?$" % len(cnps), "title with the number of CNPs")
    rows = int(math.floor(until / float(opt("--every-us", "1")) * (1 + 1e-12))) + 1
    for t in (r"Rc \(current rate\)", r"Rt \(target rate\)", r"alpha \(right axis\)"):
        need_series(name, s, t, min(rows, 2))
    if cnps:
        need_series(name, s, r"CNP arrivals", 2 * len(cnps))
    need_footer(name, s, ["dcqcn-trace (xtm ", "no random input",
                          "reproduce: dcqcn-trace " + plain(" ".join(args))])
    if ok and len(failures) == n0:
        print("ok %s" % name)


def main(argv):
    if len(argv) >= 2 and argv[0] == "run":
        check_run(argv[1])
    elif len(argv) >= 2 and argv[0] == "sweep":
        check_sweep(argv[1])
    elif len(argv) >= 3 and argv[0] == "trace" and argv[2] == "--":
        check_trace(argv[1], argv[3:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
