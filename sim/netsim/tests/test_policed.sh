#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# xtm-netsim policed-circuits (docs/netsim.md 4.5): short deterministic runs checking facts
# derived by hand (the capacity and FCT-efficiency arithmetic, zero random drops at loss 0
# and some at a high loss, a sender shaped below the circuit rate), the two parts' topology,
# and bad input with its exact message. Prints PASS/FAIL lines for tools/run-tests.
set -u
NS=${NETSIM:-build/bin/xtm-netsim}
case $NS in /*) ;; *) NS=$PWD/$NS ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SC=sim/scenarios/policed-circuits.ini

EXPECT_ERR_TAG=policed-bad
. "$(dirname "$0")/expect_err.sh"

# ---- bad input: the key named, exit 1
expect_err unknown-cc 1 "--set tcp_cc: 'reno' is not one of cubic or bbr" "$NS" run $SC --set tcp_cc=reno
expect_err negative-loss 1 "--set loss_rate: '-0.1' is out of range 0..1" "$NS" run $SC --set loss_rate=-0.1
expect_err loss-above-one 1 "--set loss_rate: '2' is out of range 0..1" "$NS" run $SC --set loss_rate=2
expect_err circuit-above-link 1 "--set circuit_gbps: a circuit of 120 Gb/s is above the link rate of 100 Gb/s" \
  "$NS" run $SC --set circuit_gbps=120
expect_err system-above-link 1 "--set link_gbps: a circuit of 80 Gb/s is above the link rate of 40 Gb/s" \
  "$NS" run $SC --set part=a --set link_gbps=40
expect_err expedited-above-link 1 "--set expedited_gbps: an expedited queue shaped to 150 Gb/s is above the link rate of 100 Gb/s" \
  "$NS" run $SC --set expedited_gbps=150
expect_err bad-part 1 "--set part: 'c' is not one of a or b" "$NS" run $SC --set part=c
expect_err three-rtts 1 "--set pair_rtts_ms: 3 RTTs: four are needed (S1-D1 S1-D2 S2-D1 S2-D2)" \
  "$NS" run $SC --set "pair_rtts_ms=14 7 16"
expect_err rtt-below-fixed 1 "--set pair_rtts_ms: 0.1 ms is not above the 404 us the path's fixed links take" \
  "$NS" run $SC --set "pair_rtts_ms=14 7 16 0.1"
expect_err flows-above-bytes 1 "--set file_mb: 10 flows cannot share a file of 5 bytes" \
  "$NS" run $SC --set file_mb=0.000005
expect_err burst-below-frame 1 "--set policer_burst_ms: a burst of 0.001 ms at 20 Gb/s is 2500 bytes, below one 9000-byte frame: every frame would be dropped (Junos' minimum burst-size-limit is the MTU)" \
  "$NS" run $SC --set policer_burst_ms=0.001

run() {  # name, overrides...: summary JSON in $T/<name>.json
  local name=$1; shift
  local args=()
  for kv in "$@"; do args+=(--set "$kv"); done
  timeout 120 "$NS" run $SC "${args[@]}" --json --out "$T/$name" >"$T/$name.json" 2>"$T/$name.err" \
    || { echo "FAIL policed-run $name"; cat "$T/$name.err"; }
}
# policer off: these facts hold without it (the policer's own checks follow the model's)
run b-noloss policer=off file_mb=20 flows=2
run b-loss policer=off file_mb=20 flows=2 loss_rate=0.01
run b-shaped policer=off file_mb=20 flows=2 sender_shaping=on
run a-noshaper part=a policer=off system_file_mb=40 queue_shaper=off tcp_cc=bbr

cat >"$T/kpis.py" <<'PY'
import json, sys
T = sys.argv[1]
d = json.load(open(T + "/b-noloss.json"))
s = d["summary"]
c = s["circuits"]
assert len(c) == 8 and [x["name"] for x in c] == ["c%d" % i for i in range(8)]
# the four pairs' RTTs, two circuits each
assert [x["base_rtt_us"] for x in c] == [14000, 14000, 7000, 7000, 16000, 16000, 10000, 10000]
# 2 flows per circuit striping 20 MB: 10,000,000 B each, named c<k>.<i>
assert len(d["flows"]) == 16 and all(f["bytes"] == 10000000 for f in d["flows"])
assert d["flows"][3]["name"] == "c1.1"
# capacity (no policer, queue shaper on): min(link 100 G / 4 x 8938 / 9020 (L1: +62 header
# +20 preamble/IFG), shaper 80 G / 4 x 8938 / 9000 (L2)) = 20 G x 8938 / 9000
cap = 20e9 * 8938 / 9000
for x in c:
    assert abs(x["capacity_payload_gbps"] - cap / 1e9) < 1e-9, x
    ideal = 20e6 * 8 / cap                      # s
    assert abs(x["ideal_fct_us"] - ideal * 1e6) < 1e-6, x
    fct = x["fct_us"] * 1e-6
    assert abs(x["fct_efficiency"] - ideal / fct) < 1e-12, x
    assert abs(x["goodput_gbps"] - 20e6 * 8 / fct / 1e9) < 1e-9, x
    assert abs(x["retx_overhead_pct"] - x["retransmitted_bytes"] * 8 / fct / 20e9 * 100) < 1e-9, x
    # a circuit's FCT: its last flow's end minus its first flow's start
    fl = [f for f in d["flows"] if f["name"].startswith(x["name"] + ".")]
    assert abs(fct * 1e6 - (max(f["start_us"] + f["fct_us"] for f in fl) - min(f["start_us"] for f in fl))) < 1e-3
    assert x["random_drops"] == 0 and x["policer_drops"] == 0
assert s["random_drops"] == 0 and s["circuits_done"] == 8
assert abs(s["fct_efficiency_mean"] - sum(x["fct_efficiency"] for x in c) / 8) < 1e-12
assert s["circuit_goodput_min_gbps"] == min(x["goodput_gbps"] for x in c)
# loss 0.01 on the receiver cables: random drops on every circuit, each one resent
l = json.load(open(T + "/b-loss.json"))["summary"]
assert all(x["random_drops"] > 0 for x in l["circuits"]), l["circuits"]
assert l["random_drops"] == sum(x["random_drops"] for x in l["circuits"])
# (every lost frame is resent: a segment holds 8938 bytes, the last of a flow 10,000,000 -
# 1118 x 8938 = 7316)
assert all(x["retransmitted_bytes"] >= x["random_drops"] * 7316 for x in l["circuits"])
assert l["circuits_done"] == 8
# sender shaping: each flow paced at most at 20 G / 2 of wire bytes (L1), so no sender's
# link carries more than 20 Gb/s of frames over the run
sh = json.load(open(T + "/b-shaped.json"))
for k in sh["links"]:
    if k["name"].startswith("snd"):
        assert 0 < k["util_gbps"] <= 20.0 * 9000 / 9020, k
# part a: one circuit, one receiver cable, no policer and no shaper: the capacity is the link's
a = json.load(open(T + "/a-noshaper.json"))["summary"]
assert len(a["circuits"]) == 1 and a["circuits"][0]["base_rtt_us"] == 10000
assert abs(a["circuits"][0]["capacity_payload_gbps"] - 100 * 8938 / 9020) < 1e-9
assert a["circuits"][0]["bytes"] == 40000000
PY
python3 "$T/kpis.py" "$T" && echo "PASS policed-kpis" || echo "FAIL policed-kpis"
# the checker fails on a KPI off by 1 % (the efficiency of circuit c3 in the summary)
mkdir -p "$T/mut" && cp "$T"/*.json "$T/mut/"
python3 - "$T/mut/b-noloss.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["summary"]["circuits"][3]["fct_efficiency"] *= 1.01
json.dump(d, open(sys.argv[1], "w"))
PY
if python3 "$T/kpis.py" "$T/mut" 2>/dev/null; then echo "FAIL policed-kpis-mutant (not caught)"; else echo "PASS policed-kpis-mutant"; fi

# ---- the policer (spec 4.7) at work. Derivation (docs/netsim.md 4.5): part a at 1 Gb/s
# (0.125 B/cycle), one CUBIC flow of 10 segments (89,380 B), the bucket full at the first
# arrival (5 ms after reset it holds 625 kB > B), the initial window of 10 frames of 9000 B
# sent back to back at 100 Gb/s (721.6 ns apart: 90.2 B of refill each). B = 31,500 B
# (0.252 ms): frames 1-3 conform (tokens 31,500, 22,590, 13,680 B), frames 4-10 find
# 4,770 + k x 90 B < 9,000: 7 POLICE drops of 9,000 B; their retransmissions go out after
# the RTO, far apart, and conform: 10 passes. B = 40,500 B (0.324 ms): 4 pass, 6 dropped.
run pol-b7 part=a policer=on queue_shaper=off system_gbps=1 system_file_mb=0.08938 flows=1 policer_burst_ms=0.252
run pol-b6 part=a policer=on queue_shaper=off system_gbps=1 system_file_mb=0.08938 flows=1 policer_burst_ms=0.324
# part b policed, with and without sender shaping (each flow paced at 10 Gb/s of wire bytes,
# under the policer's 20 Gb/s of L2 bytes: nothing to drop once the 12.5 MB burst is spent)
run pol-b policer=on file_mb=20 flows=2
run pol-shaped policer=on file_mb=20 flows=2 sender_shaping=on
cat >"$T/pol.py" <<'PY'
import json, sys
T = sys.argv[1]
def summ(n):
    return json.load(open(T + "/" + n + ".json"))["summary"]
def agree(s):
    # the per-packet POLICE count, the circuits' sum and the POL_DROP_PKTS registers agree
    regs = sum(v["drop_pkts"] for k, v in s["policers"].items() if k != "read_error")
    bytes_ = sum(v["drop_bytes"] for k, v in s["policers"].items() if k != "read_error")
    why = sum(v for k, v in s["drops_by_reason"].items() if k.endswith(".POLICE"))
    assert "read_error" not in s["policers"]
    assert s["policer_drops"] == regs == why == sum(c["policer_drops"] for c in s["circuits"]), s
    assert bytes_ == 9000 * regs, s["policers"]  # every data frame is 9000 B of L2
for n, drops, passes in (("pol-b7", 7, 10), ("pol-b6", 6, 10)):
    s = summ(n)
    assert s["policer_drops"] == drops, (n, s["policer_drops"])
    assert s["policers"] == {"site.p0.0": {"pass_pkts": passes, "drop_pkts": drops,
                                           "drop_bytes": 9000 * drops}}, s["policers"]
    assert s["circuits_done"] == 1
    agree(s)
b = summ("pol-b")
agree(b)
assert sorted(k.split(".")[0] for k in b["policers"]) == ["src1"] * 4 + ["src2"] * 4, b["policers"]
assert b["circuits_done"] == 8
sh = summ("pol-shaped")
agree(sh)
assert sh["policer_drops"] == 0 and sh["circuits_done"] == 8, sh["policer_drops"]
PY
python3 "$T/pol.py" "$T" && echo "PASS policed-policer" || echo "FAIL policed-policer"
# part a at 80 Gb/s: 5 ms would be 50 MB, beyond the 24-bit POL_BURST: capped, and said
if timeout 120 "$NS" run $SC --set part=a --set system_file_mb=8 --out "$T/cap" 2>&1 |
  grep -qF "set-up: policer burst: 5 ms at 80 Gb/s is 50000000 B, above the 24-bit POL_BURST register: capped at 16777215 B (1.68 ms)" &&
  grep -qF "burst-size-limit 16777215;" "$T/cap/site-generated.conf"; then
  echo "PASS policed-burst-cap"
else
  echo "FAIL policed-burst-cap"
fi
# the checker fails on one drop more (a policer's count and the circuit's)
mkdir -p "$T/pmut" && cp "$T"/pol-*.json "$T/pmut/"
python3 - "$T/pmut/pol-b7.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["summary"]["policers"]["site.p0.0"]["drop_pkts"] += 1
json.dump(d, open(sys.argv[1], "w"))
PY
if python3 "$T/pol.py" "$T/pmut" 2>/dev/null; then echo "FAIL policed-policer-mutant (not caught)"; else echo "PASS policed-policer-mutant"; fi

# the same run twice gives the same bytes (the loss draws are seeded)
run b-loss2 policer=off file_mb=20 flows=2 loss_rate=0.01
python3 - "$T/b-loss.json" "$T/b-loss2.json" <<'PY' && echo "PASS policed-deterministic" || echo "FAIL policed-deterministic"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["summary"]["circuits"] == b["summary"]["circuits"] and a["flows"] == b["flows"]
PY
