#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables of docs/netsim.md section 9 from the report runs.

    sim/netsim/tools/tables.py [DIR]   (default build/netsim/report, made by the commands
                                        listed in docs/netsim.md 9; prints markdown)
Every number is read from the runs' summary.json files; nothing is computed here except
ratios stated in the column names (FCT overhead against the ideal, retransmitted share)."""
import glob
import json
import os
import sys

D = sys.argv[1] if len(sys.argv) > 1 else "build/netsim/report"


def load(p):
    try:
        return json.load(open(p))
    except (OSError, ValueError):
        return None


def g(v, fmt="%.4g"):
    return "-" if v is None else (fmt % v if isinstance(v, (int, float)) else str(v))


def runs(sweep):
    out = []
    for s in sorted(glob.glob(os.path.join(D, sweep, "*", "summary.json"))):
        j = load(s)
        if j:
            out.append(j)
    return out


def param(j, k):
    return j["meta"]["params"].get(k)


def scale_across():
    print("#### Sweep, staggered start, half-RTT PFC thresholds (the defaults)\n")
    print("| load_bdp | distance_km | util L2 (Gb/s) | util L1 | per-s min / mean / max L2 | steady (10..60 s) mean / min / max L2 | tail drops | pause frames | peak queue (RTT) | steady peak (RTT) | CNPs | Jain | steady Jain |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rs = runs("scale-across-staggered-halfrtt")
    for p in glob.glob(os.path.join(D, "sd-*km", "summary.json")):  # single runs of the same set-up
        j = load(p)
        if j:
            rs.append(j)
    rs.sort(key=lambda j: (float(param(j, "load_bdp")), float(param(j, "distance_km"))))
    for j in rs:
        s = j["summary"]
        print("| %s | %s | %s | %s | %s / %s / %s | %s / %s / %s | %s | %s | %s | %s | %s | %s | %s |" % (
            param(j, "load_bdp"), param(j, "distance_km"), g(s["bottleneck_util_gbps"]),
            g(s["bottleneck_util_l1_gbps"]), g(s.get("util_interval_min_gbps")),
            g(s.get("util_interval_mean_gbps")), g(s.get("util_interval_max_gbps")),
            g(s.get("steady_util_gbps")), g(s.get("steady_util_min_gbps")),
            g(s.get("steady_util_max_gbps")), g(s["tail_drops"]), g(s["pause_frames"]),
            g(s["peak_queue_rtt"]), g(s.get("steady_peak_queue_rtt")), g(s["cnps_sent"]),
            g(s["jain_fairness"]), g(s.get("steady_jain_fairness"))))
    print("\n#### 4:1 (load 1.0) under both start modes and both PFC-threshold assumptions\n")
    print("| client_start | pfc_thresholds | distance_km | util L2 | per-s min / max L2 | steady mean / min / max L2 | tail drops | lossless drops | pause frames | peak queue (RTT) | Jain | steady Jain |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for j in rs:
        if param(j, "load_bdp") == "1.0":
            rows.append(("staggered", "half-rtt", j))
    for p in glob.glob(os.path.join(D, "sa-*km", "summary.json")):
        j = load(p)
        if j:
            rows.append((param(j, "client_start"), param(j, "pfc_thresholds"), j))
    rows.sort(key=lambda r: (r[0], r[1], float(param(r[2], "distance_km"))))
    for st, pf, j in rows:
        s = j["summary"]
        print("| %s | %s | %s | %s | %s / %s | %s / %s / %s | %s | %s | %s | %s | %s | %s |" % (
            st, pf, param(j, "distance_km"), g(s["bottleneck_util_gbps"]),
            g(s.get("util_interval_min_gbps")), g(s.get("util_interval_max_gbps")),
            g(s.get("steady_util_gbps")), g(s.get("steady_util_min_gbps")),
            g(s.get("steady_util_max_gbps")), g(s["tail_drops"]), g(s["lossless_drops"]),
            g(s["pause_frames"]), g(s["peak_queue_rtt"]), g(s["jain_fairness"]),
            g(s.get("steady_jain_fairness"))))


def pfc_victim():
    for mode, suf in (("express5", ""), ("hpcc", "-hpcc")):
        print("\n#### switch_mode %s (`xtm-netsim sweep pfc-victim%s`)\n" % (mode, " --set switch_mode=hpcc" if suf else ""))
        print("| run | victim FCT (us) | pause frames sent | lossless drops | PAUSE frames received (paused time) per link |")
        print("|---|---|---|---|---|")
        order = ["alone", "big-buffer", "pfc", "other-priority"]
        rs = sorted(runs("pfc-victim" + suf), key=lambda j: order.index(param(j, "run")))
        for j in rs:
            s = j["summary"]
            links = ", ".join("%s %d (%.1f us)" % (l["name"], l["pause_frames_rx"], l["paused_us"])
                              for l in j["links"] if l["pause_frames_rx"] > 0) or "none"
            print("| %s | %s | %s | %s | %s |" % (param(j, "run"), g(s.get("victim_fct_us"), "%.3f"),
                                                g(s["pause_frames"]), g(s["lossless_drops"]), links))
        print("\nPAUSE frames against buffer and DCQCN (run `pfc`):\n")
        print("| buffer_mib | dcqcn | pause_frames | victim FCT (us) | util L2 (Gb/s) | lossless drops | tail drops | Jain |")
        print("|---|---|---|---|---|---|---|---|")
        rs = sorted(runs("pfc-victim-buffers" + suf), key=lambda j: (float(param(j, "buffer_mib")), param(j, "dcqcn") != "on"))
        for j in rs:
            s = j["summary"]
            print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (param(j, "buffer_mib"), param(j, "dcqcn"),
                  g(s["pause_frames"]), g(s.get("victim_fct_us"), "%.1f"), g(s["bottleneck_util_gbps"]),
                  g(s["lossless_drops"]), g(s["tail_drops"]), g(s["jain_fairness"])))
        rs = sorted(runs("pfc-victim-senders" + suf), key=lambda j: int(param(j, "extra_senders")))
        if rs:
            print("\nVictim against the number of incast senders on B (run `pfc`, 1 MiB):\n")
            print("| senders on B | " + " | ".join(param(j, "extra_senders") for j in rs) + " |")
            print("|---|" + "---|" * len(rs))
            vf = [j["summary"].get("victim_fct_us") for j in rs]
            print("| victim FCT (us) | " + " | ".join(g(v, "%.1f") for v in vf) + " |")
            print("| victim goodput (Gb/s) | " + " | ".join(
                g(next(f["goodput_gbps"] for f in j["flows"] if "victim" in f["name"]), "%.1f") for j in rs) + " |")
            print("| pause frames | " + " | ".join(g(j["summary"]["pause_frames"]) for j in rs) + " |")
            print("| lossless drops | " + " | ".join(g(j["summary"]["lossless_drops"]) for j in rs) + " |")


def roce_lab():
    print("\n| phase | p50 (us) | p99 (us) | p999 (us) | max (us) | switch CE marks | receiver CE | CNPs sent | CNPs handled | PAUSE frames |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    order = ["unloaded", "congested", "recovered"]
    for j in sorted(runs("roce-lab"), key=lambda j: order.index(param(j, "phase"))):
        s = j["summary"]
        lat = next(f["latency_us"] for f in j["flows"] if "latency_us" in f)
        print("| %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %s | %s | %s |" % (
            param(j, "phase"), lat["p50"], lat["p99"], lat["p999"], lat["max"], g(s["ecn_marks"]),
            g(s["ce_received"]), g(s["cnps_sent"]), g(s["cnps_handled"]), g(s["pause_frames"])))


def deep_buffer():
    print("\n| distance_km | buffer_bdp | message_mb | RoCE FCT (us) | RoCE overhead vs ideal (%) | RoCE retransmitted (% of message) | RoCE timeouts | UET FCT (us) | UET overhead (%) | UET retransmitted (%) | UET timeouts | UET losses by SACK / RTO |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    r = {(param(j, "distance_km"), param(j, "buffer_bdp"), param(j, "message_mb")): j for j in runs("deep-buffer-sweep")}
    u = {(param(j, "distance_km"), param(j, "buffer_bdp"), param(j, "message_mb")): j for j in runs("deep-buffer-sweep-uet")}
    keys = sorted(set(r) | set(u), key=lambda k: (float(k[0]), -float(k[1]), float(k[2])))
    for k in keys:
        km, bb, mb = k
        rtt = 2 * (5 * float(km) + 1)
        ideal = float(mb) * 1e6 * 8 / 50e9 * 1e6 + rtt / 2
        cells = []
        for d in (r, u):
            j = d.get(k)
            if j is None:
                cells += ["refused: buffer below one frame", "-", "-", "-"]
                continue
            f = j["flows"][0]
            fct = f["fct_us"]
            cells += [g(fct, "%.0f") if fct else "not complete in %g s" % j["summary"]["duration_s"],
                      g(100 * (fct - ideal) / ideal, "%.0f") if fct else "-",
                      g(100 * f["retransmitted_bytes"] / (float(mb) * 1e6), "%.1f"), g(f["timeouts"])]
        ju = u.get(k)
        sack = "%d / %d" % (ju["flows"][0].get("uet_fast_losses", 0), ju["flows"][0].get("uet_rto_losses", 0)) if ju else "-"
        print("| %s | %s | %s | %s | %s |" % (km, bb, mb, " | ".join(cells), sack))


def buffer_kmin():
    rs = []
    for p in sorted(glob.glob(os.path.join(D, "bs-kmin*", "summary.json"))):
        j = load(p)
        if j:
            rs.append(j)
    if not rs:
        return
    print("\n| Kmin (RTT) | util L2 (Gb/s) | per-0.1 s min / max | pause frames | paused us client0..3 | CNPs | peak queue (RTT) | Jain |")
    print("|---|---|---|---|---|---|---|---|")
    for j in rs:
        s = j["summary"]
        paused = " / ".join("%.0f" % l["paused_us"] for l in j["links"] if l["name"].startswith("client"))
        print("| %s | %s | %s / %s | %s | %s | %s | %s | %s |" % (param(j, "kmin_rtt"), g(s["bottleneck_util_gbps"]),
              g(s.get("util_interval_min_gbps")), g(s.get("util_interval_max_gbps")), g(s["pause_frames"]),
              paused, g(s["cnps_sent"]), g(s["peak_queue_rtt"]), g(s["jain_fairness"])))


for name, fn in (("scale-across", scale_across), ("pfc-victim", pfc_victim), ("roce-lab", roce_lab),
                 ("deep-buffer", deep_buffer), ("buffer-kmin", buffer_kmin)):
    print("\n### %s\n" % name)
    fn()
